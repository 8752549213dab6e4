/** Express glue for the {@link Authenticator}: 401 with challenges, or the account in `res.locals`. */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Logger, redactUrl } from '../base/log';
import type { AuthLocals } from '../base/request-log';
import type { Account } from './accounts';
import type { Authenticator } from './authenticator';

/** What a route finds in `res.locals` after {@link requireAuth}: the device account (undefined with auth `none`). */
export type DeviceAuthLocals = AuthLocals<Account>;

/** Lets the request through with valid credentials; answers 401 with challenges otherwise. */
export function requireAuth(authenticator: Authenticator, log: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const verdict = authenticator.verify(req);
    if (verdict.ok) {
      (res.locals as DeviceAuthLocals).account = verdict.value.account;
      next();
      return;
    }
    const { code, message, stale } = verdict.error;
    // A missing header is the normal first leg of digest; only real failures are worth a warning.
    const level = code === 'NO_CREDENTIALS' ? 'debug' : 'warn';
    log[level]({ url: redactUrl(req.originalUrl), reason: message, stale }, 'authentication failed');
    const answer = authenticator.unauthorized(req, stale);
    // Raw writeHead: exactly the headers real devices send (no charset, no ETag).
    res.writeHead(answer.status, answer.headers).end(answer.body);
  };
}
