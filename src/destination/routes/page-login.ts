/**
 * The login of the destination's pages: Basic or Digest (MD5, SHA-256) with a
 * destination login and its key as the password, as a browser sends it. A Swift token
 * does not open the pages: a browser cannot send one on a link.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Authenticator, requestTarget } from '../../auth/authenticator';
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
  });
  return (req, res) => {
    const verdict = authenticator.verify(req);
    const user = verdict.ok ? ctx.options.users.find((u) => u.user === verdict.value.account?.name) : undefined;
    if (verdict.ok && user) return { user: user.user, account: user.account };
    const reason = verdict.ok ? 'no such login' : verdict.error.message;
    ctx.log.info({ path: requestTarget(req), reason }, `${what}: login refused`);
    const answer = authenticator.unauthorized(req, !verdict.ok && verdict.error.stale);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return undefined;
  };
}
