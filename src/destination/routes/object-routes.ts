/**
 * Object operations: PUT streams the body to the store (201 with the MD5 `ETag`),
 * POST replaces the metadata (202), HEAD/GET return metadata and body, DELETE 204.
 * Every refusal that can be decided from the headers is sent before the body is read.
 */
import type { Request, Response } from 'express';
import { guessContentType } from '../../protocol/content-type';
import { judgeConditions } from '../../protocol/http-conditions';
import { isMd5Hex, metadataProblem, readMetadata, readStoredObjectHeaders, unquoteEtag } from '../../protocol/swift';
import { checkObjectDelete, checkObjectWrite } from '../body-worn-rules';
import { type Caller, type DestinationContext, policyOf, registryOf } from '../destination-context';
import type { PutFailure } from '../store/object-store';
import { conditionRefusal } from './object-conditions';
import { refusedForNoRoom } from './no-room';
import { readObject } from './object-read';
import { httpDate, sendEmpty, sendError, swiftTimestamp } from './swift-response';

/** The values Swift takes as true in a header (`config_true_value`). */
const SWIFT_TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);

/** Status for each way a PUT can store nothing. */
const PUT_FAILURE_STATUS: Record<PutFailure, number> = {
  'no-container': 404,
  'etag-mismatch': 422,
  'too-large': 413,
  quota: 507,
  'disk-full': 507,
  aborted: 400,
  'length-mismatch': 400,
};

/** One request on an object, as every operation handler takes it. */
interface ObjectCall {
  ctx: DestinationContext;
  req: Request;
  res: Response;
  account: string;
  container: string;
  object: string;
}

/** Every operation on `/v1/{account}/{container}/{object}`. */
export async function objectOperation(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  container: string,
  object: string,
  caller: Caller,
): Promise<void> {
  const call: ObjectCall = { ctx, req, res, account: caller.account, container, object };
  switch (req.method) {
    case 'PUT':
      return putObject(call);
    case 'POST':
      return postObject(call);
    case 'HEAD':
    case 'GET':
      return readObject(ctx, req, res, call);
    case 'DELETE': {
      const verdict = checkObjectDelete(container, object);
      if (!verdict.ok) return sendError(req, res, verdict.error.status, verdict.error.message);
      if (refusedByConditions(call)) return;
      if (!(await ctx.store.deleteObject(caller.account, container, object)))
        return sendError(req, res, 404, 'Not Found');
      ctx.recordings.objectDeleted(caller.account, container, object);
      return sendEmpty(res, 204);
    }
    default:
      return sendError(req, res, 405, `Method ${req.method} is not allowed on an object`, {
        Allow: 'PUT, POST, GET, HEAD, DELETE',
      });
  }
}

