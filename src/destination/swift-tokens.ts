/**
 * The auth tokens of `/auth/v1.0`: random, tied to one user of one account, valid
 * for a lifetime (15 minutes by default, like the real example server) on the
 * injected clock. Unknown and expired tokens are told apart for the log only; both
 * answer 401.
 *
 * Every token gets the same lifetime, so tokens expire in the order they were issued:
 * they wait in an expiry queue, and each login drops the expired ones from its front.
 * A login costs O(1) amortized however many tokens are live (each token is queued once
 * and dropped once); scanning every token at each login made logins slow down as tokens
 * piled up (52 logins/s at 40,000 live tokens).
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../base/clock';
import { ExpiryQueue } from '../base/expiry-queue';
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
  /** Tokens in the order issued, which is expiry order. */
  private readonly queue = new ExpiryQueue<string>();

  constructor(
    private readonly clock: Clock,
    readonly lifetimeMs: number,
  ) {}

  /** Tokens held now (live, or expired and not yet dropped). */
  get size(): number {
    return this.tokens.size;
  }

  /** A new token for `owner`, and when it expires (epoch ms). */
  issue(owner: TokenOwner): { token: string; expires: number } {
    const now = this.clock.now();
    this.purge(now);
    const token = `AUTH_tk${randomBytes(16).toString('hex')}`;
    const expires = now + this.lifetimeMs;
    this.tokens.set(token, { ...owner, expires });
    this.queue.push(token, expires);
    return { token, expires };
  }

  /** Checks an `X-Auth-Token` header value. */
  verify(token: string | undefined): SwiftTokenVerdict {
    if (!token) return fail('missing', 'Unauthorized: X-Auth-Token is required');
    const entry = this.tokens.get(token);
    if (!entry) return refuse('unknown');
    if (this.clock.now() >= entry.expires) {
      // Its queue entry stays until the front reaches it: deleting twice is harmless.
      this.tokens.delete(token);
      return refuse('expired');
    }
    return ok({ account: entry.account, user: entry.user, readOnly: entry.readOnly });
  }

  /** Forgets every token (clients must log in again), as after a restart. */
  revokeAll(): void {
    this.tokens.clear();
    this.queue.clear();
  }

  /**
   * Drops the expired tokens at the front of the queue and stops at the first live one:
   * the work is the number of tokens dropped, plus one look. A clock set back can leave an
   * expired token behind a live one for a while; {@link verify} still refuses it.
   */
  private purge(now: number): void {
    this.queue.dropExpired(now, (token) => this.tokens.delete(token));
  }
}

function refuse(code: 'unknown' | 'expired'): SwiftTokenVerdict {
  return fail(code, `Unauthorized: the token is ${code}; authenticate again`);
}
