/**
 * Server side of HTTP digest authentication (RFC 7616): challenges, stateless
 * HMAC-stamped nonces, and verification of `Authorization: Digest` credentials.
 * Knows no sockets: callers pass the header, the method and the request target,
 * so Express routes and raw WebSocket upgrade requests share it.
 */
import type { Clock } from '../base/clock';
import type { RefusalCode } from '../base/refusal-codes';
import { err, type Err, type ErrorInfo, ok, type Result } from '../base/result';
import { parseCredentials, quote } from './auth-params';
import { sameDigest } from './same-secret';
import { type DigestAlgorithm, type DigestHashName, hashOf, parseAlgorithm, responseFromHa1 } from './digest-hash';
import { hashHex } from './quick-hash';
import { Ha1Cache } from './ha1-cache';
import { NonceStamps } from './nonce-stamps';

export { DIGEST_ALGORITHMS, type DigestAlgorithm, parseAlgorithm } from './digest-hash';

/** Replay policy: `lenient` reuses a nonce freely within its lifetime (like real devices). */
export type ReplayMode = 'lenient' | 'strict';

/** How a {@link DigestServer} is set up. */
export interface DigestServerOptions {
  realm: string;
  /** One challenge is offered per algorithm, in this order. */
  algorithms: readonly DigestAlgorithm[];
  /** How long a nonce is accepted; after that the answer carries `stale=true`. */
  nonceLifetimeMs: number;
  replay: ReplayMode;
  clock: Clock;
  /** Returns the password of a user, or undefined for an unknown user. */
  passwordOf(username: string): string | undefined;
  /** HMAC key for nonces; random per server when omitted. */
  secret?: Buffer;
  /**
   * Strict mode (or nonces valid once): requests each account may have remembered at once,
   * each until its nonce expires. Past it that account is refused (429) until its oldest
   * entry expires; no other account's entries are ever dropped. Default {@link DEFAULT_REPLAY_PER_ACCOUNT}.
   */
  replayPerAccount?: number;
}

/** How a device's digest misbehaves at run time (a fault switch); every field off when absent. */
export interface DigestTuning {
  /** Nonces expire after this many ms instead of the configured lifetime. */
  nonceLifetimeMs?: number;
  /** `false`: an expired nonce is refused without `stale=true`, like a wrong password. */
  stale?: boolean;
  /** Each nonce is accepted for one request only. */
  nonceOnce?: boolean;
}

/** Why digest credentials were refused (codes of the one catalogue, base/refusal-codes). */
export type DigestRefusalCode = Extract<
  RefusalCode,
  | 'MALFORMED'
  | 'WRONG_SCHEME'
  | 'MISSING_PARAMETER'
  | 'UNSUPPORTED'
  | 'WRONG_REALM'
  | 'WRONG_URI'
  | 'BAD_NONCE'
  | 'UNKNOWN_USER'
  | 'WRONG_PASSWORD'
  | 'STALE_NONCE'
  | 'REPLAYED'
  | 'REPLAY_LIMIT'
>;

/**
 * A refusal; `stale` is true only for a correct answer to an expired nonce (`STALE_NONCE`).
 * `retryAfterSeconds` is set when the account must wait (`REPLAY_LIMIT`): answered 429.
 */
export interface DigestRefusal extends ErrorInfo<DigestRefusalCode> {
  readonly stale: boolean;
  readonly retryAfterSeconds?: number;
}

/** Outcome of a verification: the user name, or why not. */
export type DigestVerdict = Result<string, DigestRefusal>;

const REQUIRED = ['username', 'realm', 'nonce', 'uri', 'response', 'qop', 'nc', 'cnonce'] as const;
const NC = /^[0-9a-fA-F]{8}$/;
/** Default bound on remembered (nonce, cnonce, nc) triples per account in strict mode. */
export const DEFAULT_REPLAY_PER_ACCOUNT = 20_000;

/** The requests one account has remembered: key -> expiry of its nonce, and the earliest expiry. */
interface SeenOfAccount {
  readonly keys: Map<string, number>;
  /** No entry expires before this: a full table is not scanned again until then. */
  nextExpiry: number;
}