async function putObject(call: ObjectCall): Promise<void> {
  const { ctx, req, res, account, container, object } = call;
  const { store, options, log } = ctx;
  const lengthHeader = req.headers['content-length'];
  const chunked = /\bchunked\b/i.test(String(req.headers['transfer-encoding'] ?? ''));
  if (lengthHeader === undefined && !chunked) {
    log.info({ account, container, object }, 'PUT refused: neither Content-Length nor chunked transfer encoding');
    return sendError(req, res, 411, 'Length Required: send Content-Length or Transfer-Encoding: chunked');
  }
  const contentLength = lengthHeader === undefined ? undefined : Number(lengthHeader);
  if (contentLength !== undefined && contentLength > options.maxObjectBytes) {
    log.info({ account, container, object, contentLength }, 'PUT refused: too large');
    return sendError(req, res, 413, `Your request is too large: the limit is ${options.maxObjectBytes} bytes`);
  }
  const etagHeader = req.headers.etag === undefined ? undefined : unquoteEtag(String(req.headers.etag));
  if (etagHeader !== undefined && !isMd5Hex(etagHeader)) {
    log.info({ account, container, object, etag: etagHeader.slice(0, 100) }, 'PUT refused: ETag not an MD5 digest');
    return sendError(req, res, 422, `Unprocessable Entity: ETag "${etagHeader}" is not an MD5 hex digest`);
  }
  const metadata = Object.fromEntries(readMetadata(req.headers, 'object').set);
  const limits = metadataProblem(new Map(Object.entries(metadata)), 'object');
  if (limits) {
    log.info({ account, container, object, reason: limits }, 'PUT refused: metadata limits');
    return sendError(req, res, 400, limits);
  }
  if (!store.container(account, container)) return sendError(req, res, 404, 'Container not found');
  const existing = store.object(account, container, object);
  if (refusedByConditions(call)) return;
  const verdict = checkObjectWrite(
    { operation: 'put', container, object, metadata, existing: existing?.metadata },
    registryOf(ctx, account),
    policyOf(ctx),
  );
  if (!verdict.ok) {
    const { recording, status, message } = verdict.error;
    if (recording) ctx.recordings.refused(account, container, message, 'clip');
    else log.info({ account, container, object, status, reason: message }, 'PUT refused');
    return sendError(req, res, status, message);
  }
  const quotaLeft = options.quotaBytes - store.bytesUsed(account) + (existing?.bytes ?? 0);
  if (contentLength !== undefined && contentLength > quotaLeft) {
    log.warn({ account, container, object, contentLength, quotaBytes: options.quotaBytes }, 'PUT refused: quota');
    return sendError(req, res, 507, 'Insufficient Storage: the account quota is used up');
  }
  if (await refusedForNoRoom(ctx, req, res)) return;
  // Every check that needs no body has passed: now the client may send it.
  if (/100-continue/i.test(String(req.headers.expect ?? ''))) res.writeContinue();
  const outcome = await store.putObject(account, container, object, req, {
    contentType: contentTypeOf(req, object),
    metadata,
    headers: readStoredObjectHeaders(req.headers),
    expectedEtag: etagHeader,
    contentLength,
    maxBytes: options.maxObjectBytes,
    quotaLeft,
  });
  if (!outcome.ok) {
    const { code, message } = outcome.error;
    log[code === 'aborted' ? 'info' : 'warn']({ account, container, object, reason: message }, 'PUT stored nothing');
    if (!res.writable || res.destroyed || !res.socket || res.socket.destroyed) return;
    return sendError(req, res, PUT_FAILURE_STATUS[code], message);
  }
  const { record } = outcome.value;
  ctx.recordings.objectStored(account, container, record);
  log.debug({ account, container, object, bytes: record.bytes, etag: record.etag }, 'object stored');
  sendEmpty(res, 201, {
    ETag: record.etag,
    'Last-Modified': httpDate(record.lastModified),
    'X-Timestamp': swiftTimestamp(record.lastModified),
  });
}

async function postObject(call: ObjectCall): Promise<void> {
  const { ctx, req, res, account, container, object } = call;
  const existing = ctx.store.object(account, container, object);
  if (refusedByConditions(call)) return;
  if (!existing) return sendError(req, res, 404, 'Not Found');
  const metadata = Object.fromEntries(readMetadata(req.headers, 'object').set);
  const limits = metadataProblem(new Map(Object.entries(metadata)), 'object');
  if (limits) return sendError(req, res, 400, limits);
  const verdict = checkObjectWrite(
    { operation: 'post', container, object, metadata, existing: existing.metadata },
    registryOf(ctx, account),
    policyOf(ctx),
  );
  if (!verdict.ok) {
    const { status, message } = verdict.error;
    ctx.log.info({ account, container, object, status, reason: message }, 'POST refused');
    return sendError(req, res, status, message);
  }
  if (await refusedForNoRoom(ctx, req, res)) return;
  const contentType = req.headers['content-type'];
  const updated = await ctx.store.postObject(
    account,
    container,
    object,
    metadata,
    contentType === undefined ? undefined : String(contentType),
    readStoredObjectHeaders(req.headers),
  );
  if (!updated) return sendError(req, res, 404, 'Not Found');
  sendEmpty(res, 202);
}

/**
 * Judges `If-Match`, `If-None-Match` and the date conditions of a write against the
 * object as it is now; true when the request was answered (412, or 400) and must stop.
 */
function refusedByConditions(call: ObjectCall): boolean {
  const { ctx, req, res, account, container, object } = call;
  const current = ctx.store.object(account, container, object);
  const verdict = judgeConditions(req.method, req.headers, current);
  if (verdict.kind === 'proceed') return false;
  conditionRefusal(ctx, req, res, call, verdict, current);
  return true;
}

/**
 * The type to store: the one sent, or guessed from the name (as Swift does) when none
 * was sent or `X-Detect-Content-Type: true` asks for it.
 */
function contentTypeOf(req: Request, object: string): string {
  const sent = req.headers['content-type'];
  const detect = SWIFT_TRUE.has(String(req.headers['x-detect-content-type'] ?? '').toLowerCase());
  return sent === undefined || sent.trim() === '' || detect ? guessContentType(object) : sent;
}
