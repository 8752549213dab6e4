/**
 * MD5 of object bodies off the main thread: a small pool of worker threads, each
 * hashing the jobs pinned to it, so the event loop only copies bytes.
 *
 * - One job per body (md5-job.ts), pinned to one worker (md5-worker.ts) for its whole
 *   life, so its chunks are hashed in order. Workers start when a job first needs one
 *   and are unref'd while they have no job, so an idle pool never keeps a process alive;
 *   a worker with no job for `idleMs` ends, giving its thread's memory back.
 * - Chunks are copied (an HTTP chunk may be a view of a pooled buffer) into a
 *   per-worker batch buffer shared by that worker's jobs; a full batch, or one a job
 *   waits on, is transferred to the worker, which hashes it and transfers it back
 *   for reuse. Each worker owns at most `maxWorkerBytesInFlight / batchBytes` such
 *   buffers, whatever the number of jobs, so memory stays flat.
 * - Flow control: a job has at most `maxJobBytesInFlight` bytes copied and not yet
 *   hashed; {@link Md5Job.update} calls back only once the whole chunk is copied, so
 *   a caller that waits for the callback (a Transform does) slows to the worker's pace.
 * - Bodies of at most `inlineBytes` are hashed on the calling thread at
 *   {@link Md5Job.digest}: no worker, no round trip (most bodies are either tiny
 *   records or clips of megabytes).
 * - A worker that crashes fails only its own jobs (their callbacks and digests get
 *   the error); the next job gets a fresh worker.
 *
 * The pool is `open` (it has its workers) until {@link Md5WorkerPool.close} makes it
 * `closed` for good: its workers are terminated and a job that needs one fails.
 */
import { availableParallelism } from 'node:os';
import { EmulatorError } from '../../base/errors';
import { HashJob, type JobSettings, type Md5Job } from './md5-job';
import { HashWorker, type WorkerSettings } from './md5-worker';

export type { Md5Job, Md5UpdateCallback } from './md5-job';

/** Pool settings; every field is optional. */
export interface Md5WorkerPoolOptions {
  /** Worker threads at most; default `Math.max(1, os.availableParallelism() - 1)`. */
  size?: number;
  /** Bytes of one job copied and not yet hashed, at most (flow control); default 8 MiB. */
  maxJobBytesInFlight?: number;
  /** Bytes of batch buffers one worker may own (staged, in flight or free); default 16 MiB. */
  maxWorkerBytesInFlight?: number;
  /** Size of one batch buffer (one message to a worker); default 1 MiB. */
  batchBytes?: number;
  /** Bodies of at most this many bytes are hashed inline, without a worker; default 64 KiB, 0 for never. */
  inlineBytes?: number;
  /** Milliseconds a worker with no job lives on before its thread ends; default 10 s. */
  idleMs?: number;
}

const MiB = 1024 * 1024;
const DEFAULTS = {
  maxJobBytesInFlight: 8 * MiB,
  maxWorkerBytesInFlight: 16 * MiB,
  batchBytes: MiB,
  inlineBytes: 64 * 1024,
  idleMs: 10_000,
};

/** The checked options, as jobs and workers read them. */
type Settings = JobSettings & WorkerSettings & { readonly size: number; readonly idleMs: number };

/** A pool's state: `open` with its running workers, or `closed` for good. */
type PoolState = { readonly kind: 'open'; readonly workers: HashWorker[] } | { readonly kind: 'closed' };

/** The message of a pool used after close (kept: callers match on "closed"). */
const CLOSED_MESSAGE = 'MD5 worker pool closed';

/** `value`, or `fallback` if not given, checked to be a whole number above 0 (or 0 too if `zero`). */
function wholeOption(value: number | undefined, fallback: number, name: string, zero = false): number {
  const v = value ?? fallback;
  if (Number.isInteger(v) && (v > 0 || (zero && v === 0))) return v;
  throw new EmulatorError(
    'BAD_OPTION',
    `MD5 worker pool ${name} must be a whole number${zero ? ' of 0 or more' : ' above 0'}, not ${v}`,
  );
}

