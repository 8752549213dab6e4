/** Reads a request body into memory with a size limit (device APIs take small JSON bodies). */
import type { IncomingMessage } from 'node:http';
import { type Err, type ErrorInfo, fail, ok, type Result } from '../base/result';

/** Why a body was not read whole. */
export type BodyError = ErrorInfo<'too-large' | 'aborted'>;

/** The body, or why it was not read whole. */
export type BodyResult = Result<Buffer, BodyError>;

/**
 * Collects at most `limit` bytes. A declared or actual larger body stops the read
 * at once (the caller answers and closes the connection; the rest is not read).
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

function tooLarge(limit: number): Err<BodyError> {
  return fail('too-large', `Request too large: the limit is ${limit} bytes`);
}
