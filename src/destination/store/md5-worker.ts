/**
 * One MD5 worker thread, the batch buffers it owns and the jobs pinned to it (the
 * pool and its design are in md5-pool.ts, one job in md5-job.ts).
 *
 * Its life is one {@link WorkerState}:
 * - `idle`: no job pinned. The thread is unref'd, so an idle pool never keeps the
 *   process alive; answers to messages already sent may still bring buffers back.
 * - `busy`: jobs pinned. The thread is ref'd; their bytes are copied into one batch
 *   buffer, sent when full or when a job waits on it.
 * - `dead`: crashed, exited or terminated. Its jobs have failed, the pool has
 *   forgotten it, and it takes nothing more.
 * Moves: idle -> busy in {@link HashWorker.attach}, busy -> idle in
 * {@link HashWorker.detach}, either -> dead in {@link HashWorker.die}.
 *
 * The thread's code is an inline CommonJS string (`eval: true`) using node:crypto
 * only, so it runs the same from dist/ and from the TypeScript sources under Jest.
 */
import { Worker } from 'node:worker_threads';

/** Op codes after a job id in a message's `ops` (a length >= 0 is bytes to hash). */
const OP_END = -1;
const OP_DROP = -2;
const OP_CRASH = -3;

/**
 * The thread: for each message `{ buffer, ops }`, `ops` holds pairs (job id, n):
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

/** The pool settings a worker reads. */
export interface WorkerSettings {
  /** Size of one batch buffer (one message to the thread). */
  readonly batchBytes: number;
  /** Batch buffers one worker may own, staged, in flight or free. */
  readonly buffersPerWorker: number;
}

/** What a worker calls on a job pinned to it. */
export interface PinnedJob {
  readonly id: number;
  /** The thread hashed `bytes` more of the job. */
  hashed(bytes: number): void;
  /** The thread's answer to the end op. */
  finished(hex: string): void;
  /** The worker died: the job fails with `error`. */
  fail(error: Error): void;
  /** A batch buffer came back: the job may copy again. */
  pump(): void;
}

/** A message from the thread. */
interface WorkerMessage {
  buffer: ArrayBuffer | null;
  digests: (number | string)[];
}

/** What travels to and from the thread; kept from busy to idle and back, as answers may still be due. */
interface Channel {
  /** Ops of each message sent and not yet answered, oldest first. */
  readonly sent: number[][];
  /** Spare batch buffers the thread gave back. */
  readonly free: ArrayBuffer[];
  /** Batch buffers allocated and not free: staged or sent. */
  out: number;
}

/** The batch buffer being filled. */
interface Batch {
  readonly bytes: Uint8Array<ArrayBuffer>;
  used: number;
}

/** A worker's state; see the file comment. */
type WorkerState =
  | { readonly kind: 'idle'; readonly channel: Channel }
  | {
      readonly kind: 'busy';
      readonly channel: Channel;
      readonly jobs: Map<number, PinnedJob>;
      /** Jobs stalled for a free batch buffer, woken when one comes back. */
      readonly waiters: PinnedJob[];
      batch: Batch | undefined;
      /** Ops of the next message: bytes staged in `batch`, then end/drop/crash ops. */
      ops: number[];
    }
  | { readonly kind: 'dead' };

/** One worker thread; see the file comment. */
export class HashWorker {
  private readonly thread: Worker;
  private state: WorkerState = { kind: 'idle', channel: { sent: [], free: [], out: 0 } };

  /**
   * Starts the thread, idle; `onDeath` lets the pool forget this worker once it is dead,
   * `onIdle` tells it the last job left.
   */
  constructor(
    private readonly settings: WorkerSettings,
    private readonly onDeath: (worker: HashWorker) => void,
    private readonly onIdle: (worker: HashWorker) => void,
  ) {
    this.thread = new Worker(WORKER_CODE, { eval: true, name: 'md5' });
    this.thread.unref();
    this.thread.on('message', (message: WorkerMessage) => this.answer(message));
    this.thread.on('error', (err) => this.die(new Error(`MD5 worker failed: ${err.message}`)));
    this.thread.on('exit', (code) => this.die(new Error(`MD5 worker exited (code ${code})`)));
  }

  /** Jobs pinned here now. */
  get load(): number {
    return this.state.kind === 'busy' ? this.state.jobs.size : 0;
  }

  /** Pins a job here (idle -> busy): the thread is ref'd while it has work. */
  attach(job: PinnedJob): void {
    const state = this.state;
    // The pool forgets a dead worker at once, so it never hands one a job.
    if (state.kind === 'dead') return;
    if (state.kind === 'busy') {
      state.jobs.set(job.id, job);
      return;
    }
    this.state = {
      kind: 'busy',
      channel: state.channel,
      jobs: new Map([[job.id, job]]),
      waiters: [],
      batch: undefined,
      ops: [],
    };
    this.thread.ref();
  }

