/**
 * The control API answers under the server's own Host names only, against DNS rebinding: a
 * page whose name its author makes resolve to 127.0.0.1 after it loaded is, to the browser,
 * on the same origin as what it sends to the loopback port, so the origin guard lets it
 * through and the loopback rule serves it; its `Host` header still names it. Without a
 * control token, a request whose Host is not one of the server's (../base/host-allow-list)
 * gets 403 `HOST_NOT_ALLOWED`; with a token, the token decides, from any Host.
 */
import type { RequestHandler } from 'express';
import { type Clock, systemClock } from '../base/clock';
import type { HostAllowList } from '../base/host-allow-list';
import { HostCheck, hostNotAllowedMessage } from '../base/host-check';
import type { Logger } from '../base/log';
import type { ControlCode } from './control-codes';
import { ControlError, refuse } from './control-error';

/** The code of the 403 answered for a Host that is not one of the server's. */
export const HOST_NOT_ALLOWED = 'HOST_NOT_ALLOWED' satisfies ControlCode;

/** Refuses a request for a Host not allowed (when no token is set); the check logs it. */
export function hostGuard(
  hosts: HostAllowList,
  token: string | undefined,
  log: Logger,
  clock: Clock = systemClock,
): RequestHandler {
  const check = new HostCheck(hosts, log, clock, 'control API');
  return (req, res, next) => {
    if (token !== undefined || check.admit(req)) return next();
    refuse(res, new ControlError(HOST_NOT_ALLOWED, hostNotAllowedMessage(req.headers.host, true)));
  };
}
