/**
 * Options of one simulated device, their defaults, and their validation. Every
 * bad option becomes an {@link EmulatorError} naming the option.
 */
import { type Account, DEFAULT_ACCOUNT, ROLES } from '../auth/accounts';
import { AUTH_MODES, type AuthMode } from '../auth/authenticator';
import { type DigestAlgorithm, parseAlgorithm, type ReplayMode } from '../auth/digest';
import type { RequestHandler } from 'express';
import { type Clock, systemClock } from '../base/clock';
import type { Journal } from '../base/journal';
import { EmulatorError } from '../base/errors';
import { wholeNumberOption } from '../base/option-checks';
import type { Logger, LogLevel } from '../base/log';
import { DEFAULT_MAX_FILTERS } from '../events/configure';
import type { NotificationMessage } from '../events/content-filter';
import type { TimestampMode } from '../events/event-bus';
import { DEFAULT_TOPIC_ALIASES } from '../events/topic-filter';
import { DEFAULT_FLAGS, type FlagDefinition } from './feature-flags';
import { DEFAULT_IDENTITY, type DeviceIdentity, type IdentityOptions, resolveIdentity } from './identity';
import type { TlsMaterial } from '../base/tls';

/** Everything a device can be told; every field is optional. */
export interface DeviceOptions {
  /** TCP port; 0 (the default in the API) picks a free one. */
  port?: number;
  /** Address to listen on; `127.0.0.1` by default. */
  host?: string;
  /** Serial number; also names the digest realm. Default `ACCC8E000001`. */
  serial?: string;
  /** Identity fields reported by basicdeviceinfo.cgi and param.cgi (model, firmware, ...). */
  identity?: IdentityOptions;
  /** `anonymous` (default, like many real devices) answers apidiscovery.cgi without credentials. */
  discoveryAuth?: 'anonymous' | 'required';
  /** User accounts; default one admin, `root` / `pass`. */
  accounts?: Account[];
  /** Accepted schemes: `both` (default), `digest`, `basic`, or `none` (no credentials at all). */
  auth?: AuthMode;
  /** Digest algorithms offered, one challenge each, in order. Default `['MD5']`. */
  digestAlgorithms?: DigestAlgorithm[];
  /** `lenient` (default) reuses nonces like real devices; `strict` refuses a repeated nc. */
  digestReplay?: ReplayMode;
  /** Digest nonce lifetime in ms (default 300 000); older nonces get `stale=true`. */
  nonceLifetimeMs?: number;
  /** Digest realm; default `<VENDOR>_<serial>` with the vendor word of `cgiPrefix`. */
  realm?: string;
  /** Path prefix of the CGIs; default `/svc-cgi` (a real device family uses `/axis-cgi`). */
  cgiPrefix?: string;
  /** Path prefix of the WebSocket data stream; default `/svc` (real devices: `/vapix`). */
  wsPrefix?: string;
  /** HTTPS: `true` for a self-signed certificate made at start, or PEM material. */
  tls?: boolean | TlsMaterial;
  /** Directory where state (feature flag values) survives restarts; memory only when absent. */
  stateDir?: string;
  /** Feature flag definitions; a realistic built-in set by default. */
  flags?: FlagDefinition[];
  /** Session token lifetime in ms; 15 000 as the spec says. */
  tokenLifetimeMs?: number;
  /** Largest accepted JSON request body in bytes (larger gives error 2107); default 64 KiB. */
  maxBodyBytes?: number;
  /** Offer permessage-deflate on the event stream (off by default, like real devices). */
  wsDeflate?: boolean;
  /** Largest accepted event stream message in bytes (larger gives error 2107); default 64 KiB. */
  maxMessageBytes?: number;
  /** Bytes waiting to be sent to one stream client before it is closed as too slow (1013); default 4 MiB. */
  maxBufferedBytes?: number;
  /** Most filters in one `events:configure`; default 256. */
  maxFilters?: number;
  /** Topic prefix aliases applied to client filters; default `{ onvif: 'tns1' }`. */
  topicAliases?: Record<string, string>;
  /** Notification timestamps: device UTC clock (default), none, or local time with an offset. */
  timestamps?: TimestampMode;
  /**
   * Stateful events the device holds from the start, as a real one does: sent to
   * each session right after a matching configure. Default: system ready, two I/O
   * ports inactive. Pass `[]` for none.
   */
  initialStates?: InitialState[];
  /** Time source; inject a `ManualClock` in tests. */
  clock?: Clock;
  /** A pino logger; by default a silent one at `logLevel`. */
  logger?: Logger;
  /** Level of the default logger: `silent` unless set. */
  logLevel?: LogLevel;
  /** Where the device records what crosses its sockets; none by default (the emulator gives one to every device). */
  journal?: Journal;
  /** Served at `/_emu` ahead of the device's own routes and auth (the emulator's control API). */
  control?: RequestHandler;
}

