/**
 * `GET /auth/v1.0`: Swift v1 auth, as tempauth answers it. The key may come as
 * `X-Auth-Key` (tempauth, swiftclient, rclone) or `Auth-Key` (the spec); the answer
 * carries the token twice, its lifetime, and the storage URL clients must use as given.
 *
 * A refused login costs little, so a flood of them does not slow the others (issue 29): one
 * hash of the key given (the users' keys are kept hashed), no log line past the refusal log's
 * share, no disk, and memory only within the throttle's bounds. The handler needs nothing of
 * Express, so a plain login skips it (destination-app.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KnownSecret } from '../../auth/same-secret';
import type { DestinationContext } from '../destination-context';
import type { ResolvedUser } from '../destination-options';
import { sendError } from './swift-response';

/** The auth route's handler, on Node's own request and response. */
export type AuthHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The auth route's handler. */
export function authRoute(ctx: DestinationContext): AuthHandler {
  const logins = new Map<string, { user: ResolvedUser; key: KnownSecret }>(
    ctx.options.users.map((user) => [user.user, { user, key: new KnownSecret(user.key) }]),
  );
  // What an unknown login's key is compared with, so that the answer takes as long either way.
  const noSuchLogin = new KnownSecret('\u0000no such login');
  return (req, res) => {
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const login = header('x-auth-user') ?? header('x-storage-user');
    const key = header('x-auth-key') ?? header('auth-key') ?? header('x-storage-pass');
    const remote = req.socket.remoteAddress;
    if (!login || key === undefined) {
      if (ctx.loginLog.admit(remote))
        ctx.log.info({ login }, 'auth refused: X-Auth-User and X-Auth-Key (or Auth-Key) are required');
      sendError(req, res, 401, 'Unauthorized: send X-Auth-User and X-Auth-Key (or Auth-Key)');
      return;
    }
    // Past the wrong-key limit an address (or its guesses at a login) is refused unchecked until its window ends.
    const throttled = ctx.loginThrottle.check(remote, login);
    if (throttled) {
      if (ctx.loginLog.admit(remote)) ctx.log.warn({ login, remote }, `auth refused: ${throttled.message}`);
      res.setHeader('Retry-After', String(throttled.retryAfterSeconds));
      sendError(req, res, 429, `Too Many Requests: ${throttled.message}`);
      return;
    }
    const known = logins.get(login);
    const user = known?.user;
    const keyMatches = (known?.key ?? noSuchLogin).matches(key);
    if (!user || !keyMatches) {
      ctx.loginThrottle.failed(remote, login);
      if (ctx.loginLog.admit(remote))
        ctx.log.warn({ login, remote }, user ? 'auth refused: wrong key' : 'auth refused: unknown user');
      sendError(req, res, 401, 'Unauthorized: unknown user or wrong key');
      return;
    }
    const { token, expires } = ctx.tokens.issue({ account: user.account, user: user.user, readOnly: user.readOnly });
    const base =
      ctx.options.publicUrl ?? `${ctx.scheme}://${req.headers.host ?? `${ctx.options.host}:${req.socket.localPort}`}`;
    const storageUrl = `${base}/v1/${user.account}`;
    const body = JSON.stringify({ storage: { default: 'local', local: storageUrl } });
    res.writeHead(200, {
      'X-Auth-Token': token,
      'X-Storage-Token': token,
      'X-Auth-Token-Expires': String(Math.max(0, Math.round((expires - ctx.options.clock.now()) / 1000))),
      'X-Storage-Url': storageUrl,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(body);
    ctx.log.info({ user: user.user, account: user.account }, 'token issued');
  };
}
