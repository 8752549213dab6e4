/**
 * Who may use the control API. With a control token, every request needs
 * `Authorization: Bearer <token>` (compared in constant time); without one, only
 * requests from a loopback address are served, since the API can change everything
 * the device does and hands out its credentials.
 */
import { isIPv4 } from 'node:net';
import type { RequestHandler } from 'express';
import { type Clock, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import { DEFAULT_THROTTLE, LoginThrottle } from '../auth/login-throttle';
import { sameSecret } from '../auth/same-secret';
import { ControlError, sendError } from './control-error';

/** The message of the 403 answered to a request from elsewhere without a token configured. */
export const LOOPBACK_ONLY = 'the control API answers loopback only; start with --control-token to open it';

/** The guard in OpenAPI terms: a bearer scheme, needed only when a token is set (`{}`: loopback, no token). */
export const GUARD_SECURITY = {
  schemes: {
    controlToken: { type: 'http', scheme: 'bearer', description: 'the --control-token, when one is set' } as const,
  },
  requirement: [{}, { controlToken: [] }] as Record<string, string[]>[],
};

/** Whether `address` (as a socket reports it) is 127.0.0.0/8, ::1 or an IPv4-mapped 127.x address. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const lower = address.toLowerCase();
  if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return isIPv4(v4) && v4.startsWith('127.');
}

/** The bearer token of an Authorization header, undefined when it has none. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Refuses what the token or the loopback rule does not allow: 401 (with WWW-Authenticate) or
 * 403; an address past the device's wrong-login limit gets 429 with `Retry-After`, unchecked.
 */
export function accessGuard(token: string | undefined, log: Logger, clock: Clock = systemClock): RequestHandler {
  const throttle = new LoginThrottle({ clock, ...DEFAULT_THROTTLE });
  return (req, res, next) => {
    const remote = req.socket.remoteAddress;
    if (token === undefined) {
      if (isLoopback(remote)) return next();
      return sendError(req, res, log, new ControlError('FORBIDDEN', LOOPBACK_ONLY));
    }
    const throttled = throttle.check(remote, undefined);
    if (throttled) {
      res.setHeader('Retry-After', String(throttled.retryAfterSeconds));
      return sendError(req, res, log, new ControlError('THROTTLED', throttled.message));
    }
    const given = bearerToken(req.headers.authorization);
    if (given !== undefined && sameSecret(given, token)) return next();
    if (given !== undefined) throttle.failed(remote, undefined);
    res.setHeader('WWW-Authenticate', 'Bearer realm="bwc-emu control"');
    const message =
      given === undefined ? 'the control API needs Authorization: Bearer <token>' : 'the bearer token is not the one';
    sendError(req, res, log, new ControlError('UNAUTHORIZED', message));
  };
}