/** The serial of a device no option or scenario names one for. */
export const DEFAULT_SERIAL = 'ACCC8E000001';

/** A stateful event present when the device starts. */
export interface InitialState {
  topic: string;
  message: NotificationMessage;
}

/** What a freshly booted device reports as its state. */
export const DEFAULT_INITIAL_STATES: readonly InitialState[] = [
  { topic: 'tns1:Device/tnsvendor:Status/SystemReady', message: { source: {}, key: {}, data: { ready: '1' } } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', message: { source: { port: '1' }, key: {}, data: { state: '0' } } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', message: { source: { port: '2' }, key: {}, data: { state: '0' } } },
];

/** Options with every default filled in and checked. */
export interface ResolvedDeviceOptions extends Required<
  Omit<DeviceOptions, 'tls' | 'stateDir' | 'logger' | 'logLevel' | 'realm' | 'identity' | 'journal' | 'control'>
> {
  realm: string;
  identity: DeviceIdentity;
  tls: boolean | TlsMaterial;
  stateDir: string | undefined;
}

/** Fills in defaults and validates; throws {@link EmulatorError} `BAD_OPTION`. */
export function resolveDeviceOptions(options: DeviceOptions): ResolvedDeviceOptions {
  const serial = options.serial ?? DEFAULT_SERIAL;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(serial)) bad(`serial "${serial}" must be 1-64 letters, digits, '-' or '_'`);
  const cgiPrefix = checkPrefix('cgiPrefix', options.cgiPrefix ?? '/svc-cgi');
  const wsPrefix = checkPrefix('wsPrefix', options.wsPrefix ?? '/svc');
  const auth = options.auth ?? 'both';
  if (!AUTH_MODES.includes(auth)) bad(`auth "${auth}" must be one of ${AUTH_MODES.join(', ')}`);
  const digestAlgorithms = (options.digestAlgorithms ?? ['MD5']).map(
    (a) =>
      parseAlgorithm(a) ??
      bad(`digest algorithm "${a}" is not one of MD5, MD5-sess, SHA-256, SHA-256-sess, SHA-512-256, SHA-512-256-sess`),
  );
  if (digestAlgorithms.length === 0) bad('digestAlgorithms must name at least one algorithm');
  const digestReplay = options.digestReplay ?? 'lenient';
  if (digestReplay !== 'lenient' && digestReplay !== 'strict')
    bad(`digestReplay "${String(digestReplay)}" must be lenient or strict`);
  const accounts = options.accounts ?? [DEFAULT_ACCOUNT];
  if (accounts.length === 0 && auth !== 'none') bad('accounts must hold at least one account (or use auth "none")');
  for (const a of accounts) {
    if (!a.name || a.name.includes(':')) bad(`account name "${a.name}" must be non-empty and have no ':'`);
    if (!ROLES.includes(a.role)) bad(`account "${a.name}" has role "${a.role}"; roles are ${ROLES.join(', ')}`);
  }
  const flags = options.flags ?? [...DEFAULT_FLAGS];
  const seen = new Set<string>();
  for (const f of flags) {
    if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(f.name))
      bad(`flag name "${f.name}" must start with a letter and hold only letters, digits, '_', '.', '-'`);
    if (seen.has(f.name)) bad(`flag "${f.name}" is defined twice`);
    if (typeof f.defaultValue !== 'boolean') bad(`flag "${f.name}" needs a boolean defaultValue`);
    seen.add(f.name);
  }
  return {
    port: wholeNumberOption('port', options.port ?? 0, 0, 65535),
    host: options.host ?? '127.0.0.1',
    serial,
    identity: resolveIdentity(serial, checkIdentity(options.identity ?? {})),
    discoveryAuth:
      options.discoveryAuth === 'required'
        ? 'required'
        : options.discoveryAuth === undefined || options.discoveryAuth === 'anonymous'
          ? 'anonymous'
          : bad(`discoveryAuth "${String(options.discoveryAuth)}" must be anonymous or required`),
    accounts,
    auth,
    digestAlgorithms,
    digestReplay,
    nonceLifetimeMs: wholeNumberOption('nonceLifetimeMs', options.nonceLifetimeMs ?? 300_000, 1, 86_400_000),
    realm: options.realm ?? `${vendorWord(cgiPrefix).toUpperCase()}_${serial}`,
    cgiPrefix,
    wsPrefix,
    tls: options.tls ?? false,
    stateDir: options.stateDir,
    flags,
    tokenLifetimeMs: wholeNumberOption('tokenLifetimeMs', options.tokenLifetimeMs ?? 15_000, 1, 86_400_000),
    maxBodyBytes: wholeNumberOption('maxBodyBytes', options.maxBodyBytes ?? 64 * 1024, 64, 64 * 1024 * 1024),
    wsDeflate: options.wsDeflate ?? false,
    maxMessageBytes: wholeNumberOption('maxMessageBytes', options.maxMessageBytes ?? 64 * 1024, 64, 64 * 1024 * 1024),
    maxBufferedBytes: wholeNumberOption(
      'maxBufferedBytes',
      options.maxBufferedBytes ?? 4 * 1024 * 1024,
      1024,
      1024 * 1024 * 1024,
    ),
    maxFilters: wholeNumberOption('maxFilters', options.maxFilters ?? DEFAULT_MAX_FILTERS, 1, 100_000),
    topicAliases: options.topicAliases ?? { ...DEFAULT_TOPIC_ALIASES },
    initialStates: options.initialStates ?? [...DEFAULT_INITIAL_STATES],
    timestamps: checkTimestamps(options.timestamps ?? { mode: 'utc' }),
    clock: options.clock ?? systemClock,
  };
}

