/**
 * The simulated body worn system: against any content destination, it
 * authenticates, reads the capabilities (and categories), writes its system
 * identity, registers users and cameras, and uploads recordings in parallel, then
 * reports what became of each.
 */
import { type Clock, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import { type CapabilityName, type Category, RESERVED_CONTAINERS } from '../protocol/body-worn';
import type { ConnectionFile } from '../protocol/connection-file';
import { type CapabilitiesSource, readCapabilities, readCategories } from './destination-capabilities';
import { type ExpandedPlan, expandPlan, type PlannedRecording } from './expand-plan';
import { DEFAULT_PLAN, type Plan, PlanSchema } from './plan';
import { putEmptyObject, registerAll, type RegistrationFailure } from './registration';
import { type Exchange, type RetryPolicy, SwiftClient } from './swift-client';
import { failedRequestText, type RecordingReport, uploadRecording } from './upload-recording';

// Part of the public face: src/index.ts exports the type from here.
export type { CapabilitiesSource } from './destination-capabilities';

/** Progress, reported as it changes. */
export interface Progress {
  recordingsDone: number;
  recordingsTotal: number;
  bytesSent: number;
  bytesTotal: number;
}

/** Everything a run did. */
export interface UploadReport {
  storageUrl: string;
  capabilities: Record<CapabilityName, boolean>;
  capabilitiesSource: CapabilitiesSource;
  categories: Category[];
  /** Registrations that failed (user or camera id, and the request). */
  registrationFailures: RegistrationFailure[];
  usersRegistered: number;
  devicesRegistered: number;
  recordings: RecordingReport[];
  /** The plan's recordings only: the `--check` probes are never counted as the user's. */
  totals: {
    recordings: number;
    transferred: number;
    notTransferred: number;
    failed: number;
    bytes: number;
    seconds: number;
    megabytesPerSecond: number;
    /** The `--check` probe recordings uploaded besides (not in the counts above); absent when there were none. */
    probes?: number;
  };
  requests: number;
  retries: number;
  /** Of those, the retries of registrations (`PUT Users/...`, `Devices/...`, `System/...`); absent when none. */
  registrationRetries?: number;
  /** Time spent waiting before retries, in ms, summed over all requests (waits in parallel add up). */
  retryWaitMs: number;
}

/** Options of {@link runBodyWornSystem}. */
export interface BodyWornOptions {
  /** A validated connection file (see `parseConnectionFile`). */
  connection: ConnectionFile;
  /** The plan; the built-in default plan when absent. */
  plan?: Plan;
  /** Recordings uploaded in parallel (default 2). */
  concurrency?: number;
  /** How busy answers and network errors are retried (see {@link RetryPolicy}; `BAD_OPTION` for a value out of range). */
  retry?: Partial<RetryPolicy>;
  /** Waits between retries; tests pass one that returns at once (and moves their `clock`). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Measures the retry budget and `Retry-After` (default: the wall clock); tests pass a `ManualClock`. */
  clock?: Clock;
  /** Epoch ms now (recording times are placed before it). */
  now?: () => number;
  onProgress?: (progress: Progress) => void;
  /** Each recording's report, as soon as it is finished. */
  onRecording?: (report: RecordingReport) => void;
  /** Every HTTP exchange (for `--check` and debugging). */
  onExchange?: (exchange: Exchange) => void;
  /** Extra recordings to upload after the plan's (the conformance probes). */
  extraRecordings?: (plan: ExpandedPlan) => ExpandedPlan['recordings'];
  /**
   * Extra users and cameras to register after the plan's (the conformance probes' own):
   * last, so a destination short of licences refuses these rather than the plan's.
   * A refusal is in `registrationFailures`; they are not counted in `usersRegistered`/`devicesRegistered`.
   */
  extraRegistrations?: Pick<Plan, 'users' | 'devices'>;
  log?: Logger;
}

/** A connected body worn system: logged in, capabilities read; registers and uploads on demand. */
export class BodyWornSystem {
  readonly registrationFailures: RegistrationFailure[] = [];

  private constructor(
    /** HTTP exchanges so far, how many of them were retries, and the ms waited before them. */
    readonly stats: RunStats,
    private readonly client: SwiftClient,
    readonly capabilities: Record<CapabilityName, boolean>,
    readonly capabilitiesSource: CapabilitiesSource,
    readonly categories: Category[],
    private readonly options: BodyWornOptions,
  ) {}

  /** Authenticates and reads the capabilities (and categories, when the destination has them). */
  static async connect(options: BodyWornOptions): Promise<BodyWornSystem> {
    const stats: RunStats = { requests: 0, retries: 0, retryWaitMs: 0, retriesByContainer: new Map() };
    const client = new SwiftClient({
      connection: options.connection,
      retry: options.retry,
      sleep: options.sleep,
      random: options.random,
      clock: options.clock,
      onExchange: (exchange) => {
        stats.requests += 1;
        if (exchange.attempt > 1) countRetry(stats, exchange.path);
        if (exchange.next?.action === 'retry') stats.retryWaitMs += exchange.next.waitMs;
        logRetry(options.log, exchange);
        options.onExchange?.(exchange);
      },
    });
    try {
      await client.authenticate();
      const { capabilities, source } = await readCapabilities(client, options.connection);
      const on = (Object.keys(capabilities) as CapabilityName[]).filter((name) => capabilities[name]);
      options.log?.info({ capabilities: on, source }, 'capabilities');
      const categories = capabilities.ReadCategories ? await readCategories(client) : [];
      return new BodyWornSystem(stats, client, capabilities, source, categories, options);
    } catch (err) {
      client.close();
      throw err;
    }
  }

  /** `X-Storage-Url` as answered. */
  get storageUrl(): string {
    return this.client.storageUrl ?? '';
  }

  /** Expands a plan with this destination's container type and capabilities. */
  expand(plan: Plan): ExpandedPlan {
    const now = this.options.now ?? Date.now;
    return expandPlan(plan, {
      now: now(),
      containerType: this.options.connection.ContainerType,
      storeUserIdKey: this.capabilities.StoreUserIDKey,
    });
  }

  /** Writes the system identity (StoreReadSystemID) and registers the plan's users and cameras. */
  async register(plan: ExpandedPlan): Promise<{ users: number; devices: number }> {
    if (this.capabilities.StoreReadSystemID && plan.system) {
      // A stock Swift has no System container until someone makes one; PUT is harmless (202) where it exists.
      await this.client.request('PUT', `/${RESERVED_CONTAINERS.system}`).catch(() => undefined);
      const failure = await putEmptyObject(this.client, RESERVED_CONTAINERS.system, plan.system.id, {
        ConnectionId: this.options.connection.BlobAPIUserName,
        SystemName: plan.system.name,
      });
      if (failure) this.registrationFailures.push({ kind: 'system', id: plan.system.id, request: failure });
    }
    const users = await registerAll(
      this.client,
      RESERVED_CONTAINERS.users,
      plan.users,
      'user',
      this.registrationFailures,
      this.options.log,
    );
    const devices = await registerAll(
      this.client,
      RESERVED_CONTAINERS.devices,
      plan.devices,
      'device',
      this.registrationFailures,
      this.options.log,
    );
    return { users, devices };
  }

  /** Uploads one recording; `onBytes` hears clip bytes as they are sent. */
  async upload(recording: PlannedRecording, onBytes?: (bytes: number) => void): Promise<RecordingReport> {
    const report = await uploadRecording(
      {
        client: this.client,
        capabilities: this.capabilities,
        categories: this.categories,
        now: this.options.now ?? Date.now,
        clock: this.options.clock,
        onBytes,
      },
      recording,
    );
    const retries = [report.container, report.rejectedContent].reduce(
      (n, container) => n + (container ? (this.stats.retriesByContainer.get(container) ?? 0) : 0),
      0,
    );
    if (retries) report.retries = retries;
    this.options.log?.[report.status === 'transferred' ? 'info' : 'warn'](
      {
        recording: report.container,
        status: report.status,
        clips: report.clips,
        bytes: report.bytes,
        request: report.request && failedRequestText(report.request),
      },
      'recording',
    );
    return report;
  }

  /** Ends kept-alive connections. */
  close(): void {
    this.client.close();
  }
}

/** Runs the body worn system once over the plan and resolves with the report. */
export async function runBodyWornSystem(options: BodyWornOptions): Promise<UploadReport> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const system = await BodyWornSystem.connect(options);
  try {
    const plan = system.expand(options.plan ?? PlanSchema.parse(DEFAULT_PLAN));
    const recordings = [...plan.recordings, ...(options.extraRecordings?.(plan) ?? [])];
    const registered = await system.register(plan);
    if (options.extraRegistrations)
      await system.register(system.expand({ ...EMPTY_PLAN, ...options.extraRegistrations }));
    const progress: Progress = {
      recordingsDone: 0,
      recordingsTotal: recordings.length,
      bytesSent: 0,
      bytesTotal: recordings.reduce((n, r) => n + r.clips.reduce((m, c) => m + c.bytes, 0), 0),
    };
    options.onProgress?.({ ...progress });
    const onBytes = (bytes: number): void => {
      progress.bytesSent += bytes;
      options.onProgress?.({ ...progress });
    };
    const reports = new Array<RecordingReport>(recordings.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < recordings.length) {
        const index = next++;
        reports[index] = await system.upload(recordings[index], onBytes);
        options.onRecording?.(reports[index]);
        progress.recordingsDone += 1;
        options.onProgress?.({ ...progress });
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, recordings.length || 1)) }, worker),
    );
    const seconds = (clock.now() - started) / 1000;
    const own = reports.filter((r) => r.probe === undefined);
    const probes = reports.length - own.length;
    const bytes = own.reduce((n, r) => n + r.bytes, 0);
    return {
      storageUrl: system.storageUrl,
      capabilities: system.capabilities,
      capabilitiesSource: system.capabilitiesSource,
      categories: system.categories,
      registrationFailures: system.registrationFailures,
      usersRegistered: registered.users,
      devicesRegistered: registered.devices,
      recordings: reports,
      totals: {
        recordings: own.length,
        transferred: own.filter((r) => r.status === 'transferred').length,
        notTransferred: own.filter((r) => r.status === 'not transferred').length,
        failed: own.filter((r) => r.status === 'failed').length,
        bytes,
        seconds,
        megabytesPerSecond: seconds > 0 ? Math.round((bytes / 1e6 / seconds) * 100) / 100 : 0,
        ...(probes ? { probes } : {}),
      },
      requests: system.stats.requests,
      retries: system.stats.retries,
      ...(registrationRetries(system.stats) ? { registrationRetries: registrationRetries(system.stats) } : {}),
      retryWaitMs: system.stats.retryWaitMs,
    };
  } finally {
    system.close();
  }
}

