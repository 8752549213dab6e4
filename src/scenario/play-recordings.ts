/**
 * A scenario's `body-worn:` section at run time: the camera playing the scenario
 * uploads its recordings as it makes them. When the scenario starts, a body worn
 * system connects to the destination of a connection file and registers the
 * section's users and cameras (the playing camera too, listed or not); when the
 * scenario reaches a recording's `at` (on the scenario's scheduler, so `--speed`
 * applies) the recording is uploaded. Uploads go one at a time, in `at` order.
 *
 * Every outcome is logged and reported, and none reaches the device: a destination
 * that cannot be reached fails the recordings due meanwhile, and the next one due
 * tries to connect again.
 *
 * Times: a recording without `trigger-on` was triggered at the scenario's start +
 * (at - clips * clip-duration), so it ends at `at`, when it is uploaded.
 */
import { BodyWornSystem } from '../bws/body-worn-system';
import { expandPlan, type PlannedRecording } from '../bws/expand-plan';
import type { Plan, PlanRecording } from '../bws/plan';
import type { Exchange, RetryPolicy } from '../bws/swift-client';
import { failedRequestText, type RecordingReport } from '../bws/upload-recording';
import type { LogFields } from '../base/log';
import type { ConnectionFile } from '../protocol/connection-file';
import type { Scheduler } from './scheduler';
import type { BodyWorn } from './schema';

/** The camera playing the scenario: recordings without `device` are its own. */
export interface CameraIdentity {
  serial: string;
  model: string;
  name: string;
  firmware: string;
}

/** What became of one recording of the section. */
export interface ScenarioRecordingReport extends RecordingReport {
  /** The recording's place in `body-worn.recordings`, from 0. */
  index: number;
  /** Its `at`, in scenario milliseconds. */
  at: number;
}

/** Options of {@link playRecordings}. */
export interface PlayRecordingsOptions {
  /** Where the recordings go (a validated connection file). */
  connection: ConnectionFile;
  camera: CameraIdentity;
  /** The scenario's scheduler; its time now is the scenario's start. */
  scheduler: Scheduler;
  /** Playback speed: a recording due at `at` is uploaded at start + at / speed. */
  speed: number;
  /** One line per notable thing (connected, each recording's outcome). */
  log: (msg: string, fields?: LogFields) => void;
  /** Hears each recording's outcome. */
  onRecording?: (report: ScenarioRecordingReport) => void;
  /** Retries of each request (default: the body worn system's). */
  retry?: Partial<RetryPolicy>;
}

/** The section's uploads, under way. */
export interface RecordingsRun {
  /** The outcomes so far, in the order they came. */
  readonly reports: readonly ScenarioRecordingReport[];
  /** Resolves when every recording has its outcome, or when stopped. */
  readonly done: Promise<void>;
  /** Cancels the uploads not yet due; one under way finishes. Then disconnects. */
  stop(): void;
}

