/**
 * Receiving a PUT body into a part file: streamed, metered against the size and quota
 * limits, its MD5 computed on the way (md5-pool.ts), flushed to disk as it grows
 * and fsynced at the end. Whatever goes wrong, the part file is gone afterwards.
 */
import { createWriteStream, write, writev } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Transform, type Readable, type Writable } from 'node:stream';
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

/** A body on disk with its size and MD5, or why not. */
export type Received = Result<{ bytes: number; etag: string }, PutError>;

/**
 * Writes the body into the part file and fsyncs it, computing its MD5 meanwhile.
 * On failure the part file is gone; on success it holds exactly the bytes hashed.
 */
export async function receiveBody(
  body: Readable,
  part: string,
  request: BodyLimits,
  md5: Md5WorkerPool,
  openWrite?: OpenWrite,
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
    const [digest, synced] = await Promise.allSettled([job.digest(), writer.sync()]);
    if (synced.status === 'rejected') {
      await rm(part, { force: true });
      return putFailure(synced.reason, bytes);
    }
    if (digest.status === 'rejected') {
      await rm(part, { force: true });
      throw digest.reason;
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
const EARLY_SYNC_BYTES = 32 * 1024 * 1024;

/**
 * Part file buffering: chunks queued while a write is in progress go to disk in one
 * writev, instead of the body pausing after every 64 KiB chunk (16 KiB by default).
 */
const PART_WRITE_BUFFER = 256 * 1024;

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
 * FileHandle alone. The stream only borrows its number: a stream given a raw fd closes it
 * when destroyed, whatever `autoClose` says (pipeline destroys it when the upload is cut
 * or a write fails), and the handle's close would then close the number a second time,
 * by then maybe another file's, a socket's or a worker thread's event loop, which aborts
 * the process (SIGABRT). So the stream's close does nothing, and the handle is closed
 * after the stream, once none of its writes is running.
 */
async function openPartWriter(path: string): Promise<PartWriter> {
  const handle = await open(path, 'wx', 0o644);
  const stream = createWriteStream(path, {
    fd: handle.fd,
    autoClose: false,
    highWaterMark: PART_WRITE_BUFFER,
    fs: { write, writev, close: (_fd: number, callback: (err: null) => void) => callback(null) },
  });
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
