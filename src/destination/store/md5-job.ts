/**
 * One body's MD5 (the pool and its design are in md5-pool.ts, a worker in md5-worker.ts).
 *
 * Its life is one {@link JobState}:
 * - `inline`: copies of the chunks so far are held; a body that ends here is hashed on
 *   the calling thread at digest, with no worker and no round trip.
 * - `pinned`: the body outgrew `inlineBytes`, so it is pinned to one worker for the
 *   rest of its life (its chunks are hashed in order); chunks queue until copied.
 * - `digesting`: the end op is sent; the digest is due from the worker.
 * - `done`: the digest was given. `abandoned`: dropped by the caller (an aborted
 *   upload). `failed`: its worker died or the pool was closed.
 * Moves: inline -> pinned in {@link HashJob.update}, inline or pinned -> digesting or
 * done in {@link HashJob.digest}, digesting -> done in {@link HashJob.finished}, any live
 * state -> abandoned in {@link HashJob.abandon} and -> failed in {@link HashJob.fail}.
 */
import { createHash } from 'node:crypto';
import type { HashWorker, PinnedJob } from './md5-worker';

/** Callback of {@link Md5Job.update}: `null` once the chunk is copied, or why the job failed. */
export type Md5UpdateCallback = (error: Error | null) => void;

/** One body's MD5; made by `Md5WorkerPool.createJob`. */
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

/** The pool settings a job reads. */
export interface JobSettings {
  /** Bodies of at most this many bytes are hashed inline. */
  readonly inlineBytes: number;
  /** Bytes of one job copied and not yet hashed, at most. */
  readonly maxJobBytesInFlight: number;
}

/** A chunk given to a pinned job, copied up to `offset` so far; held chunks have no callback. */
interface QueuedChunk {
  readonly data: Uint8Array;
  offset: number;
  readonly callback: Md5UpdateCallback | undefined;
}

/** The pending promise of {@link HashJob.digest}. */
interface Settle {
  readonly resolve: (hex: string) => void;
  readonly reject: (err: Error) => void;
}

/** State `pinned`; see the file comment. */
interface Pinned {
  readonly kind: 'pinned';
  readonly worker: HashWorker;
  /** Chunks not yet copied whole, oldest first: their callbacks are due. */
  readonly queue: QueuedChunk[];
  inFlight: number;
  /** A pump is on the stack: a callback that gives the next chunk must not start another. */
  pumping: boolean;
}

/**
 * A job's state; see the file comment. `inFlight` stays as it was in `abandoned` and
 * `failed` (nothing more is hashed, but {@link HashJob.bytesInFlight} reports it still).
 */
type JobState =
  | {
      readonly kind: 'inline';
      readonly held: Buffer[];
      /** Sum of `held`, kept so each update costs the same however many chunks came before. */
      heldBytes: number;
    }
  | Pinned
  | { readonly kind: 'digesting'; readonly worker: HashWorker; inFlight: number; readonly result: Settle }
  | { readonly kind: 'done' }
  | { readonly kind: 'abandoned'; readonly inFlight: number }
  | { readonly kind: 'failed'; readonly error: Error; readonly inFlight: number };

/** One body's MD5; see the file comment. */
export class HashJob implements Md5Job, PinnedJob {
  private state: JobState = { kind: 'inline', held: [], heldBytes: 0 };

  /** A job held inline; `assign` gives it a worker once it outgrows `inlineBytes` (it throws once the pool is closed). */
  constructor(
    private readonly assign: () => HashWorker,
    readonly id: number,
    private readonly settings: JobSettings,
  ) {}

  /** See {@link Md5Job.bytesInFlight}. */
  get bytesInFlight(): number {
    const state = this.state;
    return state.kind === 'inline' || state.kind === 'done' ? 0 : state.inFlight;
  }

  /** See {@link Md5Job.update}. */
  update(chunk: Uint8Array, callback: Md5UpdateCallback): void {
    let state = this.state;
    if (state.kind === 'failed') return callback(state.error);
    if (state.kind === 'inline') {
      if (state.heldBytes + chunk.length <= this.settings.inlineBytes) {
        state.held.push(Buffer.from(chunk));
        state.heldBytes += chunk.length;
        return callback(null);
      }
      const pinned = this.pin(state.held);
      if (pinned instanceof Error) return callback(pinned);
      state = pinned;
    }
    if (state.kind !== 'pinned') return callback(new Error('MD5 job already ended'));
    state.queue.push({ data: chunk, offset: 0, callback });
    this.pump();
  }

