/**
 * Short-lived, single-use session tokens for the event stream (`wssession.cgi`):
 * a client that cannot do digest on the WebSocket handshake fetches one with
 * digest over HTTP and passes it as `?wssession=TOKEN`.
 *
 * Pending tokens are bounded per account, not in one shared table: an account that
 * fetches tokens without using them is refused more once it holds its share, and no
 * other account's pending token is ever pushed out by it.
 *
 * A token issued to one of the emulator's own clients (the dashboard) is remembered as
 * theirs until it expires, so the session it opens (or the handshake it fails) is journaled
 * as theirs too.
 */
import type { ClientVia } from '../base/client-tag';
import type { Clock } from '../base/clock';
import { ExpiryQueue } from '../base/expiry-queue';
import type { ByteSource } from '../base/random';
import type { TokenRefusalKind } from '../base/refusal-codes';
import { err, type ErrorInfo, ok, type Result } from '../base/result';
import { pooledRandomBytes } from './random-pool';
import {
  alteredCandidate,
  alterationOf,
  DEFAULT_SESSION_TOKEN_FORMAT,
  drawToken,
  type SessionTokenFormat,
  TOKEN_ALTERATIONS,
  type TokenAlteration,
} from './token-forms';

/**
 * Why a token was refused: the code, and `session token <code>` as the message; `number` is the
 * token's (see {@link TokenGrant.number}) when the device still knows it (expired, reused), or
 * for an unknown one that a pending token sent back altered, that token's (the message says how).
 * Each code has its journal code in base/refusal-codes' `TOKEN_REFUSAL_CODES`.
 */
export type TokenRefusal = ErrorInfo<TokenRefusalKind> & {
  readonly number?: number;
  /** For an unknown token that is an issued one sent back altered: how (`number` is the issued one's). */
  readonly altered?: TokenAlteration;
};

/** Whether a token is valid: the user it was issued to, or why it is refused (what `consumeToken` answers). */
export type TokenVerdict = Result<string, TokenRefusal>;

/** Whom a token was issued to: the user, and the emulator client that asked for it (undefined for a client). */
export interface TokenGrant {
  readonly username: string;
  readonly via: ClientVia | undefined;
  /**
   * The token's number on its device, from 1 in issue order: the journal names a token by it
   * (its fetch, the session it opened, a refused reuse), never by its value.
   */
  readonly number: number;
}

/** Outcome of {@link SessionTokens.consume}: whom the token was issued to, or why it is refused. */
export type TokenUse = Result<TokenGrant, TokenRefusal>;

/** An account holds its share of pending tokens: none is issued until `retryAfterSeconds` from now. */
export interface TokenLimit extends ErrorInfo<'limit'> {
  readonly retryAfterSeconds: number;
}

/** Outcome of {@link SessionTokens.issue}: the token, or the account's limit. */
export type TokenIssue = Result<string, TokenLimit>;

/** Consumed tokens remembered at most (for the "reused" message only). */
const MAX_USED = 100_000;

/** Default pending tokens per account: far above what a client needs (one per connection attempt). */
export const DEFAULT_TOKENS_PER_ACCOUNT = 1_000;

/** A pending token: whose, and until when. */
interface Pending {
  readonly grant: TokenGrant;
  readonly expiresAt: number;
}

/**
 * Issues and consumes tokens; valid for `lifetimeMs` from issue, usable once. Every token
 * lives equally long, so issue order is expiry order: one {@link ExpiryQueue} drops expired
 * tokens, pending or used, from the front, never by a scan.
 */
export class SessionTokens {
  /** Made on the first token: most devices of a fleet never issue one. */
  private live: Map<string, Pending> | undefined = undefined;
  /** Every token issued and not yet dropped, in issue (= expiry) order. */
  private expiries: ExpiryQueue<string> | undefined = undefined;
  /** Pending tokens of each account, in issue order (the first is the next to expire). */
  private byAccount: Map<string, Set<string>> | undefined = undefined;
  /** Consumed tokens until they would have expired, to tell "reused" from "unknown" (the pending entry, kept as it was). */
  private used: Map<string, Pending> | undefined = undefined;
  /** Tokens issued so far: the last one's number. */
  private issued = 0;
  /** Where tokens draw their characters from, made on the first token. */
  private randomBytes: ByteSource | undefined = undefined;
  /**
   * Tokens of the emulator's own clients until they expire, used or not, so a refused handshake
   * with one is theirs too: made on the first such token.
   */
  private viaOfToken: Map<string, ClientVia> | undefined = undefined;

  constructor(
    private readonly clock: Clock,
    readonly lifetimeMs = 15_000,
    readonly perAccount = DEFAULT_TOKENS_PER_ACCOUNT,
    readonly format: SessionTokenFormat = DEFAULT_SESSION_TOKEN_FORMAT,
  ) {}

