/**
 * `GET /recordings/{container}` (the detail page of a recording or a rejected content
 * container) and `GET /recordings/{container}/objects/{object}` (an object's body).
 *
 * Downloads go through the page, behind the page's own login, rather than linking to
 * `/v1/...`: a browser cannot add `X-Auth-Token` to a link, and a token put into the
 * page would leak a write credential that expires in minutes anyway. A download is an
 * attachment that may not run anything (`Content-Security-Policy: sandbox`, `nosniff`):
 * the client chose its content type, and this origin holds the page's login.
 */
import type { Request, Response } from 'express';
import { isRejectedContentContainer } from '../../protocol/body-worn';
import type { DestinationContext } from '../destination-context';
import { detailPage } from '../page/detail-view';
import type { RecordingInfo } from '../recordings';
import { send } from './object-read';
import { httpDate } from './swift-response';
import type { PageLogin } from './page-login';
import { PAGE_SECURITY_HEADERS, sendPage, sendProblem } from './page-response';

/** The detail page; 404 unless `container` is a recording (received or refused) or rejected content. */
export function recordingDetailPage(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  who: PageLogin,
  container: string,
): void {
  const found = lookUp(ctx, who, container);
  if (!found) return sendProblem(req, res, 404, notFound(who, container));
  const body = detailPage({
    container,
    now: ctx.options.clock.now(),
    stalledAfterMs: ctx.options.stalledAfterMs,
    recording: found.recording,
    stored: ctx.store.container(who.account, container),
    objects: ctx.store.objects(who.account, container),
  });
  sendPage(req, res, 200, body);
}

/** An object of such a container, as a download. */
export async function recordingObject(
  ctx: DestinationContext,
  req: Request,
  res: Response,
  who: PageLogin,
  container: string,
  object: string,
): Promise<void> {
  if (!lookUp(ctx, who, container)) return sendProblem(req, res, 404, notFound(who, container));
  const missing = `There is no object "${object}" in ${container}.`;
  const record = ctx.store.object(who.account, container, object);
  if (!record) return sendProblem(req, res, 404, missing);
  const opened = req.method === 'HEAD' ? undefined : await ctx.store.openObject(who.account, container, object);
  if (req.method !== 'HEAD' && !opened) return sendProblem(req, res, 404, missing);
  const current = opened?.record ?? record;
  res.writeHead(200, {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': current.contentType,
    'Content-Length': String(current.bytes),
    'Content-Disposition': attachment(object),
    'Content-Security-Policy': 'sandbox',
    ETag: current.etag,
    'Last-Modified': httpDate(current.lastModified),
  });
  if (!opened) return void res.end();
  try {
    // A browser that cancels a download is no error (send says so); anything else is logged and ends the answer.
    await send(opened.file.createReadStream({ autoClose: false }), res);
  } catch (err) {
    ctx.log.error({ account: who.account, container, object, err: (err as Error).message }, 'page download failed');
    res.destroy(err as Error);
  } finally {
    await opened.file.close().catch(() => undefined);
  }
}

function lookUp(
  ctx: DestinationContext,
  who: PageLogin,
  container: string,
): { recording: RecordingInfo | undefined } | undefined {
  const recording = ctx.recordings.get(who.account, container);
  if (recording) return { recording };
  if (isRejectedContentContainer(container) && ctx.store.container(who.account, container))
    return { recording: undefined };
  return undefined;
}

function notFound(who: PageLogin, container: string): string {
  return `Account ${who.account} has no recording or rejected content named "${container}".`;
}

/** `attachment; filename="clip.mkv"; filename*=UTF-8''clip.mkv`, from the last part of the name. */
function attachment(object: string): string {
  const name = object.slice(object.lastIndexOf('/') + 1) || 'object';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
