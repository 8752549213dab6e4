/** `wssession.cgi`: hands out a short-lived single-use token for the event stream. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { DeviceAuthLocals } from '../auth/middleware';
import type { SessionTokens } from '../auth/session-tokens';
import type { Logger } from '../base/log';
import type { LoggedRequest, LoggedResponse } from '../base/request-log';
import { hashBytes } from '../auth/quick-hash';
import { deviceOf } from './device-context';

/**
 * Answers the token as `text/plain`, no newline (clients use the body as is); 429 with
 * `Retry-After` when the account already holds its share of pending tokens.
 */
export const wssessionCgi: RequestHandler = (_req, res) => {
  const { tokens, log } = deviceOf(res);
  const { account } = res.locals as DeviceAuthLocals;
  const username = account?.name ?? 'anonymous';
  const issued = tokens.issue(username);
  if (!issued.ok) {
    const { message, retryAfterSeconds } = issued.error;
    log.warn({ user: username, retryAfterSeconds }, message);
    res
      .status(429)
      .set({ 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' })
      .type('text/plain')
      .send(`${message}\n`);
    return;
  }
  log.info({ user: username, validMs: tokens.lifetimeMs }, 'session token issued');
  res.status(200).set('Cache-Control', 'no-store').type('text/plain').send(issued.value);
};

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
 * Serves the usual token request, a GET or POST of exactly `path` (no query, as written)
 * without conditional headers, without Express: the same steps as its route (request log,
 * authentication, {@link wssessionCgi}) and the very bytes Express would send, at a fraction
 * of the cost: every event stream client that cannot do digest on the upgrade asks it
 * before each connection. False for any other request, which the Express app serves.
 * `res` must carry `locals` (see setDevice); the caller checks the `cgi` fault switch.
 */
export function serveSessionToken(
  req: IncomingMessage,
  res: LoggedResponse,
  device: TokenDevice,
  path: string,
): boolean {
  if (req.url !== path || (req.method !== 'GET' && req.method !== 'POST')) return false;
  // Express answers a fresh conditional request 304, without the token.
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) return false;
  try {
    device.logRequest(req, res, noop);
    if (!device.authenticate(req, res)) return true;
    const { tokens, log } = device;
    const username = (res.locals as DeviceAuthLocals).account?.name ?? 'anonymous';
    const issued = tokens.issue(username);
    if (!issued.ok) {
      const { message, retryAfterSeconds } = issued.error;
      log.warn({ user: username, retryAfterSeconds }, message);
      sendText(res, 429, { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' }, `${message}\n`);
      return true;
    }
    log.info({ user: username, validMs: tokens.lifetimeMs }, 'session token issued');
    sendText(res, 200, { 'Cache-Control': 'no-store' }, issued.value);
  } catch (err) {
    // As the app's error handler does.
    device.log.error({ err, url: path }, 'unhandled error');
    if (res.headersSent) res.destroy();
    else sendText(res, 500, {}, 'Internal error\n');
  }
  return true;
}

function noop(): void {}

/**
 * Sends `body` as Express's `res.status(status).set(headers).type('text/plain').send(body)`
 * does for a request without conditional headers: the same headers in the same order,
 * with Express's weak ETag.
 */
function sendText(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const bytes = Buffer.from(body, 'utf8');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(bytes.length));
  res.setHeader('ETag', weakEtag(body, bytes.length));
  res.end(bytes);
}

/**
 * Express's default ETag (the `etag` package, weak) of `body`, `length` bytes in UTF-8:
 * `W/"<length in hex>-<SHA-1 of the bytes, base64, first 27 characters>"`.
 */
function weakEtag(body: string, length: number): string {
  return `W/"${length.toString(16)}-${hashBytes('sha1', body).toString('base64').slice(0, 27)}"`;
}
