/**
 * Account and container operations: listings (plain text or `?format=json`),
 * container PUT (201 new, 202 existing), POST (204), HEAD (204), DELETE (204/409),
 * with metadata limits and the body worn rules for recording containers.
 */
import type { Request, Response } from 'express';
import { metadataHeaders, metadataProblem, parseListingQuery, readMetadata, selectListing } from '../../protocol/swift';
import { checkContainerWrite } from '../body-worn-rules';
import { type Caller, type DestinationContext, policyOf, registryOf } from '../destination-context';
import type { StoredMetadata } from '../store/object-store';
import { refusedForNoRoom } from './no-room';
import { listingDate, sendBody, sendEmpty, sendError, swiftTimestamp } from './swift-response';

/** HEAD / GET of `/v1/{account}`: totals, and the container listing. */
export function accountOperation(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  query: URLSearchParams,
  caller: Caller,
): void {
  const { store } = ctx;
  const containers = store.containers(caller.account);
  const headers = {
    'X-Account-Container-Count': containers.length,
    'X-Account-Object-Count': containers.reduce((n, c) => n + c.objects.size, 0),
    'X-Account-Bytes-Used': store.bytesUsed(caller.account),
    'X-Timestamp': swiftTimestamp(containers[0]?.created ?? ctx.options.clock.now()),
  };
  if (req.method === 'HEAD') return sendEmpty(res, 204, headers);
  if (req.method !== 'GET')
    return sendError(req, res, 405, `Method ${req.method} is not allowed on an account`, { Allow: 'GET, HEAD' });
  sendListing(req, res, query, containers, headers, (c) => ({
    name: c.name,
    count: c.objects.size,
    bytes: c.bytes,
    last_modified: listingDate(c.created),
  }));
}

/** Every operation on `/v1/{account}/{container}`. */
export async function containerOperation(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  container: string,
  query: URLSearchParams,
  caller: Caller,
): Promise<void> {
  const { store } = ctx;
  const { account } = caller;
  switch (req.method) {
    case 'PUT':
    case 'POST': {
      const existing = store.container(account, container);
      if (req.method === 'POST' && !existing) return sendError(req, res, 404, 'Container not found');
      const update = readMetadata(req.headers, 'container');
      const after: StoredMetadata = { ...(existing?.metadata ?? {}), ...Object.fromEntries(update.set) };
      for (const name of update.remove) delete after[name];
      const limits = metadataProblem(new Map(Object.entries(after)), 'container');
      if (limits) {
        ctx.log.info({ account, container, reason: limits }, 'container refused: metadata limits');
        return sendError(req, res, 400, limits);
      }
      const verdict = checkContainerWrite(container, after, registryOf(ctx, account), policyOf(ctx));
      if (!verdict.ok) {
        const { recording, status, message } = verdict.error;
        if (recording) ctx.recordings.refused(account, container, message);
        else ctx.log.info({ account, container, reason: message }, 'container refused');
        return sendError(req, res, status, message);
      }
      if (await refusedForNoRoom(ctx, req, res)) return;
      const outcome = await store.putContainer(account, container, Object.fromEntries(update.set), update.remove);
      ctx.recordings.containerWritten(account, container, after);
      if (req.method === 'POST') return sendEmpty(res, 204);
      return sendEmpty(res, outcome === 'created' ? 201 : 202);
    }
    case 'HEAD':
    case 'GET': {
      const record = store.container(account, container);
      if (!record) return sendError(req, res, 404, 'Container not found');
      const headers = {
        'X-Container-Object-Count': record.objects.size,
        'X-Container-Bytes-Used': record.bytes,
        'X-Timestamp': swiftTimestamp(record.created),
        'X-Storage-Policy': 'Policy-0',
        ...metadataHeaders(new Map(Object.entries(record.metadata)), 'container'),
      };
      if (req.method === 'HEAD') return sendEmpty(res, 204, headers);
      return sendListing(req, res, query, store.objects(account, container), headers, (o) => ({
        name: o.name,
        hash: o.etag,
        bytes: o.bytes,
        content_type: o.contentType,
        last_modified: listingDate(o.lastModified),
      }));
    }
    case 'DELETE': {
      const outcome = await store.deleteContainer(account, container);
      if (outcome === 'missing') return sendError(req, res, 404, 'Container not found');
      if (outcome === 'not-empty')
        return sendError(
          req,
          res,
          409,
          'There was a conflict when trying to complete your request: the container is not empty',
        );
      ctx.recordings.containerDeleted(account, container);
      return sendEmpty(res, 204);
    }
    default:
      return sendError(req, res, 405, `Method ${req.method} is not allowed on a container`, {
        Allow: 'PUT, POST, GET, HEAD, DELETE',
      });
  }
}

/** A plain-text listing: one name a line; an empty one is 204, as in Swift. */
/**
 * A listing of `items` as the query asks: JSON (each item as `describe` puts it, folded
 * prefixes as `subdir`) or plain names one a line (204 when there are none).
 */
function sendListing<T extends { name: string }>(
  req: Request,
  res: Response,
  query: URLSearchParams,
  items: readonly T[],
  headers: Record<string, string | number>,
  describe: (item: T) => object,
): void {
  const listing = parseListingQuery(query, req.headers.accept);
  if (!listing.ok) return sendError(req, res, listing.error.status, listing.error.message);
  const entries = selectListing(items, listing.value);
  if (listing.value.format === 'json') {
    const json = entries.map((e) => ('subdir' in e ? { subdir: e.subdir } : describe(e.item)));
    return sendBody(req, res, 200, JSON.stringify(json), 'application/json; charset=utf-8', headers);
  }
  const names = entries.map((e) => ('subdir' in e ? e.subdir : e.item.name));
  if (names.length === 0) return sendEmpty(res, 204, headers);
  sendBody(req, res, 200, `${names.join('\n')}\n`, 'text/plain; charset=utf-8', headers);
}