/** Requests, retries (in all and by container, decoded), and the ms waited before retries. */
interface RunStats {
  requests: number;
  retries: number;
  retryWaitMs: number;
  retriesByContainer: Map<string, number>;
}

/** One more retry, of the container the path is in (so a recording's row and the registrations can say so). */
function countRetry(stats: RunStats, path: string): void {
  stats.retries += 1;
  const segment = path.split('/')[1] ?? '';
  let container = segment;
  try {
    container = decodeURIComponent(segment);
  } catch {
    // A path that is not encoded as sent is counted as it is.
  }
  stats.retriesByContainer.set(container, (stats.retriesByContainer.get(container) ?? 0) + 1);
}

/** The retries of registrations: requests in the Users, Devices and System containers. */
function registrationRetries(stats: RunStats): number {
  const containers = [RESERVED_CONTAINERS.users, RESERVED_CONTAINERS.devices, RESERVED_CONTAINERS.system];
  return containers.reduce((n, c) => n + (stats.retriesByContainer.get(c) ?? 0), 0);
}

/** A plan with nothing in it, to expand extra registrations with the run's options. */
const EMPTY_PLAN: Plan = PlanSchema.parse({});

/** A retry (info: the wait and why) or giving up (warn: why), for an exchange that was busy or got no answer. */
function logRetry(log: Logger | undefined, exchange: Exchange): void {
  const { next } = exchange;
  if (!log || !next) return;
  const { method, path, attempt, status } = exchange;
  const error = status === undefined ? exchange.error : undefined;
  if (next.action === 'retry')
    log.info({ method, path, attempt, status, error, waitMs: next.waitMs, reason: next.reason }, 'retrying');
  else log.warn({ method, path, attempt, status, error, reason: next.reason }, 'gave up retrying');
}
