/**
 * The destination's pages for people exploring with a browser, behind the account's
 * credentials (Basic or Digest, the key as password):
 *
 * - `GET /[?page=N][&rejected-page=N]`: the account's recordings newest first, 50 a page,
 *   with status (`stalled` after `stalledAfterMs` without progress), then its rejected content;
 * - `GET /recordings/{container}`: one recording's objects and metadata;
 * - `GET /recordings/{container}/objects/{object}`: an object's body, as a download.
 *
 * Statuses come from the store and the refusals file, so they are the same after a restart.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { DestinationContext } from '../destination-context';
import { listPage, PAGE_PARAMS } from '../page/list-view';
import { newestFirst } from '../page/page-status';
import { PAGE_SIZE, pageOf, parsePageParam } from '../page/paging';
import { rejectedContentOf } from '../page/rejected-content';
import { type PageLogin, pageLogin } from './page-login';
import { isPagePath } from './page-paths';
import { sendPage, sendProblem } from './page-response';
import { recordingDetailPage, recordingObject } from './recording-detail-page';

/** Where a page request goes. */
type PageRoute =
  | { kind: 'list' }
  | { kind: 'detail'; container: string }
  | { kind: 'object'; container: string; object: string }
  | { kind: 'bad'; message: string }
  | { kind: 'unknown' };

/** The pages' handler; other paths go on to `next`. */
export function recordingsPage(ctx: DestinationContext): RequestHandler {
  const login = pageLogin(ctx);
  return (req, res, next) => {
    const route = routeOf(req.path);
    if (!route) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendProblem(req, res, 405, `${req.method} is not allowed here: the pages are read-only`, {
        Allow: 'GET, HEAD',
      });
    // Credentials before anything else: a stranger learns not even which recordings exist.
    const who = login(req, res);
    if (!who) return;
    switch (route.kind) {
      case 'list':
        return listRoute(ctx, req, res, who);
      case 'detail':
        return recordingDetailPage(ctx, req, res, who, route.container);
      case 'object':
        return void recordingObject(ctx, req, res, who, route.container, route.object).catch(next);
      case 'bad':
        return sendProblem(req, res, 400, route.message);
      case 'unknown':
        return sendProblem(req, res, 404, `There is no page ${req.path}.`);
    }
  };
}

function listRoute(ctx: DestinationContext, req: Request, res: Response, who: PageLogin): void {
  const at = req.originalUrl.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
  const recordingsPage = parsePageParam(query.getAll(PAGE_PARAMS.recordings), PAGE_PARAMS.recordings);
  if (!recordingsPage.ok) return sendProblem(req, res, 400, recordingsPage.error.message);
  const rejectedPage = parsePageParam(query.getAll(PAGE_PARAMS.rejected), PAGE_PARAMS.rejected);
  if (!rejectedPage.ok) return sendProblem(req, res, 400, rejectedPage.error.message);
  const all = ctx.recordings.list(who.account).sort(newestFirst);
  const recordings = pageOf(all, recordingsPage.value, PAGE_SIZE);
  if (!recordings.ok) return sendProblem(req, res, 404, `Recordings: ${recordings.error.message}.`);
  const rejected = pageOf(rejectedContentOf(ctx.store.containers(who.account)), rejectedPage.value, PAGE_SIZE);
  if (!rejected.ok) return sendProblem(req, res, 404, `Rejected content: ${rejected.error.message}.`);
  const body = listPage({
    account: who.account,
    user: who.user,
    now: ctx.options.clock.now(),
    stalledAfterMs: ctx.options.stalledAfterMs,
    all,
    recordings: recordings.value,
    rejected: rejected.value,
  });
  sendPage(req, res, 200, body);
}

/** The route of a path (still percent-encoded), or undefined when it is not a page's. */
function routeOf(path: string): PageRoute | undefined {
  if (!isPagePath(path)) return undefined;
  if (path === '/') return { kind: 'list' };
  const match = /^\/recordings\/([^/]+)\/?(?:\/objects\/(.+))?$/.exec(path);
  if (!match) return { kind: 'unknown' };
  const container = decode(match[1]);
  const object = match[2] === undefined ? undefined : decode(match[2]);
  if (container === undefined || (match[2] !== undefined && object === undefined))
    return { kind: 'bad', message: 'The path is not valid percent-encoded UTF-8.' };
  return object === undefined ? { kind: 'detail', container } : { kind: 'object', container, object };
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
