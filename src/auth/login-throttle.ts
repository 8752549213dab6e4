/**
 * Failed-login throttling by source, as nginx `limit_req` and fail2ban do it (Apache and nginx
 * never lock an account): after too many wrong passwords from one remote address within a
 * window, every login from that address is refused (429 with `Retry-After`) until the window
 * ends, without checking it; after fewer naming one user from one address, that address's
 * logins as that user are. So a password cannot be guessed at wire speed from one address,
 * and strangers failing from other addresses never refuse a user's right password: an address
 * that has not failed is never throttled (issue 29). Counting is per fixed window, O(1) per
 * attempt; windows that ended are dropped from the front of an expiry queue (amortised O(1)).
 */
import type { Clock } from '../base/clock';
import { ExpiryQueue } from '../base/expiry-queue';
import { EmulatorError } from '../base/errors';
import type { Logger } from '../base/log';
import { LogSummary } from '../base/log-summary';
import { wholeNumberOption } from '../base/option-checks';

/** At most `failures` wrong logins per `windowMs`; `failures: 0` turns the rule off. */
export interface ThrottleRule {
  readonly failures: number;
  readonly windowMs: number;
}

/** How a {@link LoginThrottle} counts. */
export interface LoginThrottleOptions {
  clock: Clock;
  /** Wrong logins from one remote address, whatever user they name. */
  perRemote: ThrottleRule;
  /** Wrong logins from one remote address naming one user: the guessed user is stopped first. */
  perRemoteUser: ThrottleRule;
}

/** The rules of a {@link LoginThrottle}, without its clock. */
export type ThrottleRules = Pick<LoginThrottleOptions, 'perRemote' | 'perRemoteUser'>;

/**
 * Defaults: far above a person mistyping or a client retrying, far below a password guesser's
 * rate; an address that fails for one user may still log in its other users a while.
 */
export const DEFAULT_THROTTLE: Readonly<ThrottleRules> = Object.freeze({
  perRemote: { failures: 20, windowMs: 10_000 },
  perRemoteUser: { failures: 10, windowMs: 10_000 },
});

/**
 * The rules as options give them: wrong logins per remote address, and per remote address
 * and user, per window; 0 turns one off.
 */
export interface ThrottleSettings {
  failuresPerRemote?: number;
  failuresPerRemoteUser?: number;
  windowMs?: number;
}

/** Largest failure count a rule may allow. */
export const MAX_THROTTLE_FAILURES = 1_000_000;
/** Longest window a rule may have (a day). */
export const MAX_THROTTLE_WINDOW_MS = 86_400_000;

const THROTTLE_KEYS: readonly string[] = ['failuresPerRemote', 'failuresPerRemoteUser', 'windowMs'];

/** Why the per-user rule is gone, for an option that still names it. */
export const PER_USER_RETIRED =
  'wrong logins are no longer counted per user from any address (strangers could lock the user out); ' +
  'they are counted per remote address and per remote address and user';

/**
 * The log of refused logins: {@link LOGGED_REFUSALS} per {@link REFUSAL_LOG_INTERVAL_MS} one by
 * one, the rest counted by remote address into one summary line per interval.
 */
export function refusalLog(log: Logger, clock: Clock, message: string): LogSummary {
  return new LogSummary(log, clock, { message, intervalMs: REFUSAL_LOG_INTERVAL_MS, burst: LOGGED_REFUSALS });
}

/** Refused logins logged one by one per interval. */
export const LOGGED_REFUSALS = 10;
/** The interval of {@link refusalLog}. */
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** Checks `settings` (`BAD_OPTION` for a value out of range) and fills in {@link DEFAULT_THROTTLE}. */
export function throttleRules(settings: ThrottleSettings = {}, name = 'loginThrottle'): ThrottleRules {
  const unknown = Object.keys(settings).filter((key) => !THROTTLE_KEYS.includes(key));
  if (unknown.length > 0)
    throw new EmulatorError(
      'BAD_OPTION',
      `${name} has unknown field(s) ${unknown.join(', ')}; known: ${THROTTLE_KEYS.join(', ')}` +
        (unknown.includes('failuresPerUser') ? ` (failuresPerUser: ${PER_USER_RETIRED})` : ''),
    );
  const windowMs = wholeNumberOption(
    `${name}.windowMs`,
    settings.windowMs ?? DEFAULT_THROTTLE.perRemote.windowMs,
    1,
    MAX_THROTTLE_WINDOW_MS,
  );
  const count = (key: 'failuresPerRemote' | 'failuresPerRemoteUser', fallback: number): number =>
    wholeNumberOption(`${name}.${key}`, settings[key] ?? fallback, 0, MAX_THROTTLE_FAILURES);
  return {
    perRemote: { failures: count('failuresPerRemote', DEFAULT_THROTTLE.perRemote.failures), windowMs },
    perRemoteUser: { failures: count('failuresPerRemoteUser', DEFAULT_THROTTLE.perRemoteUser.failures), windowMs },
  };
}

