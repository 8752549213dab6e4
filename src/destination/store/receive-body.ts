/**
 * Receiving a PUT body into a part file: streamed, metered against the size and quota
 * limits, its MD5 computed on the way (md5-pool.ts), flushed to disk as it grows
 * and fsynced at the end. Whatever goes wrong, the part file is gone afterwards.
 */
import { writev } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { Transform, type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Err, type ErrorInfo, err as failWith, fail, ok, type Result } from '../../base/result';
import { type NoRoomCode, noRoomCode, noRoomMessage } from './disk-room';
import type { Md5WorkerPool } from './md5-pool';

/** Why a PUT stored nothing. */
export type PutFailure =
  'no-container' | 'etag-mismatch' | 'too-large' | 'quota' | 'disk-full' | 'aborted' | 'length-mismatch';

/** How the store writes part files; tests pass one that fails like a full disk. */
export type OpenWrite = (path: string) => Writable;

/** The limits a body is received under. */
export interface BodyLimits {
  /** Largest body accepted (`too-large` beyond). */
  maxBytes: number;
  /** Bytes the account may still add (`quota` beyond); Infinity when unlimited. */
  quotaLeft: number;
}

/** Why a PUT stored nothing (the code) and what to tell the client; `noRoom` says which file-system error was `disk-full`. */
export type PutError = ErrorInfo<PutFailure> & { noRoom?: NoRoomCode };

/** A body's size and MD5. */
export interface BodySum {
  bytes: number;
  etag: string;
}

/** A body on disk with its size and MD5, or why not. */
export type Received = Result<BodySum, PutError>;

/**
 * Writes the body into the part file and fsyncs it, computing its MD5 meanwhile.
 * On failure the part file is gone; on success it holds exactly the bytes hashed.
 * `whileSyncing`, if given, runs as soon as the whole body is hashed, while the part file
 * is flushed to disk (a commit writes its record meanwhile); its failure is the PUT's,
 * and undoing what it did is the caller's.
 */
export async function receiveBody(
  body: Readable,
  part: string,
  request: BodyLimits,
  md5: Md5WorkerPool,
  openWrite?: OpenWrite,
  whileSyncing?: (sum: BodySum) => Promise<void>,
): Promise<Received> {
  let writer: PartWriter;
  try {
    writer = openWrite ? givenPartWriter(openWrite, part) : await openPartWriter(part);
  } catch (err) {
    await rm(part, { force: true });
    return putFailure(err, 0);
  }
  // The MD5 is computed by a worker thread (small bodies inline); the meter calls
  // back only when the worker keeps up, so a slow hash slows the upload instead of
  // filling memory.
  const job = md5.createJob();
  let bytes = 0;
  let flushedAt = 0;
  const limit = Math.min(request.maxBytes, request.quotaLeft);
  // Over the limit, the rest of the body is read and dropped, so the client still
  // gets its 413/507 answer instead of a reset connection; the same after a hashing
  // failure (a crashed worker), which ends in a 500.
  let overflow: 'too-large' | 'quota' | undefined;
  let hashFailure: Error | undefined;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > limit && !overflow) {
        overflow = bytes > request.maxBytes ? 'too-large' : 'quota';
        job.abandon();
      }
      if (overflow || hashFailure) {
        callback();
        return;
      }
      this.push(chunk);
      if (bytes - flushedAt >= EARLY_SYNC_BYTES) {
        flushedAt = bytes;
        writer.startSync();
      }
      job.update(chunk, (err) => {
        if (err) hashFailure = err;
        callback();
      });
    },
  });
  try {
    try {
      await pipeline(body, meter, writer.stream);
    } catch (err) {
      job.abandon();
      await rm(part, { force: true });
      return putFailure(err, bytes);
    }
    if (overflow || hashFailure) {
      job.abandon();
      await rm(part, { force: true });
      if (hashFailure) throw hashFailure;
      return putFailure(new StoreRefusal(overflow as 'too-large' | 'quota'), bytes);
    }
    // The last bytes are hashed while the part file is flushed to disk.
    const digested = job.digest();
    const [digest, synced, prepared] = await Promise.allSettled([
      digested,
      writer.sync(),
      digested.then((etag) => whileSyncing?.({ bytes, etag })),
    ]);
    if (synced.status === 'rejected') {
      await rm(part, { force: true });
      return putFailure(synced.reason, bytes);
    }
    if (digest.status === 'rejected') {
      await rm(part, { force: true });
      throw digest.reason;
    }
    if (prepared.status === 'rejected') {
      await rm(part, { force: true });
      return putFailure(prepared.reason, bytes);
    }
    return ok({ bytes, etag: digest.value });
  } finally {
    await writer.close();
  }
}

class StoreRefusal extends Error {
  constructor(readonly reason: 'too-large' | 'quota') {
    super(reason);
  }
}

/** Bytes between the flushes started during a large upload, so its final fsync has little left to write. */
export const EARLY_SYNC_BYTES = 32 * 1024 * 1024;

/**
 * Bytes of a body gathered before they are written to its part file, in one writev.
 * Each write is a trip through libuv's thread pool, whose thread, woken for it, takes a
 * core from the event loop on a busy machine: written chunk by chunk (64 KiB), 200
 * concurrent uploads spent a quarter of the event loop's time waiting to run again.
 */
export const PART_WRITE_BATCH = 256 * 1024;

