/**
 * Short-lived, single-use session tokens for the event stream (`wssession.cgi`):
 * a client that cannot do digest on the WebSocket handshake fetches one with
 * digest over HTTP and passes it as `?wssession=TOKEN`.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../base/clock';
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
  private readonly live = new Map<string, { username: string; expiresAt: number }>();
  /** Consumed tokens, kept until they would have expired, to tell "reused" from "unknown". */
  private readonly used = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    readonly lifetimeMs = 15_000,
  ) {}

  /** A new token for `username`: 32 letters and digits (never digits only). */
  issue(username: string): string {
    this.prune();
    const token = randomToken();
    this.live.set(token, { username, expiresAt: this.clock.now() + this.lifetimeMs });
    return token;
  }

  /** Uses a token up: valid only once and only before it expires. */
  consume(token: string): TokenVerdict {
    const now = this.clock.now();
    const entry = this.live.get(token);
    if (!entry) return refuse((this.used.get(token) ?? 0) > now ? 'reused' : 'unknown');
    this.live.delete(token);
    if (now >= entry.expiresAt) return refuse('expired');
    this.used.set(token, entry.expiresAt);
    return ok(entry.username);
  }

  /** Revokes every token issued so far: none of them opens a stream any more. */
  revokeAll(): void {
    this.live.clear();
    this.used.clear();
  }

  /** Number of tokens issued and neither used nor expired. */
  pending(): number {
    this.prune();
    return this.live.size;
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [token, { expiresAt }] of this.live) if (expiresAt <= now) this.live.delete(token);
    for (const [token, expiresAt] of this.used) if (expiresAt <= now) this.used.delete(token);
    while (this.live.size >= MAX_LIVE) this.live.delete(this.live.keys().next().value as string);
    while (this.used.size >= MAX_LIVE) this.used.delete(this.used.keys().next().value as string);
  }
}

function refuse(code: TokenRefusal['code']): TokenVerdict {
  return fail(code, `session token ${code}`);
}

function randomToken(): string {
  const bytes = randomBytes(32);
  let token = '';
  for (const byte of bytes) token += ALPHABET[byte % ALPHABET.length];
  // Digits only would lose precision in a client that parses the body as JSON.
  return /^[0-9]+$/.test(token) ? `t${token.slice(1)}` : token;
}
