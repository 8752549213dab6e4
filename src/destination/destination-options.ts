/**
 * Options of the reference content destination, their defaults, and their
 * validation. Every bad option becomes an {@link EmulatorError} naming it.
 */
import { type ThrottleRules, type ThrottleSettings, throttleRules } from '../auth/login-throttle';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Clock, systemClock } from '../base/clock';
import { EmulatorError } from '../base/errors';
import { checkOptionNames, type OptionNames } from '../base/option-checks';
import type { Logger, LogLevel } from '../base/log';
import { CAPABILITY_NAMES, type CapabilityName, type Category } from '../protocol/body-worn';
import { SWIFT_LIMITS } from '../protocol/swift';
import type { TlsMaterial } from '../base/tls';
import { checkRule, type FaultRule } from './faults';
import type { OpenWrite } from './store/object-store';

/** One login of the destination: `X-Auth-User` / key, the account it opens, and whether it may write. */
export interface DestinationUser {
  /** The `X-Auth-User` value, `name` or tempauth's `account:name`. */
  user: string;
  key: string;
  /** Account (the `{account}` of `/v1/{account}`); default `AUTH_` + the part of `user` before `:`. */
  account?: string;
  /** A read-only user gets 403 on every PUT, POST and DELETE. */
  readOnly?: boolean;
}

/** Everything a destination can be told; every field is optional. */
export interface DestinationOptions {
  /** TCP port; 0 (the default in the API) picks a free one. */
  port?: number;
  /** Address to listen on; `127.0.0.1` by default. */
  host?: string;
  /** Where objects are stored (kept across restarts); a new temporary directory by default. */
  dataDir?: string;
  /** Logins; default one, `bws` / `secret`, account `AUTH_bws`. */
  users?: DestinationUser[];
  /** Auth token lifetime in ms; 15 minutes by default, as the real example server. */
  tokenLifetimeMs?: number;
  /** Licences per account: a number for both users and cameras, or each; unlimited by default. */
  licences?: number | { users?: number; devices?: number };
  /** Bytes each account may store (507 beyond); unlimited by default. */
  quotaBytes?: number;
  /** Largest single object in bytes (413 beyond); Swift's 5 GiB by default. */
  maxObjectBytes?: number;
  /** Capabilities published in `System/Capabilities.json`: each true unless set false here. */
  capabilities?: Partial<Record<CapabilityName, boolean>>;
  /** Categories published in `System/Categories.json`. */
  categories?: Category[];
  /** Fault rules in force from the start (see also the `/_emu/faults` endpoint). */
  faults?: FaultRule[];
  /** HTTPS: `true` for a self-signed certificate made at start, or PEM material. */
  tls?: boolean | TlsMaterial;
  /** Base URL put in `X-Storage-Url`; by default the scheme and `Host` the client used. */
  publicUrl?: string;
  /**
   * The pages' login (and `/_emu/faults`) also offers and accepts Basic on plain HTTP, where
   * it sends the key in clear; off by default (digest only without `tls`).
   */
  basicOverHttp?: boolean;
  /**
   * Wrong keys allowed at `/auth/v1.0` and the pages per remote address, and per remote address
   * and login, within a window before that address's attempts (as that login) get 429 with
   * `Retry-After`: 20 and 10 per 10 s by default; 0 turns one off. Other addresses are never throttled.
   */
  loginThrottle?: ThrottleSettings;
  /** Recording times later than now + this are out of bounds (400); default 24 hours. */
  maxAheadMs?: number;
  /**
   * A transferring recording with no progress (no container write, no object stored) for
   * this long shows as `stalled` on the recordings page; default 60 seconds. A clip counts
   * once it is stored, so raise it when single clips take longer than this to upload.
   */
  stalledAfterMs?: number;
  /** Time source for token expiry, time bounds and stalled uploads; tests pass a ManualClock. */
  clock?: Clock;
  /** How latency faults wait; tests pass one that resolves when they say. */
  sleep?: (ms: number) => Promise<void>;
  /** Logger; a silent one by default (library use). */
  logger?: Logger;
  /** Level of the default logger. */
  logLevel?: LogLevel;
  /** @internal How part files are opened; tests simulate a full disk with it. */
  openWrite?: OpenWrite;
}

/** The names of {@link DestinationOptions}, checked against it by the compiler: what `startDestination` accepts. */
export const DESTINATION_OPTION_NAMES = {
  port: true,
  host: true,
  dataDir: true,
  users: true,
  tokenLifetimeMs: true,
  licences: true,
  quotaBytes: true,
  maxObjectBytes: true,
  capabilities: true,
  categories: true,
  faults: true,
  tls: true,
  publicUrl: true,
  basicOverHttp: true,
  loginThrottle: true,
  maxAheadMs: true,
  stalledAfterMs: true,
  clock: true,
  sleep: true,
  logger: true,
  logLevel: true,
  openWrite: true,
} as const satisfies OptionNames<DestinationOptions>;

/** The names of a {@link DestinationUser}. */
const USER_NAMES = {
  user: true,
  key: true,
  account: true,
  readOnly: true,
} as const satisfies OptionNames<DestinationUser>;

/** The names of `licences` given per kind. */
const LICENCE_NAMES = { users: true, devices: true } as const satisfies OptionNames<
  Exclude<DestinationOptions['licences'], number | undefined>
>;

/** A login with its account filled in. */
export type ResolvedUser = Required<DestinationUser>;

