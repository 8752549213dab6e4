/**
 * The simulated body worn system: against any content destination, it
 * authenticates, reads the capabilities (and categories), writes its system
 * identity, registers users and cameras, and uploads recordings in parallel, then
 * reports what became of each.
 */
import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import {
  CAPABILITY_NAMES,
  CAPABILITY_SECTIONS,
  type CapabilityName,
  type Category,
  RESERVED_CONTAINERS,
  SYSTEM_OBJECTS,
} from '../protocol/body-worn';
import type { ConnectionFile } from '../protocol/connection-file';
import { type ExpandedPlan, expandPlan, type PlannedRecording, type Registration } from './expand-plan';
import { DEFAULT_PLAN, type Plan, PlanSchema } from './plan';
import { type Exchange, header, type RetryPolicy, SwiftClient, type SwiftResponse } from './swift-client';
import {
  type FailedRequest,
  failedRequestText,
  metaHeaders,
  type RecordingReport,
  uploadRecording,
} from './upload-recording';

/** Where the capabilities in force came from. */
export type CapabilitiesSource = 'file' | 'FullStoreAndReadSupport' | 'missing' | 'malformed' | 'corrupt';

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
  registrationFailures: { kind: 'user' | 'device' | 'system'; id: string; request: FailedRequest }[];
  usersRegistered: number;
  devicesRegistered: number;
  recordings: RecordingReport[];
  totals: {
    recordings: number;
    transferred: number;
    notTransferred: number;
    failed: number;
    bytes: number;
    seconds: number;
    megabytesPerSecond: number;
  };
  requests: number;
  retries: number;
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
  readonly registrationFailures: UploadReport['registrationFailures'] = [];

  private constructor(
    /** HTTP exchanges so far, how many of them were retries, and the ms waited before them. */
    readonly stats: { requests: number; retries: number; retryWaitMs: number },
    private readonly client: SwiftClient,
    readonly capabilities: Record<CapabilityName, boolean>,
    readonly capabilitiesSource: CapabilitiesSource,
    readonly categories: Category[],
    private readonly options: BodyWornOptions,
  ) {}

  /** Authenticates and reads the capabilities (and categories, when the destination has them). */
  static async connect(options: BodyWornOptions): Promise<BodyWornSystem> {
    const stats = { requests: 0, retries: 0, retryWaitMs: 0 };
    const client = new SwiftClient({
      connection: options.connection,
      retry: options.retry,
      sleep: options.sleep,
      random: options.random,
      clock: options.clock,
      onExchange: (exchange) => {
        stats.requests += 1;
        if (exchange.attempt > 1) stats.retries += 1;
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
    const users = await register(
      this.client,
      RESERVED_CONTAINERS.users,
      plan.users,
      'user',
      this.registrationFailures,
      this.options.log,
    );
    const devices = await register(
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
    const bytes = reports.reduce((n, r) => n + r.bytes, 0);
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
        recordings: reports.length,
        transferred: reports.filter((r) => r.status === 'transferred').length,
        notTransferred: reports.filter((r) => r.status === 'not transferred').length,
        failed: reports.filter((r) => r.status === 'failed').length,
        bytes,
        seconds,
        megabytesPerSecond: seconds > 0 ? Math.round((bytes / 1e6 / seconds) * 100) / 100 : 0,
      },
      requests: system.stats.requests,
      retries: system.stats.retries,
      retryWaitMs: system.stats.retryWaitMs,
    };
  } finally {
    system.close();
  }
}

/** A plan with nothing in it, to expand extra registrations with the run's options. */
const EMPTY_PLAN: Plan = PlanSchema.parse({});

/**
 * `System/Capabilities.json`: its ETag must be the body's MD5 (else corrupt), and a
 * missing or malformed file means nothing is supported. `FullStoreAndReadSupport`
 * in the connection file means everything is, whatever the file says.
 */
export async function readCapabilities(
  client: SwiftClient,
  connection: ConnectionFile,
): Promise<{ capabilities: Record<CapabilityName, boolean>; source: CapabilitiesSource }> {
  const none = Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, false])) as Record<CapabilityName, boolean>;
  if (connection.FullStoreAndReadSupport)
    return {
      capabilities: Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, true])) as Record<CapabilityName, boolean>,
      source: 'FullStoreAndReadSupport',
    };
  const answer = await client.request('GET', `/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.capabilities}`);
  if (answer.status !== 200) return { capabilities: none, source: 'missing' };
  if (!etagMatches(answer)) return { capabilities: none, source: 'corrupt' };
  try {
    const document = JSON.parse(answer.body.toString('utf8')) as Record<string, Record<string, unknown>>;
    const capabilities = { ...none };
    for (const [section, names] of Object.entries(CAPABILITY_SECTIONS))
      for (const name of names) capabilities[name] = document?.[section]?.[name] === true;
    return { capabilities, source: 'file' };
  } catch {
    return { capabilities: none, source: 'malformed' };
  }
}

