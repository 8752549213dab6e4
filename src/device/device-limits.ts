/**
 * The limits a device holds every client to, so that no client, and no account, can slow
 * the device for the others: sessions, filter size, the per-account evaluation budget,
 * pending session tokens, replay protection's memory and failed logins. One table says,
 * for each, its default, its range and what a client gets past it; options, the
 * `--limit name=value` flag and docs/limits.md all come from it.
 */
import { DEFAULT_TOKENS_PER_ACCOUNT } from '../auth/session-tokens';
import { DEFAULT_REPLAY_PER_ACCOUNT } from '../auth/digest';
import {
  DEFAULT_THROTTLE,
  MAX_THROTTLE_FAILURES,
  MAX_THROTTLE_WINDOW_MS,
  PER_USER_RETIRED,
  throttleRules,
  type ThrottleRules,
} from '../auth/login-throttle';
import { EmulatorError } from '../base/errors';
import { wholeNumberOption } from '../base/option-checks';
import { DEFAULT_MAX_FILTER_TERMS } from '../events/configure';
import { MAX_CONTENT_FILTER_NESTING } from '../events/content-filter';
import { DEFAULT_SESSION_LIMITS, SESSION_FREE_TERMS, type SessionLimitSettings } from '../events/session-limits';

/** The limits; each is a whole number, absent ones take their default. */
export interface DeviceLimits {
  /** Open event stream sessions per device (503 past it). */
  maxSessions?: number;
  /** Open event stream sessions per account, or per remote address with `auth: 'none'` (429 past it). */
  maxSessionsPerAccount?: number;
  /** Filter terms the sessions of one account hold together, one session's with `auth: 'none'` (2104 past it). */
  maxAccountTerms?: number;
  /** Filter terms all the clients' sessions of the device hold together beyond a few each: its per-event evaluation budget (2104 past it). */
  maxDeviceTerms?: number;
  /** Terms of one filter: topic alternatives plus content comparisons (2104 past it). */
  maxFilterTerms?: number;
  /** Nesting of '(', 'not(' and '[' in one content filter (2104 past it). */
  maxFilterNesting?: number;
  /** Pending session tokens per account (`wssession.cgi` answers 429 past it). */
  tokensPerAccount?: number;
  /** Strict digest replay protection: requests remembered per account while their nonce lives (429 past it). */
  replayPerAccount?: number;
  /** Wrong logins from one remote address per window before every login from it gets 429; 0: no limit. */
  loginFailuresPerRemote?: number;
  /** Wrong logins from one remote address naming one user per window before its logins as that user get 429; 0: no limit. */
  loginFailuresPerRemoteUser?: number;
  /** The window of the two login limits, in ms. */
  loginWindowMs?: number;
}

/** Every limit with its value. */
export type ResolvedDeviceLimits = Required<DeviceLimits>;

/** One row of the table: a limit's name, default, range, and what a client gets past it. */
export interface LimitSpec {
  readonly name: keyof DeviceLimits;
  readonly defaultValue: number;
  readonly min: number;
  readonly max: number;
  /** What is limited, for docs and `--help`. */
  readonly what: string;
  /** What a client gets past the limit. */
  readonly past: string;
}

