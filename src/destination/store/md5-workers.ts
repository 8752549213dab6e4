/**
 * MD5 of object bodies off the main thread: a small pool of worker threads, each
 * hashing the jobs pinned to it, so the event loop only copies bytes.
 *
 * - One job per body, pinned to one worker for its whole life, so its chunks are
 *   hashed in order. Workers start when a job first needs one and are unref'd while
 *   they have no job, so an idle pool never keeps a process alive.
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
 * The worker's code is an inline CommonJS string (`eval: true`) using node:crypto
 * only, so it runs the same from dist/ and from the TypeScript sources under Jest.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

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
}

/** Callback of {@link Md5Job.update}: `null` once the chunk is copied, or why the job failed. */
export type Md5UpdateCallback = (error: Error | null) => void;

/** One body's MD5; made by {@link Md5WorkerPool.createJob}. */
export interface Md5Job {
  /** Bytes copied for this job and not yet hashed by its worker (at most `maxJobBytesInFlight`). */
  readonly bytesInFlight: number;
  /**
   * Adds a chunk. The chunk is copied, so the caller may reuse it once called back;
   * the callback waits while the job has too many bytes in flight (flow control).
   */
  update(chunk: Uint8Array, callback: Md5UpdateCallback): void;
  /** The MD5 hex of every byte given; call once, after the last update has called back. */
  digest(): Promise<string>;
  /** Drops the job (an aborted upload): nothing more is called back, the worker forgets it. */
  abandon(): void;
}

const MiB = 1024 * 1024;
const DEFAULTS = {
  maxJobBytesInFlight: 8 * MiB,
  maxWorkerBytesInFlight: 16 * MiB,
  batchBytes: MiB,
  inlineBytes: 64 * 1024,
};

/** Op codes after a job id in a message's `ops` (a length >= 0 is bytes to hash). */
const OP_END = -1;
const OP_DROP = -2;
const OP_CRASH = -3;

/**
 * The worker: for each message `{ buffer, ops }`, `ops` holds pairs (job id, n):
 * n >= 0 hashes the next n bytes of `buffer` into the job, -1 ends it (its digest
 * goes back), -2 drops it, -3 throws (a test of crash handling). The answer
 * `{ buffer, digests }` gives the buffer back and lists (job id, hex) pairs.
 */
const WORKER_CODE = `'use strict';
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', ({ buffer, ops }) => {
  const digests = [];
  let offset = 0;
  for (let i = 0; i < ops.length; i += 2) {
    const id = ops[i];
    const n = ops[i + 1];
    if (n >= 0) {
      let hash = jobs.get(id);
      if (hash === undefined) jobs.set(id, (hash = createHash('md5')));
      hash.update(new Uint8Array(buffer, offset, n));
      offset += n;
    } else if (n === ${OP_END}) {
      const hash = jobs.get(id) ?? createHash('md5');
      jobs.delete(id);
      digests.push(id, hash.digest('hex'));
    } else if (n === ${OP_DROP}) {
      jobs.delete(id);
    } else if (n === ${OP_CRASH}) {
      throw new Error('MD5 worker crash requested');
    }
  }
  parentPort.postMessage({ buffer, digests }, buffer ? [buffer] : []);
});
`;

interface WorkerMessage {
  buffer: ArrayBuffer | null;
  digests: (number | string)[];
}

type Settings = Required<Md5WorkerPoolOptions> & { buffersPerWorker: number };

/** A pool of MD5 worker threads; see the file comment. */
export class Md5WorkerPool {
  private readonly settings: Settings;
  private readonly workers: HashWorker[] = [];
  private nextJobId = 1;
  private closed = false;

