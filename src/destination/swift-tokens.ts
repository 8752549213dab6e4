/**
 * The auth tokens of `/auth/v1.0`: random, tied to one user of one account, valid
 * for a lifetime (15 minutes by default, like the real example server) on the
 * injected clock. Unknown and expired tokens are told apart for the log only; both
 * answer 401.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../base/clock';
import { type ErrorInfo, fail, ok, type Result } from '../base/result';

/** Who a token belongs to. */
export interface TokenOwner {
  account: string;
  user: string;
  readOnly: boolean;
}

/** Why a token was refused; the message is the body of the 401 answer. */
export type SwiftTokenRefusal = ErrorInfo<'missing' | 'unknown' | 'expired'>;

/** The result of {@link SwiftTokens.verify}: who the token belongs to, or why it is refused. */
export type SwiftTokenVerdict = Result<TokenOwner, SwiftTokenRefusal>;

/** Issues and checks tokens. */
export class SwiftTokens {
  private readonly tokens = new Map<string, TokenOwner & { expires: number }>();

  constructor(
    private readonly clock: Clock,
    readonly lifetimeMs: number,
  ) {}

  /** A new token for `owner`, and when it expires (epoch ms). */
  issue(owner: TokenOwner): { token: string; expires: number } {
    this.purge();
    const token = `AUTH_tk${randomBytes(16).toString('hex')}`;
    const expires = this.clock.now() + this.lifetimeMs;
    this.tokens.set(token, { ...owner, expires });
    return { token, expires };
  }

  /** Checks an `X-Auth-Token` header value. */
  verify(token: string | undefined): SwiftTokenVerdict {
    if (!token) return fail('missing', 'Unauthorized: X-Auth-Token is required');
    const entry = this.tokens.get(token);
    if (!entry) return refuse('unknown');
    if (this.clock.now() >= entry.expires) {
      this.tokens.delete(token);
      return refuse('expired');
    }
    return ok({ account: entry.account, user: entry.user, readOnly: entry.readOnly });
  }

  /** Forgets every token (clients must log in again), as after a restart. */
  revokeAll(): void {
    this.tokens.clear();
  }

  private purge(): void {
    const now = this.clock.now();
    for (const [token, entry] of this.tokens) if (now >= entry.expires) this.tokens.delete(token);
  }
}

function refuse(code: 'unknown' | 'expired'): SwiftTokenVerdict {
  return fail(code, `Unauthorized: the token is ${code}; authenticate again`);
}
