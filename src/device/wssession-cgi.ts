/** `wssession.cgi`: hands out a short-lived single-use token for the event stream. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { DeviceAuthLocals } from '../auth/middleware';
import type { SessionTokens } from '../auth/session-tokens';
import { errorOf, type Logger } from '../base/log';
import type { LoggedRequest, LoggedResponse } from '../base/request-log';
import { deviceOf, requestLocals } from './device-context';

/**
 * Answers the token as `text/plain`, no newline (clients use the body as is); 429 with
 * `Retry-After` when the account already holds its share of pending tokens.
 */
export const wssessionCgi: RequestHandler = (_req, res) => answerToken(res, deviceOf(res));

/**
 * Issues a token to the account that logged in (`res.locals`) and answers it, for the route
 * and for {@link serveSessionToken} alike. No ETag: a token is new on every request, so no
 * request for one is ever "not modified". A token the dashboard asks for (its header, read
 * once per request into the locals) is remembered as the dashboard's: the session it opens is
 * not graded.
 */
function answerToken(res: LoggedResponse, { tokens, log }: Pick<TokenDevice, 'tokens' | 'log'>): void {
  const username = (res.locals as DeviceAuthLocals).account?.name ?? 'anonymous';
  const { via } = requestLocals(res);
  const issued = tokens.issue(username, via);
  if (!issued.ok) {
    const { message, retryAfterSeconds } = issued.error;
    log.warn({ user: username, retryAfterSeconds }, message);
    sendText(res, 429, { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' }, `${message}\n`);
    return;
  }
  const token = tokens.numberOf(issued.value);
  requestLocals(res).token = token;
  log.info({ user: username, validMs: tokens.lifetimeMs, via, token }, 'session token issued');
  sendText(res, 200, { 'Cache-Control': 'no-store' }, issued.value);
}

/** What {@link serveSessionToken} uses of a device: what the Express route's steps use. */
export interface TokenDevice {
  readonly tokens: SessionTokens;
  readonly log: Logger;
  /** The request log (and journal), as the app's first middleware. */
  logRequest(req: LoggedRequest, res: LoggedResponse, next: () => void): void;
  /** The route's authentication: false once it has answered 401 or 429. */
  authenticate(req: LoggedRequest, res: LoggedResponse): boolean;
}

/**
 * Serves the usual token request, a GET or POST of exactly `path` (no query, as written),
 * without Express: the same steps as its route (request log, authentication, the same
 * {@link answerToken}), at a fraction of the cost: every event stream client that cannot do digest on the upgrade asks it
 * before each connection. False for any other request, which the Express app serves.
 * `res` must carry the device's `locals`, `via` included (see setDevice): the header is read
 * once, by the caller, for this path and the app's alike. The caller checks the `cgi` fault switch.
 */
export function serveSessionToken(
  req: IncomingMessage,
  res: LoggedResponse,
  device: TokenDevice,
  path: string,
): boolean {
  if (req.url !== path || (req.method !== 'GET' && req.method !== 'POST')) return false;
  try {
    device.logRequest(req, res, noop);
    if (device.authenticate(req, res)) answerToken(res, device);
  } catch (err) {
    // As the app's error handler does.
    device.log.error({ err: errorOf(err), url: path }, 'unhandled error');
    if (res.headersSent) res.destroy();
    else sendText(res, 500, {}, 'Internal error\n');
  }
  return true;
}

function noop(): void {}

/** Sends `body` as plain text with `headers`: what both ways to the token answer write. */
function sendText(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}