  constructor(options: Md5WorkerPoolOptions = {}) {
    const size = options.size ?? Math.max(1, availableParallelism() - 1);
    if (!(Number.isInteger(size) && size >= 1))
      throw new RangeError(`MD5 worker pool size must be a whole number of 1 or more, not ${size}`);
    const positive = (value: number | undefined, fallback: number, name: string, zero = false): number => {
      const v = value ?? fallback;
      if (!(Number.isInteger(v) && (v > 0 || (zero && v === 0))))
        throw new RangeError(
          `MD5 worker pool ${name} must be a whole number${zero ? ' of 0 or more' : ' above 0'}, not ${v}`,
        );
      return v;
    };
    const batchBytes = positive(options.batchBytes, DEFAULTS.batchBytes, 'batchBytes');
    const maxWorkerBytesInFlight = positive(
      options.maxWorkerBytesInFlight,
      DEFAULTS.maxWorkerBytesInFlight,
      'maxWorkerBytesInFlight',
    );
    this.settings = {
      size,
      batchBytes,
      maxWorkerBytesInFlight,
      maxJobBytesInFlight: positive(options.maxJobBytesInFlight, DEFAULTS.maxJobBytesInFlight, 'maxJobBytesInFlight'),
      inlineBytes: positive(options.inlineBytes, DEFAULTS.inlineBytes, 'inlineBytes', true),
      buffersPerWorker: Math.max(1, Math.floor(maxWorkerBytesInFlight / batchBytes)),
    };
  }

  /** Worker threads running now (they start with the first job that needs one). */
  get threads(): number {
    return this.workers.length;
  }

  /** Jobs pinned to a worker now (not inline, not yet digested or abandoned). */
  get jobs(): number {
    let count = 0;
    for (const worker of this.workers) count += worker.load;
    return count;
  }

  /** A new hashing job: feed it with {@link Md5Job.update}, then {@link Md5Job.digest} or {@link Md5Job.abandon}. */
  createJob(): Md5Job {
    return new HashJob(() => this.assign(), this.nextJobId++, this.settings);
  }

  /** Terminates every worker; jobs still running fail. Later jobs fail unless hashed inline. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((worker) => worker.terminate(new Error('MD5 worker pool closed'))));
  }

  /** @internal Test hook: makes the worker of `job` throw, as a crash would. */
  crashWorkerOf(job: Md5Job): void {
    (job as HashJob).crashWorker();
  }

  /** The worker for a job leaving inline mode: a new one while below size and all are busy, else the least busy. */
  private assign(): HashWorker {
    if (this.closed) throw new Error('MD5 worker pool closed');
    let best: HashWorker | undefined;
    for (const worker of this.workers) if (!best || worker.load < best.load) best = worker;
    if (best && (best.load === 0 || this.workers.length >= this.settings.size)) return best;
    const worker = new HashWorker(this.settings, (dead) => {
      const index = this.workers.indexOf(dead);
      if (index >= 0) this.workers.splice(index, 1);
    });
    this.workers.push(worker);
    return worker;
  }
}

/** A job: inline (held copies) until it passes `inlineBytes`, then pinned to a worker. */
class HashJob implements Md5Job {
  private worker: HashWorker | undefined;
  /** Inline mode: copies of the chunks so far (until they pass `inlineBytes`). */
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private readonly queue: { data: Uint8Array; offset: number; callback: Md5UpdateCallback | undefined }[] = [];
  private inFlight = 0;
  private pumping = false;
  private waiting = false;
  private ended = false;
  private error: Error | undefined;
  private result: { resolve: (hex: string) => void; reject: (err: Error) => void } | undefined;

  constructor(
    private readonly assign: () => HashWorker,
    readonly id: number,
    private readonly settings: Settings,
  ) {}

  get bytesInFlight(): number {
    return this.inFlight;
  }

  update(chunk: Uint8Array, callback: Md5UpdateCallback): void {
    if (this.error) return callback(this.error);
    if (this.ended) return callback(new Error('MD5 job already ended'));
    if (this.held) {
      if (this.heldBytes + chunk.length <= this.settings.inlineBytes) {
        this.held.push(Buffer.from(chunk));
        this.heldBytes += chunk.length;
        return callback(null);
      }
      try {
        this.worker = this.assign();
      } catch (err) {
        this.fail(err as Error);
        return callback(err as Error);
      }
      this.worker.attach(this);
      for (const data of this.held) this.queue.push({ data, offset: 0, callback: undefined });
      this.held = undefined;
    }
    this.queue.push({ data: chunk, offset: 0, callback });
    this.pump();
  }