  /** See {@link Md5Job.digest}. */
  digest(): Promise<string> {
    const state = this.state;
    if (state.kind === 'failed') return Promise.reject(state.error);
    if (state.kind === 'inline') {
      const hash = createHash('md5');
      for (const chunk of state.held) hash.update(chunk);
      this.state = { kind: 'done' };
      return Promise.resolve(hash.digest('hex'));
    }
    if (state.kind !== 'pinned') return Promise.reject(new Error('MD5 job already ended'));
    if (state.queue.length > 0) return Promise.reject(new Error('MD5 job digest before its updates were called back'));
    return new Promise((resolve, reject) => {
      this.state = { kind: 'digesting', worker: state.worker, inFlight: state.inFlight, result: { resolve, reject } };
      state.worker.end(this);
    });
  }

  /** See {@link Md5Job.abandon}. A pending digest then never settles: nobody waits for it any more. */
  abandon(): void {
    const state = this.state;
    if (state.kind === 'inline') {
      this.state = { kind: 'abandoned', inFlight: 0 };
      return;
    }
    if (state.kind !== 'pinned' && state.kind !== 'digesting') return;
    this.state = { kind: 'abandoned', inFlight: state.inFlight };
    state.worker.drop(this);
    state.worker.detach(this);
  }

  /** Copies queued chunks while the job's bound and the worker's buffers allow, calling each back once copied. */
  pump(): void {
    const state = this.state;
    if (state.kind !== 'pinned' || state.pumping) return;
    state.pumping = true;
    try {
      while (state.queue.length > 0) {
        const item = state.queue[0];
        while (item.offset < item.data.length) {
          const room = this.settings.maxJobBytesInFlight - state.inFlight;
          const copied =
            room > 0
              ? state.worker.stage(this, item.data, item.offset, Math.min(room, item.data.length - item.offset))
              : 0;
          if (copied === 0) {
            // Wait for acknowledgements: of this job's bytes (hashed), or of any buffer of the worker.
            if (room > 0) state.worker.waitForBuffer(this);
            state.worker.flush();
            return;
          }
          item.offset += copied;
          state.inFlight += copied;
        }
        state.queue.shift();
        item.callback?.(null);
        // The callback may have digested, abandoned or failed the job.
        if (this.state !== state) return;
      }
    } finally {
      state.pumping = false;
    }
  }

  /** The worker hashed `bytes` more of this job: a job held back by its own bound may copy again. */
  hashed(bytes: number): void {
    const state = this.state;
    if (state.kind !== 'pinned' && state.kind !== 'digesting') return;
    state.inFlight -= bytes;
    if (state.kind !== 'pinned' || state.queue.length === 0) return;
    if (state.inFlight < this.settings.maxJobBytesInFlight) this.pump();
  }

  /** The worker's answer to the end op (digesting -> done). */
  finished(hex: string): void {
    const state = this.state;
    if (state.kind !== 'digesting') return;
    this.state = { kind: 'done' };
    state.worker.detach(this);
    state.result.resolve(hex);
  }

  /** The job's worker died or the pool is closed (live -> failed): every pending call gets `error`. */
  fail(error: Error): void {
    const state = this.state;
    if (state.kind !== 'inline' && state.kind !== 'pinned' && state.kind !== 'digesting') return;
    this.state = { kind: 'failed', error, inFlight: state.kind === 'inline' ? 0 : state.inFlight };
    if (state.kind === 'inline') return;
    state.worker.detach(this);
    if (state.kind === 'digesting') return state.result.reject(error);
    for (const item of state.queue.splice(0)) item.callback?.(error);
  }

  /** Test hook of `Md5WorkerPool.crashWorkerOf`: crashes the worker this job is pinned to, if any. */
  crashWorker(): void {
    const state = this.state;
    if (state.kind === 'pinned' || state.kind === 'digesting') state.worker.crash(this);
  }

  /** Inline -> pinned: the body outgrew `inlineBytes`, so a worker gets the held chunks first; an Error if none can. */
  private pin(held: Buffer[]): Pinned | Error {
    let worker: HashWorker;
    try {
      worker = this.assign();
    } catch (err) {
      this.fail(err as Error);
      return err as Error;
    }
    const queue = held.map((data): QueuedChunk => ({ data, offset: 0, callback: undefined }));
    const pinned: Pinned = { kind: 'pinned', worker, queue, inFlight: 0, pumping: false };
    this.state = pinned;
    worker.attach(this);
    return pinned;
  }
}
