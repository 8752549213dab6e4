/**
 * Short-lived, single-use session tokens for the event stream (`wssession.cgi`):
 * a client that cannot do digest on the WebSocket handshake fetches one with
 * digest over HTTP and passes it as `?wssession=TOKEN`.
 */
import type { Clock } from '../base/clock';
import { randomString } from '../base/random';
import { type ErrorInfo, fail, ok, type Result } from '../base/result';

/** Why a token was refused: the code, and `session token <code>` as the message. */
export type TokenRefusal = ErrorInfo<'unknown' | 'expired' | 'reused'>;

/** Outcome of {@link SessionTokens.consume}: the user the token was issued to, or why it is refused. */
export type TokenVerdict = Result<string, TokenRefusal>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Tokens waiting at once; past it the oldest ones are forgotten (bounded memory). */
const MAX_LIVE = 10_000;

/** Issues and consumes tokens; valid for `lifetimeMs` from issue, usable once. */
export class SessionTokens {
  /** Made on the first token: most devices of a fleet never issue one. */
  private live: Map<string, { username: string; expiresAt: number }> | undefined = undefined;
  /** Consumed tokens, kept until they would have expired, to tell "reused" from "unknown". */
  private used: Map<string, number> | undefined = undefined;

  constructor(
    private readonly clock: Clock,
    readonly lifetimeMs = 15_000,
  ) {}

  /** A new token for `username`: 32 letters and digits (never digits only). */
  issue(username: string): string {
    this.prune();
    const token = randomToken();
    (this.live ??= new Map()).set(token, { username, expiresAt: this.clock.now() + this.lifetimeMs });
    return token;
  }

  /** Uses a token up: valid only once and only before it expires. */
  consume(token: string): TokenVerdict {
    const now = this.clock.now();
    const entry = this.live?.get(token);
    if (!entry) return refuse((this.used?.get(token) ?? 0) > now ? 'reused' : 'unknown');
    this.live?.delete(token);
    if (now >= entry.expiresAt) return refuse('expired');
    (this.used ??= new Map()).set(token, entry.expiresAt);
    return ok(entry.username);
  }

  /** Revokes every token issued so far: none of them opens a stream any more. */
  revokeAll(): void {
    this.live?.clear();
    this.used?.clear();
  }

  /** Number of tokens issued and neither used nor expired. */
  pending(): number {
    this.prune();
    return this.live?.size ?? 0;
  }

  private prune(): void {
    const now = this.clock.now();
    const { live, used } = this;
    if (live) {
      for (const [token, { expiresAt }] of live) if (expiresAt <= now) live.delete(token);
      while (live.size >= MAX_LIVE) live.delete(live.keys().next().value as string);
    }
    if (used) {
      for (const [token, expiresAt] of used) if (expiresAt <= now) used.delete(token);
      while (used.size >= MAX_LIVE) used.delete(used.keys().next().value as string);
    }
  }
}

function refuse(code: TokenRefusal['code']): TokenVerdict {
  return fail(code, `session token ${code}`);
}

function randomToken(): string {
  const token = randomString(32, ALPHABET);
  // Digits only would lose precision in a client that parses the body as JSON.
  return /^[0-9]+$/.test(token) ? `t${token.slice(1)}` : token;
}