  /**
   * A new token for `username` in the device's {@link format} (./token-forms), unless the account
   * holds its share; `via` when one of the emulator's own clients asks (see {@link viaOf}).
   */
  issue(username: string, via?: ClientVia): TokenIssue {
    this.prune();
    const now = this.clock.now();
    const mine = (this.byAccount ??= new Map<string, Set<string>>()).get(username) ?? new Set<string>();
    if (mine.size >= this.perAccount) {
      const oldest = this.live?.get(mine.values().next().value as string);
      const waitMs = Math.max(0, (oldest?.expiresAt ?? now) - now);
      return err({
        code: 'limit',
        message: `too many pending session tokens: user "${username}" holds ${mine.size}, at most ${this.perAccount} (each expires ${this.lifetimeMs / 1000} s after issue or when used)`,
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
    const token = drawToken(this.format, (this.randomBytes ??= pooledRandomBytes()));
    const expiresAt = now + this.lifetimeMs;
    const grant = { username, via, number: ++this.issued };
    (this.live ??= new Map<string, Pending>()).set(token, { grant, expiresAt });
    (this.expiries ??= new ExpiryQueue()).push(token, expiresAt);
    mine.add(token);
    this.byAccount.set(username, mine);
    if (via !== undefined) (this.viaOfToken ??= new Map<string, ClientVia>()).set(token, via);
    return ok(token);
  }

  /**
   * The emulator client `token` was issued to, until it expires (used or not, so a refused
   * reuse is theirs too), for a handshake refused before or at its token; undefined for the
   * client under test's and for unknown tokens. One property read while no such token was
   * ever issued. A token used up tells its grant itself ({@link consume}).
   */
  viaOf(token: string): ClientVia | undefined {
    return this.viaOfToken?.get(token);
  }

  /** The number of a pending token (see {@link TokenGrant.number}); undefined for one used, expired or unknown. */
  numberOf(token: string): number | undefined {
    return this.live?.get(token)?.grant.number;
  }

  /** Uses a token up: valid only once and only before it expires; whom it was issued to. */
  consume(token: string): TokenUse {
    const now = this.clock.now();
    const entry = this.live?.get(token);
    if (!entry) {
      const used = this.used?.get(token);
      return used && used.expiresAt > now ? refuse('reused', used.grant.number) : this.unknown(token);
    }
    this.forget(token, entry);
    if (now >= entry.expiresAt) return refuse('expired', entry.grant.number);
    const used = (this.used ??= new Map<string, Pending>());
    // Past the bound a use is not remembered: a later attempt reads "unknown", not "reused"; still refused.
    if (used.size < MAX_USED) used.set(token, entry);
    return ok(entry.grant);
  }

  /**
   * The refusal of a token the device does not know; when it is a pending token sent back
   * altered (quoted, rounded as a double, in exponent form), it names that token and how. Looks
   * through the pending tokens only for a sent text that could be one altered (quoted or a number).
   */
  private unknown(sent: string): Result<never, TokenRefusal> {
    const candidate = alteredCandidate(sent);
    if (candidate && this.live)
      for (const [token, { grant }] of this.live) {
        const altered = alterationOf(candidate, token);
        if (altered === undefined) continue;
        const message = `session token unknown: token ${grant.number} sent back ${TOKEN_ALTERATIONS[altered]}`;
        return err({ code: 'unknown', message, number: grant.number, altered });
      }
    return refuse('unknown');
  }

  /** Revokes every token issued so far: none of them opens a stream any more. */
  revokeAll(): void {
    this.live?.clear();
    this.byAccount?.clear();
    this.used?.clear();
    this.expiries?.clear();
    this.viaOfToken?.clear();
  }

  /** Number of tokens issued and neither used nor expired. */
  pending(): number {
    this.prune();
    return this.live?.size ?? 0;
  }

  /** Drops expired tokens, pending or used: the number dropped plus one look. */
  private prune(): void {
    this.expiries?.dropExpired(this.clock.now(), (token) => {
      const entry = this.live?.get(token);
      if (entry) this.forget(token, entry);
      else this.used?.delete(token);
      this.viaOfToken?.delete(token);
    });
  }

  private forget(token: string, entry: Pending): void {
    this.live?.delete(token);
    const { username } = entry.grant;
    const mine = this.byAccount?.get(username);
    mine?.delete(token);
    if (mine?.size === 0) this.byAccount?.delete(username);
  }
}

function refuse(code: TokenRefusal['code'], number?: number): Result<never, TokenRefusal> {
  const message = `session token ${code}`;
  return err(number === undefined ? { code, message } : { code, message, number });
}
