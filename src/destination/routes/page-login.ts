/**
 * The login of the destination's pages: Digest (MD5, SHA-256) or Basic with a
 * destination login and its key as the password, as a browser sends it. Basic only over
 * HTTPS or when asked for (`basicOverHttp`): on plain HTTP it would send the key in clear.
 * A Swift token does not open the pages: a browser cannot send one on a link.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Authenticator, type RefusalInfo, requestTarget } from '../../auth/authenticator';
import type { DestinationContext } from '../destination-context';

/** Who opened a page: the login and the account it sees. */
export interface PageLogin {
  user: string;
  account: string;
}

/** Checks a page request: the login, or undefined after answering 401 with the challenges. */
export type PageLoginCheck = (req: IncomingMessage, res: ServerResponse) => PageLogin | undefined;

/**
 * The check for one destination (one set of digest nonces for all its pages); `what`
 * names the pages in the log line of a refusal.
 */
export function pageLogin(ctx: DestinationContext, what = 'recordings page'): PageLoginCheck {
  const authenticator = new Authenticator({
    mode: 'both',
    accounts: ctx.options.users.map((u) => ({ name: u.user, password: u.key, role: 'admin' as const })),
    realm: 'bwc-emu content destination',
    algorithms: ['MD5', 'SHA-256'],
    nonceLifetimeMs: 300_000,
    replay: 'lenient',
    clock: ctx.options.clock,
    plainHttp: ctx.scheme === 'http',
    basicOverHttp: ctx.options.basicOverHttp,
    log: ctx.log,
    throttle: ctx.options.loginThrottle,
  });
  return (req, res) => {
    const verdict = authenticator.verify(req);
    const user = verdict.ok ? ctx.options.users.find((u) => u.user === verdict.value.account?.name) : undefined;
    if (verdict.ok && user) return { user: user.user, account: user.account };
    const refusal: RefusalInfo = verdict.ok
      ? { code: 'UNKNOWN_USER', message: 'no such login', stale: false }
      : verdict.error;
    authenticator.logRefusal(refusal, { path: requestTarget(req) }, `${what}: login refused`, req.socket.remoteAddress);
    // 401 with the challenges, or 429 with Retry-After for an address or login past the throttle.
    const answer = authenticator.answer(req, refusal);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return undefined;
  };
}