/** `System/Categories.json` as a list of `{Name, Id}`; empty when absent, corrupt or malformed. */
async function readCategories(client: SwiftClient): Promise<Category[]> {
  const answer = await client.request('GET', `/${RESERVED_CONTAINERS.system}/${SYSTEM_OBJECTS.categories}`);
  if (answer.status !== 200 || !etagMatches(answer)) return [];
  try {
    const list = JSON.parse(answer.body.toString('utf8')) as unknown;
    return Array.isArray(list) ? list.filter(isCategory) : [];
  } catch {
    return [];
  }
}

/** True when the answer's ETag is the MD5 of its body. */
export function etagMatches(answer: SwiftResponse): boolean {
  const etag = header(answer.headers, 'etag')?.replace(/"/g, '').toLowerCase();
  return etag !== undefined && etag === createHash('md5').update(answer.body).digest('hex');
}

/** PUTs the container, then each registration object; returns how many were stored. */
async function register(
  client: SwiftClient,
  container: string,
  entries: Registration[],
  kind: 'user' | 'device',
  failures: UploadReport['registrationFailures'],
  log: Logger | undefined,
): Promise<number> {
  if (entries.length === 0) return 0;
  const put = await client.request('PUT', `/${container}`).catch((err: Error) => err);
  if (put instanceof Error || (put.status !== 201 && put.status !== 202)) {
    const request = {
      method: 'PUT',
      path: `/${container}`,
      ...(put instanceof Error
        ? { message: put.message }
        : { status: put.status, message: put.body.toString('utf8').trim().slice(0, 300) }),
    };
    for (const entry of entries) failures.push({ kind, id: entry.id, request });
    return 0;
  }
  let stored = 0;
  for (const entry of entries) {
    const failure = await putEmptyObject(client, container, entry.id, entry.metadata);
    if (failure) {
      failures.push({ kind, id: entry.id, request: failure });
      log?.warn({ kind, id: entry.id, status: failure.status, message: failure.message }, 'registration failed');
    } else stored += 1;
  }
  return stored;
}

/** PUTs an empty object with metadata; the failed request, or undefined on 201. */
async function putEmptyObject(
  client: SwiftClient,
  container: string,
  name: string,
  metadata: Record<string, string>,
): Promise<FailedRequest | undefined> {
  const path = `/${container}/${encodeURIComponent(name)}`;
  try {
    const answer = await client.request('PUT', path, metaHeaders('object', metadata), () => Buffer.alloc(0));
    if (answer.status >= 200 && answer.status < 300) return undefined;
    return { method: 'PUT', path, status: answer.status, message: answer.body.toString('utf8').trim().slice(0, 300) };
  } catch (err) {
    return { method: 'PUT', path, message: (err as Error).message };
  }
}

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

/** A `Categories.json` entry with the two fields a bookmark needs. */
function isCategory(entry: unknown): entry is Category {
  if (typeof entry !== 'object' || entry === null) return false;
  const { Name, Id } = entry as Record<string, unknown>;
  return typeof Name === 'string' && typeof Id === 'string';
}
