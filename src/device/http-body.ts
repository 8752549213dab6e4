/** Reads a request body into memory with a size limit (device APIs take small JSON bodies). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lingerOnClose } from '../base/lingering-close';
import { type Err, type ErrorInfo, fail, ok, type Result } from '../base/result';

/** Why a body was not read whole. */
export type BodyError = ErrorInfo<'too-large' | 'aborted'>;

/** The body, or why it was not read whole. */
export type BodyResult = Result<Buffer, BodyError>;

/**
 * Collects at most `limit` bytes. A declared or actual larger body stops the read
 * at once: the caller answers through {@link closeAfterBody}, which reads the rest.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge(limit));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('aborted', onAborted);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(ok(Buffer.concat(chunks, size)));
    const onAborted = (): void => finish(fail('aborted', 'the client aborted the request'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('aborted', onAborted);
  });
}

/** How much of a refused body the device still reads (and throws away), and for how long. */
export interface DiscardLimits {
  /** A body declared larger than this is not read to its end, nor more than this of one: the connection is cut. */
  maxBytes: number;
  /** The rest of the body must have come within this many milliseconds. */
  maxMs: number;
}

/** 64 MiB, 10 s: ample for a body a client wrote in one go over a slow link, little for an endless one. */
export const DISCARD_LIMITS: DiscardLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

/**
 * Sets `Connection: close` on the answer to a request whose body is not read whole (too
 * large), and holds the answer's end, and so the close, until the rest of the body has come
 * and been thrown away. Whatever `res` writes before its end goes out at once.
 *
 * Why: a socket closed with unread data in the kernel is closed with a reset, and a
 * client still sending its body (one that reads only once it has sent it all) then fails
 * on its send and never reads the answer. Past `limits` the answer ends at once.
 */
export function closeAfterBody(req: IncomingMessage, res: ServerResponse, limits = DISCARD_LIMITS): void {
  res.setHeader('Connection', 'close');
  // After the answer, what still comes (past the declared body, or past these limits) is read for a while too.
  if (req.socket) lingerOnClose(req.socket);
  const declared = Number(req.headers['content-length']);
  if (req.complete || req.destroyed || (Number.isFinite(declared) && declared > limits.maxBytes)) return;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let holding = true;
  /** The held end of the answer, once `res` asked for it. */
  let ending: (() => void) | undefined;
  let discarded = 0;
  const release = (): void => {
    if (!holding) return;
    holding = false;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', release);
    req.off('error', release);
    req.off('close', release);
    ending?.();
  };
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) release();
  };
  const timer = setTimeout(release, limits.maxMs);
  timer.unref();
  res.end = function holdEnd(...args: unknown[]): ServerResponse {
    if (!holding) return end(...args);
    const [chunk, encoding] = args;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      res.write(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const callback = args.find((arg) => typeof arg === 'function');
    ending = () => end(callback);
    return res;
  } as ServerResponse['end'];
  req.on('data', onData);
  req.on('end', release);
  req.on('error', release);
  req.on('close', release);
  req.resume();
}

function tooLarge(limit: number): Err<BodyError> {
  return fail('too-large', `Request too large: the limit is ${limit} bytes`);
}