  digest(): Promise<string> {
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.reject(new Error('MD5 job already ended'));
    if (this.queue.length > 0) return Promise.reject(new Error('MD5 job digest before its updates were called back'));
    this.ended = true;
    if (this.held) {
      const hash = createHash('md5');
      for (const chunk of this.held) hash.update(chunk);
      this.held = undefined;
      return Promise.resolve(hash.digest('hex'));
    }
    const worker = this.worker as HashWorker;
    return new Promise((resolve, reject) => {
      this.result = { resolve, reject };
      worker.control(this, OP_END);
    });
  }

  abandon(): void {
    if (this.ended && !this.result) return;
    this.ended = true;
    this.held = undefined;
    this.queue.length = 0;
    this.result = undefined;
    if (this.worker && !this.error) this.worker.control(this, OP_DROP);
    this.worker?.detach(this);
  }

  /** Copies queued chunks while the job's and the worker's bounds allow. */
  pump(): void {
    if (this.pumping || this.error) return;
    this.pumping = true;
    this.waiting = false;
    const worker = this.worker as HashWorker;
    try {
      while (this.queue.length > 0) {
        const item = this.queue[0];
        while (item.offset < item.data.length) {
          const room = this.settings.maxJobBytesInFlight - this.inFlight;
          const copied =
            room > 0 ? worker.stage(this, item.data, item.offset, Math.min(room, item.data.length - item.offset)) : 0;
          if (copied === 0) {
            // Wait for acknowledgements: of this job's bytes, or of any buffer of the worker.
            this.waiting = true;
            if (room > 0) worker.waitForBuffer(this);
            worker.flush();
            return;
          }
          item.offset += copied;
          this.inFlight += copied;
        }
        this.queue.shift();
        item.callback?.(null);
        if (this.error) return;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Bytes of this job hashed by the worker. */
  hashed(bytes: number): void {
    this.inFlight -= bytes;
    if (this.waiting && this.inFlight < this.settings.maxJobBytesInFlight) this.pump();
  }

  /** The worker's answer to the end op. */
  finished(hex: string): void {
    const result = this.result;
    this.result = undefined;
    this.worker?.detach(this);
    result?.resolve(hex);
  }

  /** The job's worker died or the pool closed: every pending call gets `error`. */
  fail(error: Error): void {
    if (this.error) return;
    this.error = error;
    const callbacks = this.queue.splice(0).map((item) => item.callback);
    const result = this.result;
    this.result = undefined;
    this.worker?.detach(this);
    for (const callback of callbacks) callback?.(error);
    result?.reject(error);
  }

  /** See {@link Md5WorkerPool.crashWorkerOf}. */
  crashWorker(): void {
    this.worker?.control(this, OP_CRASH);
  }
}

/** One worker thread, its batch buffers and the jobs pinned to it. */
class HashWorker {
  private readonly thread: Worker;
  private readonly jobs = new Map<number, HashJob>();
  /** Ops of each message sent and not yet answered, oldest first. */
  private readonly sent: number[][] = [];
  private readonly free: ArrayBuffer[] = [];
  private readonly bufferWaiters: HashJob[] = [];
  private staging: Uint8Array | undefined;
  private stagingUsed = 0;
  private ops: number[] = [];
  /** Batch buffers allocated and not free: staging or sent. */
  private buffersOut = 0;
  private referenced = false;
  private dead = false;

  constructor(
    private readonly settings: Settings,
    private readonly onDeath: (worker: HashWorker) => void,
  ) {
    this.thread = new Worker(WORKER_CODE, { eval: true, name: 'md5' });
    this.thread.unref();
    this.thread.on('message', (message: WorkerMessage) => this.answer(message));
    this.thread.on('error', (err) => this.die(new Error(`MD5 worker failed: ${err.message}`)));
    this.thread.on('exit', (code) => this.die(new Error(`MD5 worker exited (code ${code})`)));
  }

  /** Jobs pinned here. */
  get load(): number {
    return this.jobs.size;
  }

  attach(job: HashJob): void {
    this.jobs.set(job.id, job);
    if (!this.referenced) {
      this.referenced = true;
      this.thread.ref();
    }
  }

  detach(job: HashJob): void {
    if (!this.jobs.delete(job.id)) return;
    const waiter = this.bufferWaiters.indexOf(job);
    if (waiter >= 0) this.bufferWaiters.splice(waiter, 1);
    if (this.jobs.size === 0) {
      this.flush();
      // Keep one spare buffer for the next job; let the rest go.
      this.free.length = Math.min(this.free.length, 1);
      if (this.referenced) {
        this.referenced = false;
        this.thread.unref();
      }
    }
  }

  /** Copies up to `max` bytes of `data` from `offset` into the batch; returns how many (0: no buffer free). */
  stage(job: HashJob, data: Uint8Array, offset: number, max: number): number {
    if (!this.staging) {
      if (this.buffersOut >= this.settings.buffersPerWorker) return 0;
      const buffer = this.free.pop() ?? (Buffer.allocUnsafeSlow(this.settings.batchBytes).buffer as ArrayBuffer);
      this.staging = new Uint8Array(buffer, 0, this.settings.batchBytes);
      this.stagingUsed = 0;
      this.buffersOut++;
    }
    const n = Math.min(max, this.settings.batchBytes - this.stagingUsed);
    this.staging.set(offset === 0 && n === data.length ? data : data.subarray(offset, offset + n), this.stagingUsed);
    this.stagingUsed += n;
    const ops = this.ops;
    if (ops.length > 0 && ops[ops.length - 2] === job.id && ops[ops.length - 1] >= 0) ops[ops.length - 1] += n;
    else ops.push(job.id, n);
    if (this.stagingUsed === this.settings.batchBytes) this.flush();
    return n;
  }

  /** Queues an op for the job (end, drop, crash) after its bytes, and sends it now. */
  control(job: HashJob, op: number): void {
    if (this.dead) return;
    this.ops.push(job.id, op);
    this.flush();
  }

  waitForBuffer(job: HashJob): void {
    if (!this.bufferWaiters.includes(job)) this.bufferWaiters.push(job);
  }

  /** Sends the batch (and queued ops) to the thread. */
  flush(): void {
    if (this.dead || this.ops.length === 0) return;
    const buffer = this.staging ? (this.staging.buffer as ArrayBuffer) : null;
    const ops = this.ops;
    this.sent.push(ops);
    this.ops = [];
    this.staging = undefined;
    this.thread.postMessage({ buffer, ops }, buffer ? [buffer] : []);
  }

  terminate(error: Error): Promise<unknown> {
    this.die(error);
    return this.thread.terminate();
  }

  private answer({ buffer, digests }: WorkerMessage): void {
    const ops = this.sent.shift();
    if (buffer) {
      this.buffersOut--;
      if (this.free.length < this.settings.buffersPerWorker) this.free.push(buffer);
    }
    if (ops) {
      for (let i = 0; i < ops.length; i += 2) if (ops[i + 1] > 0) this.jobs.get(ops[i])?.hashed(ops[i + 1]);
    }
    for (let i = 0; i < digests.length; i += 2) this.jobs.get(digests[i] as number)?.finished(digests[i + 1] as string);
    if (buffer) for (const job of this.bufferWaiters.splice(0)) job.pump();
  }

  private die(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    this.onDeath(this);
    this.staging = undefined;
    this.free.length = 0;
    this.bufferWaiters.length = 0;
    for (const job of [...this.jobs.values()]) job.fail(error);
    this.jobs.clear();
    this.thread.unref();
  }
}
