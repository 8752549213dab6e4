/** `wssession.cgi`: hands out a short-lived single-use token for the event stream. */
import type { RequestHandler } from 'express';
import type { DeviceAuthLocals } from '../auth/middleware';
import { deviceOf } from './device-context';

/** Answers the token as `text/plain`, no newline (clients use the body as is). */
export const wssessionCgi: RequestHandler = (_req, res) => {
  const { tokens, log } = deviceOf(res);
  const { account } = res.locals as DeviceAuthLocals;
  const username = account?.name ?? 'anonymous';
  const token = tokens.issue(username);
  log.info({ user: username, validMs: tokens.lifetimeMs }, 'session token issued');
  res.status(200).set('Cache-Control', 'no-store').type('text/plain').send(token);
};
