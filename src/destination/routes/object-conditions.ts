/**
 * Answers a conditional request whose condition decided it: 304 with the object's
 * headers and no body, 412 naming the header that failed, 400 for a condition Swift
 * cannot take (`If-None-Match` other than `*` on PUT). Each with a log line.
 */
import type { Request, Response } from 'express';
import type { ConditionVerdict } from '../../protocol/http-conditions';
import type { DestinationContext } from '../destination-context';
import type { ObjectRecord } from '../store/object-store';
import { type ObjectAddress, objectHeaders } from './object-headers';
import { httpDate, sendError } from './swift-response';

/** Sends the answer for a verdict other than `proceed`. */
export function conditionRefusal(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  where: ObjectAddress,
  verdict: Exclude<ConditionVerdict, { kind: 'proceed' }>,
  record: ObjectRecord | undefined,
): void {
  // Named fields only: `where` may be a whole call (context, request, response) that holds keys and tokens.
  const { method } = req;
  const { account, container, object } = where;
  if (verdict.kind === 'bad') {
    ctx.log.info({ method, account, container, object, reason: verdict.message }, 'request refused: bad condition');
    return sendError(req, res, 400, verdict.message);
  }
  const { status, header } = verdict;
  ctx.log.info({ method, account, container, object, status, header }, 'conditional request');
  if (verdict.kind === 'not-modified' && record) {
    res.writeHead(304, { ...objectHeaders(record), 'Content-Length': '0' });
    res.end();
    return;
  }
  const tags: Record<string, string> = record
    ? { ETag: record.etag, 'Last-Modified': httpDate(record.lastModified) }
    : {};
  sendError(req, res, 412, `Precondition Failed: ${verdict.header} does not hold`, tags);
}