/** `svc` from `/svc-cgi`, `axis` from `/axis-cgi`: the word real realms start with. */
export function vendorWord(cgiPrefix: string): string {
  const first = cgiPrefix.split('/').filter(Boolean)[0] ?? 'svc';
  return first.replace(/-cgi$/i, '') || 'svc';
}

function checkPrefix(name: string, prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed))
    bad(`${name} "${prefix}" must be a path like /svc-cgi (letters, digits, '.', '_', '~', '-')`);
  return trimmed;
}

function checkIdentity(identity: IdentityOptions): IdentityOptions {
  for (const [key, value] of Object.entries(identity)) {
    if (!Object.hasOwn(DEFAULT_IDENTITY, key))
      bad(`identity.${key} is not an identity field; fields: ${Object.keys(DEFAULT_IDENTITY).join(', ')}`);
    if (typeof value !== 'string' || /[\r\n]/.test(value)) bad(`identity.${key} must be a one-line string`);
  }
  return identity;
}

function checkTimestamps(mode: TimestampMode): TimestampMode {
  if (mode.mode === 'local') wholeNumberOption('timestamps.offsetMinutes', mode.offsetMinutes, -24 * 60, 24 * 60);
  else if (mode.mode !== 'utc' && mode.mode !== 'none') bad(`timestamps.mode must be utc, local or none`);
  return mode;
}

function bad(message: string): never {
  throw new EmulatorError('BAD_OPTION', message);
}