  /** Unpins a job; the last one out sends what is staged and makes the worker idle (busy -> idle). */
  detach(job: PinnedJob): void {
    const state = this.state;
    if (state.kind !== 'busy' || !state.jobs.delete(job.id)) return;
    const waiter = state.waiters.indexOf(job);
    if (waiter >= 0) state.waiters.splice(waiter, 1);
    if (state.jobs.size > 0) return;
    this.flush();
    // Keep one spare buffer for the next job; let the rest go.
    state.channel.free.length = Math.min(state.channel.free.length, 1);
    this.state = { kind: 'idle', channel: state.channel };
    this.thread.unref();
    this.onIdle(this);
  }

  /** Copies up to `max` bytes of `data` from `offset` into the batch; returns how many (0: no buffer free). */
  stage(job: PinnedJob, data: Uint8Array, offset: number, max: number): number {
    const state = this.state;
    if (state.kind !== 'busy') return 0;
    const { batchBytes, buffersPerWorker } = this.settings;
    let batch = state.batch;
    if (!batch) {
      // The buffer bound is what keeps a worker's memory flat whatever its number of jobs.
      if (state.channel.out >= buffersPerWorker) return 0;
      const buffer = state.channel.free.pop() ?? Buffer.allocUnsafeSlow(batchBytes).buffer;
      batch = state.batch = { bytes: new Uint8Array(buffer, 0, batchBytes), used: 0 };
      state.channel.out++;
    }
    const n = Math.min(max, batchBytes - batch.used);
    batch.bytes.set(offset === 0 && n === data.length ? data : data.subarray(offset, offset + n), batch.used);
    batch.used += n;
    // Bytes of the same job one after another make one op, so messages stay short.
    const ops = state.ops;
    if (ops.length > 0 && ops[ops.length - 2] === job.id && ops[ops.length - 1] >= 0) ops[ops.length - 1] += n;
    else ops.push(job.id, n);
    if (batch.used === batchBytes) this.flush();
    return n;
  }

  /** Ends the job after its bytes: the thread answers with its digest. */
  end(job: PinnedJob): void {
    this.control(job, OP_END);
  }

  /** Makes the thread forget the job (abandoned). */
  drop(job: PinnedJob): void {
    this.control(job, OP_DROP);
  }

  /** Makes the thread throw, as a crash would (a test hook). */
  crash(job: PinnedJob): void {
    this.control(job, OP_CRASH);
  }

  /** Wakes `job` when a batch buffer comes back. */
  waitForBuffer(job: PinnedJob): void {
    if (this.state.kind !== 'busy' || this.state.waiters.includes(job)) return;
    this.state.waiters.push(job);
  }

  /** Sends the batch and the queued ops to the thread. */
  flush(): void {
    const state = this.state;
    if (state.kind !== 'busy' || state.ops.length === 0) return;
    const buffer = state.batch ? state.batch.bytes.buffer : null;
    const ops = state.ops;
    state.channel.sent.push(ops);
    state.ops = [];
    state.batch = undefined;
    this.thread.postMessage({ buffer, ops }, buffer ? [buffer] : []);
  }

  /** Kills the thread; its jobs fail with `error`. */
  terminate(error: Error): Promise<unknown> {
    this.die(error);
    return this.thread.terminate();
  }

  /** Queues an op for the job after its staged bytes, and sends it now, as the job waits on it. */
  private control(job: PinnedJob, op: number): void {
    const state = this.state;
    if (state.kind !== 'busy') return;
    state.ops.push(job.id, op);
    this.flush();
  }

  /** The job pinned here with this id, if still pinned. */
  private pinned(id: number): PinnedJob | undefined {
    return this.state.kind === 'busy' ? this.state.jobs.get(id) : undefined;
  }

  /** The thread answered a message: its buffer is free again, its bytes hashed, its digests done. */
  private answer({ buffer, digests }: WorkerMessage): void {
    const state = this.state;
    if (state.kind === 'dead') return;
    const { channel } = state;
    const ops = channel.sent.shift();
    if (buffer) {
      channel.out--;
      if (channel.free.length < this.settings.buffersPerWorker) channel.free.push(buffer);
    }
    // Jobs are looked up one by one: a job's callback may unpin jobs, or close the pool.
    if (ops) for (let i = 0; i < ops.length; i += 2) if (ops[i + 1] > 0) this.pinned(ops[i])?.hashed(ops[i + 1]);
    for (let i = 0; i < digests.length; i += 2) this.pinned(digests[i] as number)?.finished(digests[i + 1] as string);
    const now = this.state;
    if (buffer && now.kind === 'busy') for (const job of now.waiters.splice(0)) job.pump();
  }

  /** The thread is gone (idle or busy -> dead): the pool forgets it and its jobs fail. */
  private die(error: Error): void {
    const state = this.state;
    if (state.kind === 'dead') return;
    this.state = { kind: 'dead' };
    this.onDeath(this);
    if (state.kind === 'busy') for (const job of [...state.jobs.values()]) job.fail(error);
    this.thread.unref();
  }
}
