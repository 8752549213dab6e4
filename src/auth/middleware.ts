/** Express glue for the {@link Authenticator}: 401 with challenges, or the account in `res.locals`. */
import type { Request, Response } from 'express';
import { redactUrl } from '../base/log';
import type { RefusalCode } from '../base/refusal-codes';
import type { AuthLocals, LoggedRequest, LoggedResponse } from '../base/request-log';
import type { Account } from './accounts';
import { authScheme, credentialUser } from './auth-params';
import { type Authenticator, requestTarget } from './authenticator';

/** What a route finds in `res.locals` after {@link requireAuth}: the device account (undefined with auth `none`). */
export type DeviceAuthLocals = AuthLocals<Account>;

/** A request refused for its credentials, for a journal. */
export interface CredentialRefusal {
  method: string;
  /** Path and query, session tokens redacted. */
  path: string;
  /** The scheme the client tried, undefined without an Authorization header. */
  scheme: string | undefined;
  /** The refusal's code (NO_CREDENTIALS, STALE_NONCE, WRONG_PASSWORD, ...: base/refusal-codes). */
  code: RefusalCode;
  reason: string;
  /** Whether the 401 said `stale=true`. */
  stale: boolean;
  /** The user the credentials named, if any (never the password). */
  user: string | undefined;
  remote: string | undefined;
}

/**
 * Checks a request's credentials: true with the account and scheme put in `res.locals`;
 * false once it has answered 401 with challenges, or 429 when throttled (and told the refusal).
 */
export type AuthGate = (req: Request, res: Response) => boolean;

/**
 * An {@link AuthGate} with its device's parts passed in (a device's routes call it from a
 * method, with no closure per device); `onRefused` hears each refusal (a journal), with the
 * response, so one function serves every request. Takes Node's own request and response too
 * (with `locals`), for routes served without Express.
 */
export function checkCredentials(
  req: LoggedRequest,
  res: LoggedResponse,
  authenticator: Authenticator,
  onRefused: ((refusal: CredentialRefusal, res: LoggedResponse) => void) | undefined,
): boolean {
  const verdict = authenticator.verify(req);
  if (verdict.ok) {
    const locals = res.locals as DeviceAuthLocals;
    locals.account = verdict.value.account;
    locals.scheme = verdict.value.scheme;
    return true;
  }
  const { code, message, stale } = verdict.error;
  const path = redactUrl(requestTarget(req));
  authenticator.logRefusal(verdict.error, { url: path }, 'authentication failed', req.socket.remoteAddress);
  const { authorization } = req.headers;
  onRefused?.(
    {
      method: req.method ?? 'GET',
      path,
      scheme: authScheme(authorization),
      code,
      reason: message,
      stale,
      user: credentialUser(authorization),
      remote: req.socket.remoteAddress,
    },
    res,
  );
  const answer = authenticator.answer(req, verdict.error);
  // Raw writeHead: exactly the headers real devices send (no charset, no ETag).
  res.writeHead(answer.status, answer.headers).end(answer.body);
  return false;
}