/** The table of limits (docs/limits.md is made from it). */
export const DEVICE_LIMITS: readonly LimitSpec[] = [
  {
    name: 'maxSessions',
    defaultValue: DEFAULT_SESSION_LIMITS.maxSessions,
    min: 1,
    max: 1_000_000,
    what: 'open event stream sessions per device',
    past: 'handshake refused: 503 naming the limit',
  },
  {
    name: 'maxSessionsPerAccount',
    defaultValue: DEFAULT_SESSION_LIMITS.maxSessionsPerAccount,
    min: 1,
    max: 1_000_000,
    what: 'open event stream sessions per account (per remote address with auth none)',
    past: 'handshake refused: 429 naming the limit',
  },
  {
    name: 'maxAccountTerms',
    defaultValue: DEFAULT_SESSION_LIMITS.maxAccountTerms,
    min: 1,
    max: 100_000_000,
    what: "filter terms all of an account's sessions hold together: the per-event evaluation budget (one session's with auth none)",
    past: '`events:configure` answered 2104 naming the budget and what the other sessions hold',
  },
  {
    name: 'maxDeviceTerms',
    defaultValue: DEFAULT_SESSION_LIMITS.maxDeviceTerms,
    min: 1,
    max: 100_000_000,
    what: `filter terms all the clients' sessions of the device hold together beyond the first ${SESSION_FREE_TERMS} of each, whatever their accounts or addresses: the device's per-event evaluation budget (the dashboard's quota apart)`,
    past: '`events:configure` answered 2104 naming the budget and what the other sessions hold',
  },
  {
    name: 'maxFilterTerms',
    defaultValue: DEFAULT_MAX_FILTER_TERMS,
    min: 1,
    max: 1_000_000,
    what: 'terms of one filter: topic alternatives plus content comparisons (`@Name=`, `@Value=`)',
    past: '`events:configure` answered 2104 naming the filter and the limit',
  },
  {
    name: 'maxFilterNesting',
    defaultValue: MAX_CONTENT_FILTER_NESTING,
    min: 1,
    max: MAX_CONTENT_FILTER_NESTING,
    what: "nesting of '(', 'not(' and '[' in one content filter",
    past: '`events:configure` answered 2104 naming the column and the limit',
  },
  {
    name: 'tokensPerAccount',
    defaultValue: DEFAULT_TOKENS_PER_ACCOUNT,
    min: 1,
    max: 1_000_000,
    what: 'pending (issued, unused, unexpired) session tokens per account',
    past: '`wssession.cgi` answered 429 with `Retry-After` (when the oldest expires)',
  },
  {
    name: 'replayPerAccount',
    defaultValue: DEFAULT_REPLAY_PER_ACCOUNT,
    min: 1,
    max: 10_000_000,
    what: 'requests strict replay protection remembers per account while their nonce lives (`digestReplay: strict`)',
    past: '429 with `Retry-After` (when the oldest nonce expires) for that account only',
  },
  {
    name: 'loginFailuresPerRemote',
    defaultValue: DEFAULT_THROTTLE.perRemote.failures,
    min: 0,
    max: MAX_THROTTLE_FAILURES,
    what: 'wrong logins from one remote address per window (0: no limit)',
    past: 'every login from the address answered 429 with `Retry-After` until the window ends',
  },
  {
    name: 'loginFailuresPerRemoteUser',
    defaultValue: DEFAULT_THROTTLE.perRemoteUser.failures,
    min: 0,
    max: MAX_THROTTLE_FAILURES,
    what: 'wrong logins from one remote address naming one user per window (0: no limit)',
    past: 'every login from the address as that user answered 429 with `Retry-After` until the window ends; other addresses are not affected',
  },
  {
    name: 'loginWindowMs',
    defaultValue: DEFAULT_THROTTLE.perRemote.windowMs,
    min: 1,
    max: MAX_THROTTLE_WINDOW_MS,
    what: 'the window of the two login limits, in ms',
    past: '(a window, not a limit)',
  },
];

/** Checks `limits` (unknown names and out-of-range values throw `BAD_OPTION`) and fills in the defaults. */
export function resolveDeviceLimits(limits: DeviceLimits = {}): ResolvedDeviceLimits {
  const known = new Set<string>(DEVICE_LIMITS.map((spec) => spec.name));
  const unknown = Object.keys(limits).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new EmulatorError(
      'BAD_OPTION',
      `unknown limit(s) ${unknown.join(', ')}; known: ${DEVICE_LIMITS.map((spec) => spec.name).join(', ')}` +
        (unknown.includes('loginFailuresPerUser') ? ` (loginFailuresPerUser: ${PER_USER_RETIRED})` : ''),
    );
  const resolved: Partial<Record<keyof DeviceLimits, number>> = {};
  for (const spec of DEVICE_LIMITS)
    resolved[spec.name] = wholeNumberOption(
      `limits.${spec.name}`,
      limits[spec.name] ?? spec.defaultValue,
      spec.min,
      spec.max,
    );
  return resolved as ResolvedDeviceLimits;
}

/** The session limits of the event stream. */
export function sessionLimitsOf(limits: ResolvedDeviceLimits): SessionLimitSettings {
  let settings = sessionSettings.get(limits);
  if (settings === undefined) {
    const { maxSessions, maxSessionsPerAccount, maxAccountTerms, maxDeviceTerms } = limits;
    settings = Object.freeze({ maxSessions, maxSessionsPerAccount, maxAccountTerms, maxDeviceTerms });
    sessionSettings.set(limits, settings);
  }
  return settings;
}

/** The session limits of each resolved limits (one for every device told nothing of them). */
const sessionSettings = new WeakMap<ResolvedDeviceLimits, SessionLimitSettings>();

/** The login throttle's rules (the same checks as the destination's `loginThrottle`). */
export function throttleOf(limits: ResolvedDeviceLimits): ThrottleRules {
  return throttleRules(
    {
      failuresPerRemote: limits.loginFailuresPerRemote,
      failuresPerRemoteUser: limits.loginFailuresPerRemoteUser,
      windowMs: limits.loginWindowMs,
    },
    'limits',
  );
}