/** Bytes of a body queued while its part file is being written, before the body is paused (back-pressure). */
export const PART_WRITE_BUFFER = 64 * 1024;

/** A part file being written. */
interface PartWriter {
  /** Where the body goes. */
  stream: Writable;
  /** Starts flushing what is written so far, unless a flush is running; errors surface in {@link sync}. */
  startSync(): void;
  /** Everything written is on disk (fsync). */
  sync(): Promise<void>;
  /** Lets the file go, once the stream has ended or been destroyed; never fails. */
  close(): Promise<void>;
}

/**
 * The store's own part file: one descriptor for the writes and every fsync, owned by the
 * FileHandle alone (issue 16, finding 12: a stream given a raw fd closes it when destroyed,
 * and a second close by its owner closed whatever had taken the number meanwhile, once a
 * worker thread's event loop, which aborts the process). The handle is closed after the
 * stream has closed, once none of its writes is running.
 */
async function openPartWriter(path: string): Promise<PartWriter> {
  const handle = await open(path, 'wx', 0o644);
  const stream = new PartStream(handle);
  let flushing: Promise<void> | undefined;
  // An error reported by an early flush is not reported again by the final fsync: keep it.
  let flushError: Error | undefined;
  return {
    stream,
    startSync() {
      flushing ??= handle
        .datasync()
        .catch((err: unknown) => {
          flushError ??= err instanceof Error ? err : new Error(String(err));
        })
        .finally(() => {
          flushing = undefined;
        });
    },
    async sync() {
      await flushing;
      if (flushError !== undefined) throw flushError;
      await handle.sync();
    },
    async close() {
      await flushing;
      await destroyed(stream);
      await handle.close().catch(() => undefined);
    },
  };
}

/**
 * The bytes of a body into its part file, {@link PART_WRITE_BATCH} at a time: chunks are
 * gathered (and called back at once) until a batch is full, which is written with one
 * writev before the next chunk is taken; the rest at the end. It never closes the handle.
 */
class PartStream extends Writable {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The write running now, if any: the stream's close waits for it. */
  private writing: Promise<void> | undefined;

  constructor(private readonly handle: FileHandle) {
    super({ highWaterMark: PART_WRITE_BUFFER });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.gather([chunk], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.gather(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const done = (): void => callback(error);
    if (this.writing) this.writing.then(done, done);
    else done();
  }

  private gather(chunks: Buffer[], callback: (error?: Error | null) => void): void {
    for (const chunk of chunks) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
    }
    if (this.heldBytes < PART_WRITE_BATCH) return callback();
    this.flush().then(() => callback(), callback);
  }

  /** Writes the held chunks, all of them (writev may write fewer bytes than asked). */
  private flush(): Promise<void> {
    const buffers = this.held;
    this.held = [];
    this.heldBytes = 0;
    if (buffers.length === 0) return Promise.resolve();
    // fs.writev on the handle's descriptor, not handle.writev: the promise API costs the
    // event loop more per call. The descriptor is safe to borrow: the handle is closed
    // only after this stream, which waits for the write running (_destroy).
    const writing = new Promise<void>((resolve, reject) => writeAll(this.handle.fd, buffers, resolve, reject)).finally(
      () => {
        if (this.writing === writing) this.writing = undefined;
      },
    );
    this.writing = writing;
    return writing;
  }
}

/** Writes every byte of `buffers` to `fd` at its position, in as many writev calls as it takes. */
function writeAll(fd: number, buffers: Buffer[], resolve: () => void, reject: (err: Error) => void): void {
  writev(fd, buffers, (err, written) => {
    if (err) return reject(err);
    // A file that takes nothing and says no error would loop here for ever.
    if (written === 0) return reject(new Error('the part file took none of the bytes written to it'));
    const left = rest(buffers, written);
    if (left.length === 0) resolve();
    else writeAll(fd, left, resolve, reject);
  });
}

/** What is left of `buffers` after the first `written` bytes. */
function rest(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  let i = 0;
  while (i < buffers.length && skip >= buffers[i].length) skip -= buffers[i++].length;
  const left = buffers.slice(i);
  if (skip > 0) left[0] = left[0].subarray(skip);
  return left;
}

/** Destroys `stream` (if not yet) and resolves once it has closed: none of its writes is running then. */
function destroyed(stream: Writable): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('close', () => resolve());
    stream.destroy();
  });
}

/** A part file written through {@link ObjectStoreOptions.openWrite} (tests): fsynced by opening it again. */
function givenPartWriter(openWrite: OpenWrite, path: string): PartWriter {
  return {
    stream: openWrite(path),
    startSync: () => undefined,
    sync: () => fsyncFile(path),
    close: () => Promise.resolve(),
  };
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Maps an error of receiving or committing a body to its failure; rethrows what is not one. */
export function putFailure(err: unknown, bytes: number): Err<PutError> {
  if (err instanceof StoreRefusal)
    return fail(err.reason, err.reason === 'quota' ? 'Quota exceeded' : 'Your request is too large.');
  const noRoom = noRoomCode(err);
  if (noRoom !== undefined) return failWith({ code: 'disk-full', message: noRoomMessage(noRoom), noRoom });
  const code = (err as NodeJS.ErrnoException).code;
  if (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    code === 'ECONNABORTED' ||
    (err as Error).message === 'aborted'
  ) {
    return fail('aborted', `upload interrupted after ${bytes} bytes`);
  }
  throw err;
}