/** No digest fault: what every server starts with. */
const NO_TUNING: Readonly<DigestTuning> = Object.freeze({});

/** Issues challenges and verifies digest credentials for one realm. */
export class DigestServer {
  private readonly nonces: NonceStamps;
  /** HA1 of each account, so that a check hashes a password once, not per request. */
  private readonly ha1s: Ha1Cache;
  /** Each challenge's text before and after its nonce, per offered algorithm. */
  private readonly challengeParts: readonly (readonly [string, string])[];
  /** Fault switches in force; none by default. */
  private tuning: Readonly<DigestTuning> = NO_TUNING;
  /** Strict mode (or nonces valid once): seen `nonce cnonce nc` keys of each account; made on the first. */
  private seen: Map<string, SeenOfAccount> | undefined = undefined;
  /** What an unknown user's response is checked against (per hash), so that it costs what a known one does. */
  private readonly noSuchUser = new Map<DigestHashName, string>();

  constructor(private readonly options: DigestServerOptions) {
    this.nonces = new NonceStamps(options.secret);
    this.ha1s = new Ha1Cache(options.realm);
    const realm = `Digest realm=${quote(options.realm)}, nonce="`;
    this.challengeParts = options.algorithms.map((algorithm) => [realm, `", algorithm=${algorithm}, qop="auth"`]);
  }

  /** Sets (or with undefined, ends) a digest fault. */
  tune(tuning: DigestTuning | undefined): void {
    this.tuning = tuning ?? NO_TUNING;
  }

  /** A new nonce secret, as after a reboot: every nonce issued before is unknown from now on. */
  renewSecret(): void {
    this.nonces.renew();
    this.seen?.clear();
  }

  /** The realm challenges carry. */
  get realm(): string {
    return this.options.realm;
  }

  /** One `WWW-Authenticate` value per configured algorithm, each with a fresh nonce. */
  challenges(stale = false): string[] {
    const now = this.options.clock.now();
    return this.challengeParts.map(
      ([before, after]) => `${before}${this.nonces.issue(now)}${after}${stale ? ', stale=true' : ''}`,
    );
  }

  /**
   * Checks credentials against the request. `requestTarget` is the original
   * request-target (path and query) that the `uri` parameter must equal.
   */
  verify(authorization: string, method: string, requestTarget: string): DigestVerdict {
    const parsed = parseCredentials(authorization);
    if (!parsed.ok) return reject('MALFORMED', `malformed Authorization header: ${parsed.error.message}`);
    const { scheme, params } = parsed.value;
    if (scheme.toLowerCase() !== 'digest') return reject('WRONG_SCHEME', `scheme ${scheme} is not Digest`);
    const missing = REQUIRED.filter((name) => !params.has(name));
    if (missing.length > 0) return reject('MISSING_PARAMETER', `digest credentials lack ${missing.join(', ')}`);
    const get = (name: (typeof REQUIRED)[number]): string => params.get(name) as string;

    const algorithm = parseAlgorithm(params.get('algorithm') ?? 'MD5');
    if (!algorithm || !this.options.algorithms.includes(algorithm)) {
      return reject(
        'UNSUPPORTED',
        `algorithm ${params.get('algorithm')} is not offered (offered: ${this.options.algorithms.join(', ')})`,
      );
    }
    if (params.get('userhash') === 'true') return reject('UNSUPPORTED', 'userhash is not supported');
    if (get('realm') !== this.options.realm)
      return reject('WRONG_REALM', `realm "${get('realm')}" does not match "${this.options.realm}"`);
    if (get('uri') !== requestTarget)
      return reject('WRONG_URI', `digest uri "${get('uri')}" does not match the request target "${requestTarget}"`);
    if (get('qop') !== 'auth') return reject('UNSUPPORTED', `qop "${get('qop')}" is not supported (only auth)`);
    if (!NC.test(get('nc'))) return reject('MALFORMED', `nc "${get('nc')}" is not 8 hex digits`);
    const issuedAt = this.nonces.issuedAt(get('nonce'));
    if (issuedAt === undefined) return reject('BAD_NONCE', 'nonce was not issued by this device');

    const username = get('username');
    const password = this.options.passwordOf(username);
    const hash = hashOf(algorithm);
    // An unknown user is checked against a value no answer matches, at the cost of a known one.
    const ha1 = password === undefined ? this.unknownUserHa1(hash) : this.ha1s.ha1(hash, username, password);
    const expected = responseFromHa1(algorithm, ha1, {
      method,
      uri: get('uri'),
      nonce: get('nonce'),
      nc: get('nc'),
      cnonce: get('cnonce'),
      qop: 'auth',
    });
    const matches = sameDigest(get('response').toLowerCase(), expected);
    if (password === undefined) return reject('UNKNOWN_USER', `unknown user "${username}"`);
    if (!matches) return reject('WRONG_PASSWORD', `wrong password for user "${username}"`);

    const expiresAt = issuedAt + (this.tuning.nonceLifetimeMs ?? this.options.nonceLifetimeMs);
    const now = this.options.clock.now();
    if (now >= expiresAt)
      return err({ code: 'STALE_NONCE', message: 'nonce expired', stale: this.tuning.stale ?? true });
    if (this.tuning.nonceOnce) {
      const fresh = this.remember(username, `once ${get('nonce')}`, expiresAt, now);
      if (fresh !== true) return fresh;
    }
    if (this.options.replay === 'strict') {
      const fresh = this.remember(
        username,
        `${get('nonce')} ${get('cnonce')} ${get('nc').toLowerCase()}`,
        expiresAt,
        now,
      );
      if (fresh !== true) return fresh;
    }
    return ok(username);
  }