/** The settings of `options`, defaults filled in; throws an EmulatorError (BAD_OPTION) for a bad one. */
function settingsOf(options: Md5WorkerPoolOptions): Settings {
  const size = options.size ?? Math.max(1, availableParallelism() - 1);
  if (!(Number.isInteger(size) && size >= 1))
    throw new EmulatorError('BAD_OPTION', `MD5 worker pool size must be a whole number of 1 or more, not ${size}`);
  const batchBytes = wholeOption(options.batchBytes, DEFAULTS.batchBytes, 'batchBytes');
  const maxWorkerBytesInFlight = wholeOption(
    options.maxWorkerBytesInFlight,
    DEFAULTS.maxWorkerBytesInFlight,
    'maxWorkerBytesInFlight',
  );
  return {
    size,
    batchBytes,
    maxJobBytesInFlight: wholeOption(options.maxJobBytesInFlight, DEFAULTS.maxJobBytesInFlight, 'maxJobBytesInFlight'),
    inlineBytes: wholeOption(options.inlineBytes, DEFAULTS.inlineBytes, 'inlineBytes', true),
    idleMs: wholeOption(options.idleMs, DEFAULTS.idleMs, 'idleMs'),
    buffersPerWorker: Math.max(1, Math.floor(maxWorkerBytesInFlight / batchBytes)),
  };
}

/** A pool of MD5 worker threads; see the file comment. */
export class Md5WorkerPool {
  private readonly settings: Settings;
  private state: PoolState = { kind: 'open', workers: [] };
  private nextJobId = 1;
  /** The end of each worker with no job, due `idleMs` after it became idle. */
  private readonly idleTimers = new Map<HashWorker, NodeJS.Timeout>();

  /** An open pool with no thread yet; throws an EmulatorError (BAD_OPTION) for a bad option. */
  constructor(options: Md5WorkerPoolOptions = {}) {
    this.settings = settingsOf(options);
  }

  /** Worker threads running now (they start with the first job that needs one). */
  get threads(): number {
    return this.state.kind === 'open' ? this.state.workers.length : 0;
  }

  /** Jobs pinned to a worker now (not inline, not yet digested or abandoned). */
  get jobs(): number {
    if (this.state.kind !== 'open') return 0;
    let count = 0;
    for (const worker of this.state.workers) count += worker.load;
    return count;
  }

  /** A new hashing job: feed it with {@link Md5Job.update}, then {@link Md5Job.digest} or {@link Md5Job.abandon}. */
  createJob(): Md5Job {
    // Even a closed pool makes jobs: a body small enough to hash inline needs no worker.
    return new HashJob(() => this.assign(), this.nextJobId++, this.settings);
  }

  /** Terminates every worker (open -> closed); jobs still running fail. Later jobs fail unless hashed inline. */
  async close(): Promise<void> {
    const state = this.state;
    if (state.kind === 'closed') return;
    this.state = { kind: 'closed' };
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all(state.workers.map((worker) => worker.terminate(new EmulatorError('CLOSED', CLOSED_MESSAGE))));
  }

  /** @internal Test hook: makes the worker of `job` throw, as a crash would. */
  crashWorkerOf(job: Md5Job): void {
    (job as HashJob).crashWorker();
  }

  /** The worker for a job leaving inline mode: a new one while below size and all are busy, else the least busy. */
  private assign(): HashWorker {
    const state = this.state;
    if (state.kind === 'closed') throw new EmulatorError('CLOSED', CLOSED_MESSAGE);
    let best: HashWorker | undefined;
    for (const worker of state.workers) if (!best || worker.load < best.load) best = worker;
    if (best && (best.load === 0 || state.workers.length >= this.settings.size)) return this.busy(best);
    const worker = new HashWorker(
      this.settings,
      (dead) => this.forget(dead),
      (idle) => this.idle(idle),
    );
    state.workers.push(worker);
    return worker;
  }

  /** `worker`, taking a job: it no longer ends for being idle. */
  private busy(worker: HashWorker): HashWorker {
    const timer = this.idleTimers.get(worker);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.idleTimers.delete(worker);
    }
    return worker;
  }

  /** `worker` has no job left: it ends after `idleMs` unless it takes one meanwhile. */
  private idle(worker: HashWorker): void {
    if (this.state.kind === 'closed' || this.idleTimers.has(worker)) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      if (worker.load === 0)
        void worker.terminate(new EmulatorError('CLOSED', 'MD5 worker idle')).catch(() => undefined);
    }, this.settings.idleMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /** Drops a dead worker, so the next job that needs one gets a fresh thread. */
  private forget(dead: HashWorker): void {
    this.busy(dead);
    const state = this.state;
    // A closed pool has already let go of all its workers.
    if (state.kind === 'closed') return;
    const index = state.workers.indexOf(dead);
    if (index >= 0) state.workers.splice(index, 1);
  }
}