/** Options with every default filled in. */
export interface ResolvedDestinationOptions {
  port: number;
  host: string;
  dataDir: string;
  users: ResolvedUser[];
  accounts: string[];
  tokenLifetimeMs: number;
  licences: { users: number; devices: number };
  quotaBytes: number;
  maxObjectBytes: number;
  capabilities: Record<CapabilityName, boolean>;
  categories: Category[];
  faults: FaultRule[];
  tls: boolean | TlsMaterial;
  publicUrl: string | undefined;
  basicOverHttp: boolean;
  loginThrottle: ThrottleRules;
  maxAheadMs: number;
  stalledAfterMs: number;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  openWrite: OpenWrite | undefined;
}

/** The login a newcomer uses; printed at start. */
export const DEFAULT_DESTINATION_USER: ResolvedUser = {
  user: 'bws',
  key: 'secret',
  account: 'AUTH_bws',
  readOnly: false,
};

/** Categories published when none are given. */
export const DEFAULT_CATEGORIES: Category[] = [
  { Name: 'Traffic stop', Id: '1' },
  { Name: 'Arrest', Id: '2' },
  { Name: 'Incident', Id: '3' },
  { Name: 'Training', Id: '4' },
];

/** Fills in defaults and checks every option. */
export function resolveDestinationOptions(options: DestinationOptions): ResolvedDestinationOptions {
  const where = 'startDestination';
  checkOptionNames(options, DESTINATION_OPTION_NAMES, { where });
  if (typeof options.licences !== 'number')
    checkOptionNames(options.licences, LICENCE_NAMES, { where, at: 'licences' });
  options.users?.forEach((user, i) => checkOptionNames(user, USER_NAMES, { where, at: `users[${i}]` }));
  const users = (options.users?.length ? options.users : [DEFAULT_DESTINATION_USER]).map(resolveUser);
  const logins = new Set<string>();
  for (const user of users) {
    if (logins.has(user.user)) bad(`user "${user.user}" is given twice`);
    logins.add(user.user);
  }
  const licences =
    typeof options.licences === 'number'
      ? { users: options.licences, devices: options.licences }
      : { users: options.licences?.users ?? Infinity, devices: options.licences?.devices ?? Infinity };
  for (const [name, value] of Object.entries(licences)) {
    const what = typeof options.licences === 'number' ? 'licences' : `licences.${name}`;
    if (!(value === Infinity || (Number.isInteger(value) && value >= 0)))
      bad(`${what} must be a whole number of 0 or more, not ${value}`);
  }
  const capabilities = Object.fromEntries(
    CAPABILITY_NAMES.map((name) => [name, options.capabilities?.[name] ?? true]),
  ) as Record<CapabilityName, boolean>;
  for (const name of Object.keys(options.capabilities ?? {}))
    if (!(CAPABILITY_NAMES as readonly string[]).includes(name))
      bad(`unknown capability "${name}" (known: ${CAPABILITY_NAMES.join(', ')})`);
  const faults = (options.faults ?? []).map((rule) => {
    const checked = checkRule(rule);
    return checked.ok ? checked.value : bad(`faults: ${checked.error.message}`);
  });
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    if (!(value > 0)) bad(`${name} must be a positive number`);
    return value;
  };
  const port = options.port ?? 0;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    bad(`port must be a whole number from 0 to 65535, not ${port}`);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    dataDir: options.dataDir ? resolve(options.dataDir) : mkdtempSync(join(tmpdir(), 'bwc-destination-')),
    users,
    accounts: [...new Set(users.map((u) => u.account))],
    tokenLifetimeMs: positive(options.tokenLifetimeMs, 15 * 60_000, 'tokenLifetimeMs'),
    licences,
    quotaBytes: positive(options.quotaBytes, Infinity, 'quotaBytes'),
    maxObjectBytes: positive(options.maxObjectBytes, SWIFT_LIMITS.maxFileSize, 'maxObjectBytes'),
    capabilities,
    categories: options.categories ?? DEFAULT_CATEGORIES,
    faults,
    tls: options.tls ?? false,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    basicOverHttp:
      options.basicOverHttp === undefined || typeof options.basicOverHttp === 'boolean'
        ? (options.basicOverHttp ?? false)
        : bad(`basicOverHttp must be true or false, not ${String(options.basicOverHttp)}`),
    loginThrottle: throttleRules(options.loginThrottle),
    maxAheadMs: positive(options.maxAheadMs, 24 * 3600_000, 'maxAheadMs'),
    stalledAfterMs: positive(options.stalledAfterMs, 60_000, 'stalledAfterMs'),
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
    openWrite: options.openWrite,
  };
}

/**
 * Parses the CLI's `--user NAME` (paired with `--key KEY`): `bws` or tempauth's
 * `account:user`, which logs in as `account:user` into `AUTH_account`.
 */
function resolveUser(user: DestinationUser): ResolvedUser {
  if (typeof user.user !== 'string' || user.user === '' || /[\s]/.test(user.user))
    bad(`user name "${String(user.user)}" must be non-empty without spaces`);
  if (typeof user.key !== 'string' || user.key === '') bad(`user "${user.user}" needs a key`);
  const account = user.account ?? `AUTH_${user.user.split(':')[0]}`;
  if (!/^[A-Za-z0-9_.-]{1,256}$/.test(account) || account === '.' || account === '..')
    bad(`account "${account}" may hold only letters, digits, _ . -`);
  return { user: user.user, key: user.key, account, readOnly: user.readOnly ?? false };
}

function bad(message: string): never {
  throw new EmulatorError('BAD_OPTION', message);
}