  /**
   * The HA1 an unknown user's answer is compared with, kept like a known account's so that the
   * check costs the same; the user is refused whatever the comparison says.
   */
  private unknownUserHa1(hash: DigestHashName): string {
    let value = this.noSuchUser.get(hash);
    if (value === undefined) this.noSuchUser.set(hash, (value = hashHex(hash, '\u0000no such user')));
    return value;
  }

  /**
   * Records a request of `username`: true when new, else the refusal (seen already; or the
   * account holds its share of entries, all of live nonces). Only that account's expired
   * entries are ever dropped, so no account can flush another's.
   */
  private remember(username: string, key: string, expiresAt: number, now: number): true | Err<DigestRefusal> {
    const seen = (this.seen ??= new Map<string, SeenOfAccount>());
    let mine = seen.get(username);
    if (!mine) seen.set(username, (mine = { keys: new Map(), nextExpiry: Number.POSITIVE_INFINITY }));
    if (mine.keys.has(key)) {
      if (key.startsWith('once '))
        return err({
          code: 'STALE_NONCE',
          message: 'nonce already used (this device accepts each nonce once)',
          stale: true,
        });
      const nc = key.slice(key.lastIndexOf(' ') + 1);
      return reject('REPLAYED', `replayed request: nc ${nc} was already used with this nonce and cnonce`);
    }
    const limit = this.options.replayPerAccount ?? DEFAULT_REPLAY_PER_ACCOUNT;
    if (mine.keys.size >= limit && now >= mine.nextExpiry) forgetExpired(mine, now);
    if (mine.keys.size >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((mine.nextExpiry - now) / 1000));
      return err({
        code: 'REPLAY_LIMIT',
        message: `user "${username}" made ${mine.keys.size} requests with live nonces; replay protection remembers at most ${limit} per user: retry in ${retryAfterSeconds} s`,
        stale: false,
        retryAfterSeconds,
      });
    }
    mine.keys.set(key, expiresAt);
    if (expiresAt < mine.nextExpiry) mine.nextExpiry = expiresAt;
    return true;
  }
}

/** Drops an account's expired entries (one scan, only when its table is full) and notes the next expiry. */
function forgetExpired(mine: SeenOfAccount, now: number): void {
  let next = Number.POSITIVE_INFINITY;
  for (const [key, expiresAt] of mine.keys) {
    if (expiresAt <= now) mine.keys.delete(key);
    else if (expiresAt < next) next = expiresAt;
  }
  mine.nextExpiry = next;
}

function reject(code: DigestRefusalCode, message: string): Err<DigestRefusal> {
  return err({ code, message, stale: false });
}
