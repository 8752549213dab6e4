/**
 * HEAD and GET of an object, as Swift answers them: conditional requests (304, 412),
 * byte ranges (206 with one range, `multipart/byteranges` with several, 416 when none
 * can be served; HEAD ignores `Range`, as Swift does), and the object's metadata and
 * kept headers on every answer. The body streams from the data file opened before the
 * answer starts, so a concurrent overwrite cannot mix two versions.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { httpDateSeconds, judgeConditions, lastModifiedSeconds } from '../../protocol/http-conditions';
import { answerRange, type ByteRange, contentRange } from '../../protocol/http-range';
import type { DestinationContext } from '../destination-context';
import type { ObjectRecord } from '../store/object-store';
import { conditionRefusal } from './object-conditions';
import { type ObjectAddress, objectHeaders } from './object-headers';
import { sendError } from './swift-response';

/** HEAD or GET of one object. */
export async function readObject(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  where: ObjectAddress,
): Promise<void> {
  const { account, container, object } = where;
  if (req.method === 'HEAD') {
    const record = ctx.store.object(account, container, object);
    const verdict = judgeConditions(req.method, req.headers, record);
    if (verdict.kind !== 'proceed') return conditionRefusal(ctx, req, res, where, verdict, record);
    if (!record) return sendError(req, res, 404, 'Not Found');
    res.writeHead(200, objectHeaders(record));
    res.end();
    return;
  }
  // The conditions are judged on the version whose file is open, so an If-Match that
  // holds never hands out the body of an overwrite that came in meanwhile.
  const opened = await ctx.store.openObject(account, container, object);
  const verdict = judgeConditions(req.method, req.headers, opened?.record);
  if (verdict.kind !== 'proceed') {
    await opened?.file.close();
    return conditionRefusal(ctx, req, res, where, verdict, opened?.record);
  }
  if (!opened) return sendError(req, res, 404, 'Not Found');
  const { file } = opened;
  const current = opened.record;
  const range = ifRangeHolds(req, current) ? answerRange(req.headers.range, current.bytes) : { kind: 'whole' as const };
  try {
    if (range.kind === 'unsatisfiable') {
      ctx.log.info(
        { account, container, object, range: req.headers.range, bytes: current.bytes },
        'GET refused: range not satisfiable',
      );
      return sendError(req, res, 416, `Requested Range Not Satisfiable: the object has ${current.bytes} bytes`, {
        ...objectHeaders(current),
        'Content-Range': `bytes */${current.bytes}`,
      });
    }
    if (range.kind === 'whole') {
      res.writeHead(200, objectHeaders(current));
      return await send(file.createReadStream({ autoClose: false }), res);
    }
    if (range.ranges.length === 1) {
      const only = range.ranges[0];
      res.writeHead(206, {
        ...objectHeaders(current),
        'Content-Length': String(only.end - only.start),
        'Content-Range': contentRange(only, current.bytes),
      });
      return await send(file.createReadStream({ start: only.start, end: only.end - 1, autoClose: false }), res);
    }
    const multipart = byteRanges(range.ranges, current);
    res.writeHead(206, {
      ...objectHeaders(current),
      'Content-Type': `multipart/byteranges;boundary=${multipart.boundary}`,
      'Content-Length': String(multipart.length),
    });
    await send(Readable.from(multipart.parts(file)), res);
  } catch (err) {
    ctx.log.error({ account, container, object, err: (err as Error).message }, 'reading an object failed');
    res.destroy(err as Error);
  } finally {
    await file.close().catch(() => undefined);
  }
}

/**
 * `If-Range` (RFC 9110): the range is served only while the object is still the one
 * named (its ETag, or a date not before its last change); otherwise the whole object.
 * Swift ignores the header; honouring it can only keep a resuming client from
 * splicing two versions.
 */
function ifRangeHolds(req: Request, record: ObjectRecord): boolean {
  const value = String(req.headers['if-range'] ?? '').trim();
  if (value === '') return true;
  if (value.startsWith('"') || /^[0-9a-f]{32}$/i.test(value)) return value.replace(/^"|"$/g, '') === record.etag;
  const seconds = httpDateSeconds(value, record.lastModified);
  return seconds !== undefined && lastModifiedSeconds(record.lastModified) <= seconds;
}

/** A `multipart/byteranges` body: its boundary, exact length and parts, as Swift lays them out. */
function byteRanges(
  ranges: readonly ByteRange[],
  record: ObjectRecord,
): { boundary: string; length: number; parts: (file: FileHandle) => AsyncGenerator<Buffer> } {
  const boundary = randomBytes(16).toString('hex');
  const heads = ranges.map((r) =>
    Buffer.from(
      `--${boundary}\r\nContent-Type: ${record.contentType}\r\nContent-Range: ${contentRange(r, record.bytes)}\r\n\r\n`,
    ),
  );
  const tail = Buffer.from(`--${boundary}--`);
  const crlf = Buffer.from('\r\n');
  const length =
    heads.reduce((n, head, i) => n + head.length + (ranges[i].end - ranges[i].start) + crlf.length, 0) + tail.length;
  async function* parts(file: FileHandle): AsyncGenerator<Buffer> {
    for (const [i, range] of ranges.entries()) {
      yield heads[i];
      for await (const chunk of file.createReadStream({ start: range.start, end: range.end - 1, autoClose: false }))
        yield chunk as Buffer;
      yield crlf;
    }
    yield tail;
  }
  return { boundary, length, parts };
}

/** Streams `body` to the client; a client that goes away ends it without an error. */
export async function send(body: Readable, res: Response): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  }
}
