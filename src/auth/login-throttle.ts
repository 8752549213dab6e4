/**
 * Failed-login throttling: after too many wrong passwords from one remote address, or
 * for one user name, within a window, every login attempt of that address or user is
 * refused (429 with `Retry-After`) until the window ends, without checking it, so a
 * password cannot be guessed at wire speed. Counting is per fixed window, O(1) per
 * attempt; windows that ended are dropped from the front of the table (amortised O(1)).
 */
import type { Clock } from '../base/clock';
import { wholeNumberOption } from '../base/option-checks';

/** At most `failures` wrong logins per `windowMs`; `failures: 0` turns the rule off. */
export interface ThrottleRule {
  readonly failures: number;
  readonly windowMs: number;
}

/** How a {@link LoginThrottle} counts. */
export interface LoginThrottleOptions {
  clock: Clock;
  /** Wrong logins from one remote address. */
  perRemote: ThrottleRule;
  /** Wrong logins naming one user (from any address). */
  perUser: ThrottleRule;
}

/** Defaults: far above a person mistyping or a client retrying, far below a password guesser's rate. */
export const DEFAULT_THROTTLE: Readonly<Pick<LoginThrottleOptions, 'perRemote' | 'perUser'>> = Object.freeze({
  perRemote: { failures: 20, windowMs: 10_000 },
  perUser: { failures: 50, windowMs: 10_000 },
});

/** The rules as options give them: wrong logins per remote address and per user per window; 0 turns one off. */
export interface ThrottleSettings {
  failuresPerRemote?: number;
  failuresPerUser?: number;
  windowMs?: number;
}

/** Checks `settings` (`BAD_OPTION` for a value out of range) and fills in {@link DEFAULT_THROTTLE}. */
export function throttleRules(
  settings: ThrottleSettings = {},
  name = 'loginThrottle',
): Pick<LoginThrottleOptions, 'perRemote' | 'perUser'> {
  const windowMs = wholeNumberOption(
    `${name}.windowMs`,
    settings.windowMs ?? DEFAULT_THROTTLE.perRemote.windowMs,
    1,
    86_400_000,
  );
  const count = (key: 'failuresPerRemote' | 'failuresPerUser', fallback: number): number =>
    wholeNumberOption(`${name}.${key}`, settings[key] ?? fallback, 0, 1_000_000);
  return {
    perRemote: { failures: count('failuresPerRemote', DEFAULT_THROTTLE.perRemote.failures), windowMs },
    perUser: { failures: count('failuresPerUser', DEFAULT_THROTTLE.perUser.failures), windowMs },
  };
}

/** A throttled attempt: who is blocked, and for how long. */
export interface Throttled {
  readonly by: 'remote' | 'user';
  readonly retryAfterSeconds: number;
  readonly message: string;
}

/** Most keys kept per table; past it the oldest window is forgotten (bounded memory under address spraying). */
const MAX_KEYS = 100_000;

/** One key's current window. */
interface Window {
  start: number;
  failures: number;
}

/** Counts wrong logins per remote address and per user, and says when to refuse. */
export class LoginThrottle {
  private readonly remotes = new Map<string, Window>();
  private readonly users = new Map<string, Window>();

  constructor(private readonly options: LoginThrottleOptions) {}

  /** Whether an attempt from `remote` naming `user` is refused now; undefined lets it be checked. */
  check(remote: string | undefined, user: string | undefined): Throttled | undefined {
    const now = this.options.clock.now();
    const byRemote = remote === undefined ? undefined : this.blocked(this.remotes, this.options.perRemote, remote, now);
    if (byRemote !== undefined)
      return throttled('remote', byRemote, `too many failed logins from ${remote}`, this.options.perRemote);
    const byUser = user === undefined ? undefined : this.blocked(this.users, this.options.perUser, user, now);
    if (byUser !== undefined)
      return throttled('user', byUser, `too many failed logins for user "${user}"`, this.options.perUser);
    return undefined;
  }

  /** Counts a wrong password (or unknown user) from `remote` naming `user`. */
  failed(remote: string | undefined, user: string | undefined): void {
    const now = this.options.clock.now();
    if (remote !== undefined) count(this.remotes, this.options.perRemote, remote, now);
    if (user !== undefined) count(this.users, this.options.perUser, user, now);
  }

  /** Milliseconds `key` stays blocked, or undefined when it is not. */
  private blocked(table: Map<string, Window>, rule: ThrottleRule, key: string, now: number): number | undefined {
    if (rule.failures <= 0) return undefined;
    forgetEnded(table, rule, now);
    const window = table.get(key);
    if (!window || window.failures < rule.failures) return undefined;
    return window.start + rule.windowMs - now;
  }
}

/** Adds a failure to `key`'s window, starting a new window (at the back of the table) when the last ended. */
function count(table: Map<string, Window>, rule: ThrottleRule, key: string, now: number): void {
  if (rule.failures <= 0) return;
  forgetEnded(table, rule, now);
  const window = table.get(key);
  if (window && now < window.start + rule.windowMs) {
    window.failures++;
    return;
  }
  table.delete(key);
  if (table.size >= MAX_KEYS) table.delete(table.keys().next().value as string);
  table.set(key, { start: now, failures: 1 });
}

/** Windows start in table order, so those that ended are at the front. */
function forgetEnded(table: Map<string, Window>, rule: ThrottleRule, now: number): void {
  for (const [key, window] of table) {
    if (now < window.start + rule.windowMs) return;
    table.delete(key);
  }
}

function throttled(by: Throttled['by'], waitMs: number, what: string, rule: ThrottleRule): Throttled {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    by,
    retryAfterSeconds,
    message: `${what}: at most ${rule.failures} per ${rule.windowMs / 1000} s; retry in ${retryAfterSeconds} s`,
  };
}