/** A throttled attempt: who is blocked, and for how long. */
export interface Throttled {
  readonly by: 'remote' | 'remote-user';
  readonly retryAfterSeconds: number;
  readonly message: string;
}

/** Most keys kept per table; past it the oldest window is forgotten (bounded memory under address spraying). */
const MAX_KEYS = 100_000;

/**
 * Characters of a user name a (remote, user) key keeps: names sent by a guesser may be as long
 * as a header, and longer ones sharing their start only share a window (that address's).
 */
const MAX_KEYED_USER = 128;

/** One key's current window. */
interface Window {
  start: number;
  failures: number;
}

/**
 * The windows of one rule, by key (addresses, or users). Windows start in the order they
 * are opened and all last `windowMs`, so an {@link ExpiryQueue} drops those that ended.
 */
class Windows {
  private readonly byKey = new Map<string, Window>();
  private readonly ends = new ExpiryQueue<string>();

  constructor(readonly rule: ThrottleRule) {}

  /** True when no window is open: a caller can skip working out its key. */
  get empty(): boolean {
    return this.byKey.size === 0;
  }

  /** Milliseconds `key` stays blocked, or undefined when it is not. */
  blocked(key: string, now: number): number | undefined {
    if (this.rule.failures <= 0) return undefined;
    this.forgetEnded(now);
    const window = this.byKey.get(key);
    if (!window || window.failures < this.rule.failures) return undefined;
    return window.start + this.rule.windowMs - now;
  }

  /** Adds a failure to `key`'s window, opening a new one when the last ended. */
  count(key: string, now: number): void {
    if (this.rule.failures <= 0) return;
    this.forgetEnded(now);
    const window = this.byKey.get(key);
    if (window) {
      window.failures++;
      return;
    }
    // Bounded memory under address spraying: the oldest open window is forgotten.
    while (this.byKey.size >= MAX_KEYS) {
      const oldest = this.ends.shift();
      if (!oldest) break;
      this.forget(oldest.key, oldest.at);
    }
    this.byKey.set(key, { start: now, failures: 1 });
    this.ends.push(key, now + this.rule.windowMs);
  }

  private forgetEnded(now: number): void {
    this.ends.dropExpired(now, (key, at) => this.forget(key, at));
  }

  /** Deletes `key`'s window if it is the one that ends at `at` (not a later one of the same key). */
  private forget(key: string, at: number): void {
    const window = this.byKey.get(key);
    if (window && window.start + this.rule.windowMs === at) this.byKey.delete(key);
  }
}

/**
 * Counts wrong logins per remote address and per remote address and user, and says when to
 * refuse. Nothing is counted per user alone, so no address can throttle another's logins.
 */
export class LoginThrottle {
  private readonly remotes: Windows;
  private readonly remoteUsers: Windows;

  constructor(private readonly options: LoginThrottleOptions) {
    this.remotes = new Windows(options.perRemote);
    this.remoteUsers = new Windows(options.perRemoteUser);
  }

  /**
   * True while some address has a window open (windows that ended may still count until the
   * next check drops them): only then is an attempt worth {@link check}ing, so a caller works
   * out the address (a system call) and the user (a header parsed) only then.
   */
  get active(): boolean {
    return !this.remotes.empty || !this.remoteUsers.empty;
  }

  /**
   * Whether an attempt from `remote` naming `user` is refused now; undefined lets it be checked.
   * An attempt whose address is unknown (its socket already gone) is never refused.
   */
  check(remote: string | undefined, user: string | undefined): Throttled | undefined {
    if (remote === undefined) return undefined;
    const now = this.options.clock.now();
    const byRemote = this.remotes.empty ? undefined : this.remotes.blocked(remote, now);
    if (byRemote !== undefined)
      return throttled('remote', byRemote, `too many failed logins from ${remote}`, this.options.perRemote);
    const byPair =
      user === undefined || this.remoteUsers.empty ? undefined : this.remoteUsers.blocked(pairKey(remote, user), now);
    if (byPair !== undefined)
      return throttled(
        'remote-user',
        byPair,
        `too many failed logins for user "${user}" from ${remote}`,
        this.options.perRemoteUser,
      );
    return undefined;
  }

  /** Counts a wrong password (or unknown user) from `remote` naming `user`; nothing without an address. */
  failed(remote: string | undefined, user: string | undefined): void {
    if (remote === undefined) return;
    const now = this.options.clock.now();
    this.remotes.count(remote, now);
    if (user !== undefined) this.remoteUsers.count(pairKey(remote, user), now);
  }
}

/** The key of a (remote address, user) window: an address holds no line feed, so keys never collide. */
function pairKey(remote: string, user: string): string {
  return `${remote}\n${user.length > MAX_KEYED_USER ? user.slice(0, MAX_KEYED_USER) : user}`;
}

function throttled(by: Throttled['by'], waitMs: number, what: string, rule: ThrottleRule): Throttled {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    by,
    retryAfterSeconds,
    message: `${what}: at most ${rule.failures} per ${rule.windowMs / 1000} s; retry in ${retryAfterSeconds} s`,
  };
}
