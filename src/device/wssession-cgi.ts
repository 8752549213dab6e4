/** `wssession.cgi`: hands out a short-lived single-use token for the event stream. */
import type { RequestHandler } from 'express';
import type { DeviceAuthLocals } from '../auth/middleware';
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