/** Connects at once and uploads each recording of `section` when the scenario reaches its `at`. */
export function playRecordings(section: BodyWorn, options: PlayRecordingsOptions): RecordingsRun {
  const { connection, scheduler, speed } = options;
  // A throwing log or callback must not break the upload queue (nor become an unhandled rejection).
  const log = (msg: string, fields?: LogFields): void => {
    try {
      options.log(msg, fields);
    } catch {
      // nothing to do: logging is best effort
    }
  };
  const startedAt = scheduler.now();
  const plan = planOf(section, options.camera, startedAt);
  // Every trigger time is set, so `now` plays no part; expanded here, the names are known even when connecting fails.
  const recordings = expandPlan(plan, { now: startedAt, containerType: connection.ContainerType }).recordings;
  const reports: ScenarioRecordingReport[] = [];
  let stopped = false;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  let connecting: Promise<BodyWornSystem> | undefined;
  const connect = (): Promise<BodyWornSystem> => {
    if (connecting) return connecting;
    const attempt = (async () => {
      const system = await BodyWornSystem.connect({ connection, retry: options.retry });
      try {
        const registered = await system.register(system.expand(plan));
        const failures = system.registrationFailures.map((f) => `${f.kind} ${f.id}: ${failedRequestText(f.request)}`);
        log('body worn system connected', {
          storageUrl: system.storageUrl,
          users: registered.users,
          devices: registered.devices,
          registrationFailures: failures.length ? failures : undefined,
        });
        return system;
      } catch (err) {
        system.close();
        throw err;
      }
    })();
    connecting = attempt;
    // A failed attempt is forgotten: the next recording due tries again.
    attempt.catch((err: unknown) => {
      if (connecting === attempt) connecting = undefined;
      log('body worn system cannot connect', { error: errorText(err) });
    });
    return attempt;
  };

  const disconnect = async (): Promise<void> => {
    const system = await connecting?.catch(() => undefined);
    system?.close();
  };

  const upload = async (recording: PlannedRecording, index: number): Promise<void> => {
    const at = section.recordings[index].at;
    let report: RecordingReport;
    try {
      report = await (await connect()).upload(recording);
    } catch (err) {
      report = failedReport(recording, err, connection);
    }
    const full: ScenarioRecordingReport = { ...report, index, at };
    reports.push(full);
    const fields: LogFields = {
      recording: full.container,
      at: `${at / 1000}s`,
      status: full.status,
      clips: full.clips,
      bytes: full.bytes,
      request: full.request && failedRequestText(full.request),
      warnings: full.warnings.length ? full.warnings : undefined,
    };
    log(full.status === 'transferred' ? 'body-worn recording uploaded' : 'body-worn recording not uploaded', fields);
    try {
      options.onRecording?.(full);
    } catch (err) {
      log('body-worn onRecording failed', { error: errorText(err) });
    }
  };

  // Uploads one at a time, in the order they fall due.
  let queue: Promise<void> = Promise.resolve();
  let left = recordings.length;
  const settle = (): void => {
    queue = queue.then(disconnect);
    void queue.then(resolveDone);
  };
  const order = recordings
    .map((recording, index) => ({ recording, index }))
    .sort((a, b) => section.recordings[a.index].at - section.recordings[b.index].at);
  const cancels = order.map(({ recording, index }) =>
    scheduler.setTimer(startedAt + section.recordings[index].at / speed, () => {
      if (stopped) return;
      queue = queue.then(() => upload(recording, index)).catch(() => undefined);
      if (--left === 0) settle();
    }),
  );
  void connect().catch(() => undefined); // logged by connect
  if (recordings.length === 0) settle();

  return {
    reports,
    done,
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const cancel of cancels) cancel();
      if (left > 0) queue = queue.then(disconnect);
      resolveDone();
    },
  };
}

/** The section as a plan: the camera registered with the listed ones, every recording with its device and trigger time. */
export function planOf(section: BodyWorn, camera: CameraIdentity, startedAt: number): Plan {
  const devices = section.devices ?? [];
  const withCamera = devices.some((d) => d.serial === camera.serial)
    ? devices
    : [...devices, { ...camera, active: true }];
  const recordings: PlanRecording[] = section.recordings.map(({ at, ...recording }) => ({
    ...recording,
    device: recording.device ?? camera.serial,
    'trigger-on':
      recording['trigger-on'] ??
      Math.floor((startedAt + at - recording.clips * recording['clip-duration']) / 1000) * 1000,
  }));
  return { users: section.users ?? [], devices: withCamera, recordings };
}

/** The report of a recording that could not be uploaded because connecting failed (or anything threw). */
function failedReport(recording: PlannedRecording, err: unknown, connection: ConnectionFile): RecordingReport {
  const exchange = (err as { exchange?: Exchange } | undefined)?.exchange;
  return {
    container: recording.container,
    userId: recording.userId,
    serial: recording.serial,
    status: 'failed',
    clips: 0,
    bytes: 0,
    seconds: 0,
    request: {
      method: exchange?.method ?? 'GET',
      path: exchange?.url ?? connection.AuthenticationTokenURI[0],
      ...(exchange?.status !== undefined ? { status: exchange.status } : {}),
      message: errorText(err),
    },
    warnings: [],
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
