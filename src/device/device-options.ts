/**
 * Options of one simulated device, their defaults, and their validation. Every
 * bad option becomes an {@link EmulatorError} naming the option.
 */
import { type Account, DEFAULT_ACCOUNT, ROLES } from '../auth/accounts';
import { AUTH_MODES, type AuthMode } from '../auth/authenticator';
import { SESSION_TOKEN_FORMATS, type SessionTokenFormat } from '../auth/token-forms';
import { type DigestAlgorithm, parseAlgorithm, type ReplayMode } from '../auth/digest';
import type { RequestHandler } from 'express';
import { type Clock, systemClock } from '../base/clock';
import type { Journal } from '../base/journal';
import { EmulatorError } from '../base/errors';
import { isIPv4 } from 'node:net';
import { allowedHostProblem } from '../base/host-allow-list';
import { checkOptionNames, type OptionNames, wholeNumberOption } from '../base/option-checks';
import type { Logger, LogLevel } from '../base/log';
import { DEFAULT_MAX_FILTERS } from '../events/configure';
import { type DeviceLimits, resolveDeviceLimits, type ResolvedDeviceLimits } from './device-limits';
import type { TimestampMode } from '../events/event-bus';
import { DEFAULT_TOPIC_ALIASES, NEUTRAL_NAMESPACE } from '../events/topic-filter';
import { DEFAULT_FLAGS, type FlagDefinition } from './feature-flags';
import { DEFAULT_IDENTITY, type DeviceIdentity, type IdentityOptions, resolveIdentity } from './identity';
import { DEFAULT_INITIAL_STATES, type InitialState, inNamespace } from './initial-states';
import { DEFAULT_PERSONA, PERSONA_NAMES, PERSONAS, type Persona, type PersonaName, vendorWord } from './persona';
import { type PersonaFile, PersonaFileSchema, personaIdentity } from './persona-file';
import type { TlsMaterial } from '../base/tls';

/** Everything a device can be told; every field is optional. */
export interface DeviceOptions {
  /** TCP port; 0 (the default in the API) picks a free one. */
  port?: number;
  /** Address to listen on; `127.0.0.1` by default. */
  host?: string;
  /**
   * Share `port` with devices at other addresses (a fleet's address mode): one listener on
   * every interface at the port answers for all of them, each connection going to the device
   * at the address it came to (`host`, an IPv4 address of this machine, e.g. any of
   * 127.0.0.0/8). With port 0, a free port that later devices join by its number. Default false.
   */
  sharePort?: boolean;
  /**
   * Host names besides the loopback ones and `host` that the dashboard and the control API
   * answer under (DNS rebinding: others get 403); `.example.test` takes the names under it
   * too. For a device reached by a name (a proxy, a container's service name).
   */
  allowedHosts?: string[];
  /** Serial number; also names the digest realm. Default `ACCC8E000001`. */
  serial?: string;
  /** Identity fields reported by basicdeviceinfo.cgi and param.cgi (model, firmware, ...). */
  identity?: IdentityOptions;
  /**
   * `anonymous` (default, like many real devices) answers apidiscovery.cgi and basicdeviceinfo.cgi
   * `getAllUnrestrictedProperties` without credentials; `required` puts them behind auth.
   */
  discoveryAuth?: 'anonymous' | 'required';
  /** User accounts; default one admin, `root` / `pass`. */
  accounts?: Account[];
  /** Accepted schemes: `both` (default), `digest`, `basic`, or `none` (no credentials at all). */
  auth?: AuthMode;
  /**
   * With auth `both` on plain HTTP (no `tls`), also offer and accept Basic, which sends the
   * password in clear; off by default, so such a device speaks digest only. Auth `basic` is
   * an explicit ask of its own; with TLS Basic is on either way.
   */
  basicOverHttp?: boolean;
  /** Digest algorithms offered, one challenge each, in order. Default `['MD5']`. */
  digestAlgorithms?: DigestAlgorithm[];
  /** `lenient` (default) reuses nonces like real devices; `strict` refuses a repeated nc. */
  digestReplay?: ReplayMode;
  /** Digest nonce lifetime in ms (default 300 000); older nonces get `stale=true`. */
  nonceLifetimeMs?: number;
  /**
   * Which device family to look like ({@link PERSONAS}): sets the CGI and stream prefixes,
   * the realm's first word and the topic namespace word together. `realm`, `cgiPrefix`,
   * `wsPrefix` and `namespace` given explicitly win over it. Default: `svc`, the spec's words.
   * A loaded persona file (`loadPersonaFile`, made by `bwc-emu clone`) makes the device answer
   * as the device it was cloned from: its words, realm, serial, identity, flags, API list and
   * parameters (`serial`, `identity` and `flags` given explicitly win).
   */
  persona?: PersonaName | PersonaFile;
  /**
   * Digest realm; default `<WORD>_<serial>`: the persona's word (`AXIS_ACCC8E000001`), or
   * without a persona the vendor word of `cgiPrefix` (`/svc-cgi` -> `SVC_...`).
   */
  realm?: string;
  /** Path prefix of the CGIs; default the persona's, `/svc-cgi` (a real device family uses `/axis-cgi`). */
  cgiPrefix?: string;
  /** Path prefix of the WebSocket data stream; default the persona's, `/svc` (real devices: `/vapix`). */
  wsPrefix?: string;
  /**
   * The word the device publishes for the neutral vendor namespace `tnsvendor:` that
   * scenarios and the default states are written in (`tnsaxis` makes
   * `tns1:Device/tnsaxis:IO/Port`); default the persona's. Filters written with
   * `tnsvendor:` keep matching (an alias is added).
   */
  namespace?: string;
  /** HTTPS: `true` for a self-signed certificate made at start, or PEM material. */
  tls?: boolean | TlsMaterial;
  /** Directory where state (feature flag values) survives restarts; memory only when absent. */
  stateDir?: string;
  /** Feature flag definitions; a realistic built-in set by default. */
  flags?: FlagDefinition[];
  /** Session token lifetime in ms; 15 000 as the spec says. */
  tokenLifetimeMs?: number;
  /**
   * How `wssession.cgi` writes tokens: `decimal` (19 digits, as real devices do; beyond 2^53) or
   * `alphanumeric` (32 letters and digits); default the persona's, `decimal`.
   */
  sessionTokenFormat?: SessionTokenFormat;
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
  /**
   * Limits on sessions, filter size, each account's evaluation budget, pending tokens, replay
   * memory and failed logins (docs/limits.md); absent ones take their defaults.
   */
  limits?: DeviceLimits;
  /**
   * Topic prefix aliases applied to client filters; default `{ onvif: 'tns1' }`. With a
   * `namespace` other than `tnsvendor`, `tnsvendor` is added as an alias of it, and an
   * alias that names `tnsvendor` as its target names the namespace instead.
   */
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

/** The names of {@link DeviceOptions}, checked against it by the compiler: what `startDevice` accepts. */
export const DEVICE_OPTION_NAMES = {
  port: true,
  host: true,
  sharePort: true,
  allowedHosts: true,
  serial: true,
  identity: true,
  discoveryAuth: true,
  accounts: true,
  auth: true,
  basicOverHttp: true,
  digestAlgorithms: true,
  digestReplay: true,
  nonceLifetimeMs: true,
  persona: true,
  realm: true,
  cgiPrefix: true,
  wsPrefix: true,
  namespace: true,
  tls: true,
  stateDir: true,
  flags: true,
  tokenLifetimeMs: true,
  sessionTokenFormat: true,
  maxBodyBytes: true,
  wsDeflate: true,
  maxMessageBytes: true,
  maxBufferedBytes: true,
  maxFilters: true,
  limits: true,
  topicAliases: true,
  timestamps: true,
  initialStates: true,
  clock: true,
  logger: true,
  logLevel: true,
  journal: true,
  control: true,
} as const satisfies OptionNames<DeviceOptions>;

/** The address a device listens on unless told otherwise: the loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** The serial of a device no option or scenario names one for. */
export const DEFAULT_SERIAL = 'ACCC8E000001';

// Part of the public face: src/index.ts loads them from here (lazily, with this module).
export { DEFAULT_INITIAL_STATES, type InitialState } from './initial-states';
export { PERSONA_NAMES, PERSONAS, type Persona, type PersonaName } from './persona';

/** Options with every default filled in and checked. */
export interface ResolvedDeviceOptions extends Required<
  Omit<
    DeviceOptions,
    'tls' | 'stateDir' | 'logger' | 'logLevel' | 'realm' | 'identity' | 'journal' | 'control' | 'persona' | 'limits'
  >
> {
  limits: ResolvedDeviceLimits;
  /** The persona asked for; undefined when none was (the defaults are then the `svc` persona's). */
  persona: PersonaName | undefined;
  /** The persona file the device answers from, when one was given. */
  clone: PersonaFile | undefined;
  realm: string;
  identity: DeviceIdentity;
  tls: boolean | TlsMaterial;
  stateDir: string | undefined;
}

/** The default timestamps, one object for every device. */
const UTC_TIMESTAMPS: TimestampMode = Object.freeze({ mode: 'utc' });

/** Fills in defaults and validates; throws {@link EmulatorError} `BAD_OPTION`. */
export function resolveDeviceOptions(options: DeviceOptions): ResolvedDeviceOptions {
  checkOptionNames(options, DEVICE_OPTION_NAMES, { where: 'startDevice' });
  const clone = checkPersonaFile(options.persona);
  const serial = options.serial ?? clone?.identity.SerialNumber ?? DEFAULT_SERIAL;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(serial)) bad(`serial "${serial}" must be 1-64 letters, digits, '-' or '_'`);
  if (options.realm !== undefined && !isRealm(options.realm))
    bad(`realm "${shown(options.realm)}" must be 1-128 characters on one line, without control characters`);
  const persona = clone ? undefined : checkPersona(options.persona);
  const looks = clone ? clonedLooks(clone) : PERSONAS[persona ?? DEFAULT_PERSONA];
  const cgiPrefix = checkPrefix('cgiPrefix', options.cgiPrefix ?? looks.cgiPrefix);
  const wsPrefix = checkPrefix('wsPrefix', options.wsPrefix ?? looks.wsPrefix);
  const namespace = checkNamespace(options.namespace ?? looks.namespace);
  const topicAliases =
    options.topicAliases === undefined ? defaultAliasesFor(namespace) : aliasesFor(namespace, options.topicAliases);
  // Without a persona the realm follows the CGI prefix, as it did before personas.
  const realmWord = persona || clone ? looks.realmWord : vendorWord(cgiPrefix).toUpperCase();
  const auth = options.auth ?? 'both';
  if (!AUTH_MODES.includes(auth)) bad(`auth "${auth}" must be one of ${AUTH_MODES.join(', ')}`);
  const digestAlgorithms =
    options.digestAlgorithms === undefined
      ? (defaultAlgorithms ??= Object.freeze(parseAlgorithms(DEFAULT_ALGORITHMS)) as DigestAlgorithm[])
      : parseAlgorithms(options.digestAlgorithms);
  if (digestAlgorithms.length === 0) bad('digestAlgorithms must name at least one algorithm');
  const digestReplay = options.digestReplay ?? 'lenient';
  if (digestReplay !== 'lenient' && digestReplay !== 'strict')
    bad(`digestReplay "${String(digestReplay)}" must be lenient or strict`);
  const accounts = options.accounts ?? DEFAULT_ACCOUNTS;
  if (accounts.length === 0 && auth !== 'none') bad('accounts must hold at least one account (or use auth "none")');
  for (const a of accounts) {
    if (!a.name || a.name.includes(':')) bad(`account name "${a.name}" must be non-empty and have no ':'`);
    if (!ROLES.includes(a.role)) bad(`account "${a.name}" has role "${a.role}"; roles are ${ROLES.join(', ')}`);
  }
  if (options.sharePort === true && !isIPv4(options.host ?? DEFAULT_HOST))
    bad(
      `sharePort needs host to be an IPv4 address (a device is told from the others by the address it is reached at), not "${shown(options.host)}"`,
    );
  const flags = options.flags ?? clone?.flags ?? (DEFAULT_FLAGS as FlagDefinition[]);
  const seen = new Set<string>();
  for (const f of flags) {
    if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(f.name))
      bad(`flag name "${f.name}" must start with a letter and hold only letters, digits, '_', '.', '-'`);
    if (seen.has(f.name)) bad(`flag "${f.name}" is defined twice`);
    if (typeof f.defaultValue !== 'boolean') bad(`flag "${f.name}" needs a boolean defaultValue`);
    if (f.value !== undefined && typeof f.value !== 'boolean')
      bad(`flag "${f.name}" has a value that is not a boolean`);
    seen.add(f.name);
  }
  return {
    port: wholeNumberOption('port', options.port ?? 0, 0, 65535),
    host: options.host ?? DEFAULT_HOST,
    sharePort: checkBoolean('sharePort', options.sharePort),
    allowedHosts: options.allowedHosts?.length ? checkAllowedHosts(options.allowedHosts) : NO_HOSTS,
    serial,
    identity: clone
      ? clonedIdentity(clone, serial, checkIdentity(options.identity ?? {}))
      : resolveIdentity(serial, checkIdentity(options.identity ?? {})),
    discoveryAuth:
      options.discoveryAuth === 'required'
        ? 'required'
        : options.discoveryAuth === undefined || options.discoveryAuth === 'anonymous'
          ? 'anonymous'
          : bad(`discoveryAuth "${String(options.discoveryAuth)}" must be anonymous or required`),
    accounts,
    auth,
    basicOverHttp: checkBoolean('basicOverHttp', options.basicOverHttp),
    digestAlgorithms,
    digestReplay,
    nonceLifetimeMs: wholeNumberOption('nonceLifetimeMs', options.nonceLifetimeMs ?? 300_000, 1, 86_400_000),
    persona,
    clone,
    realm: options.realm ?? (clone && serial === clone.identity.SerialNumber ? clone.realm : `${realmWord}_${serial}`),
    cgiPrefix,
    wsPrefix,
    namespace,
    tls: options.tls ?? false,
    stateDir: options.stateDir,
    flags,
    tokenLifetimeMs: wholeNumberOption('tokenLifetimeMs', options.tokenLifetimeMs ?? 15_000, 1, 86_400_000),
    sessionTokenFormat: checkTokenFormat(options.sessionTokenFormat ?? looks.sessionTokenFormat),
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
    limits: options.limits === undefined ? defaultLimits() : resolveDeviceLimits(options.limits),
    topicAliases,
    initialStates: inNamespace(options.initialStates ?? DEFAULT_INITIAL_STATES, namespace),
    timestamps: checkTimestamps(options.timestamps ?? UTC_TIMESTAMPS),
    clock: options.clock ?? systemClock,
  };
}

/** Whether `realm` can be quoted into a header: 1-128 characters, none of them a control character. */
function isRealm(realm: unknown): boolean {
  if (typeof realm !== 'string' || realm.length === 0 || realm.length > 128) return false;
  for (let i = 0; i < realm.length; i++) {
    const code = realm.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** A value as a message quotes it: strings as they are, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
}

/** An XML NCName in ASCII, as a topic prefix is written: what `namespace` must look like. */
const NAMESPACE_WORD = /^[A-Za-z_][A-Za-z0-9._-]{0,63}$/;

/** `undefined` (no persona) or a known name; JavaScript callers may pass anything. */
function checkPersona(persona: unknown): PersonaName | undefined {
  if (persona === undefined) return undefined;
  if (typeof persona === 'string' && Object.hasOwn(PERSONAS, persona)) return persona as PersonaName;
  return bad(`persona "${shown(persona)}" must be one of ${PERSONA_NAMES.join(', ')}`);
}

/** The persona file given as `persona`, checked (JavaScript callers may pass any object); undefined for a name. */
function checkPersonaFile(persona: unknown): PersonaFile | undefined {
  if (typeof persona !== 'object' || persona === null) return undefined;
  const parsed = PersonaFileSchema.safeParse(persona);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return bad(`persona is not a persona file: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
}

/**
 * A persona file's words; what a file does not capture (how tokens are written) is the
 * built-in persona's whose CGI prefix it has, else the default's. The realm's word is the
 * captured realm's first word, for a fleet whose devices have other serials.
 */
function clonedLooks(clone: PersonaFile): Persona {
  const known = Object.values(PERSONAS).find((p: Persona) => p.cgiPrefix === clone.cgiPrefix);
  const base: Persona = known ?? PERSONAS[DEFAULT_PERSONA];
  const realmWord = clone.realm.split('_')[0] || base.realmWord;
  return { ...base, cgiPrefix: clone.cgiPrefix, wsPrefix: clone.wsPrefix, namespace: clone.namespace, realmWord };
}

/** A persona file's identity, in its order, with this device's serial and the fields given explicitly. */
function clonedIdentity(clone: PersonaFile, serial: string, given: IdentityOptions): DeviceIdentity {
  const identity = personaIdentity(clone);
  for (const [key, value] of Object.entries(given)) (identity as unknown as Record<string, string>)[key] = value;
  identity.SerialNumber = serial;
  return identity;
}

/** The namespace word, checked: it becomes a topic prefix, so it must parse as one in every filter. */
function checkNamespace(word: unknown): string {
  if (typeof word !== 'string' || !NAMESPACE_WORD.test(word))
    bad(
      `namespace "${shown(word)}" must be a topic prefix like tnsaxis: a letter or '_', then letters, digits, '.', '_' or '-' (64 at most)`,
    );
  if (word === 'tns1') bad('namespace "tns1" is the ONVIF topic namespace; the vendor namespace needs its own word');
  return word;
}

/**
 * The filter aliases for `namespace`: the neutral `tnsvendor` stays usable in filters
 * (clients and scenarios written for the spec keep working) by becoming an alias of it.
 */
/*
 * What the devices told nothing about these options share: a fleet of 100,000 would otherwise
 * hold 100,000 equal copies (about 0.5 KB a device). Frozen: nothing changes a resolved option.
 */
const DEFAULT_ACCOUNTS: Account[] = Object.freeze([DEFAULT_ACCOUNT]) as Account[];
const DEFAULT_ALGORITHMS: NonNullable<DeviceOptions['digestAlgorithms']> = Object.freeze(['MD5']) as ['MD5'];
const NO_HOSTS: string[] = Object.freeze([]) as unknown as string[];
const defaultAliases = new Map<string, Record<string, string>>();
let sharedLimits: ResolvedDeviceLimits | undefined;

let defaultAlgorithms: DigestAlgorithm[] | undefined;

/** The algorithms named, parsed (BAD_OPTION for an unknown one). */
function parseAlgorithms(names: readonly string[]): DigestAlgorithm[] {
  return names.map(
    (a) =>
      parseAlgorithm(a) ??
      bad(`digest algorithm "${a}" is not one of MD5, MD5-sess, SHA-256, SHA-256-sess, SHA-512-256, SHA-512-256-sess`),
  );
}

/** The default topic aliases in `namespace`, made once per namespace. */
function defaultAliasesFor(namespace: string): Record<string, string> {
  let aliases = defaultAliases.get(namespace);
  if (aliases === undefined) {
    aliases = Object.freeze(aliasesFor(namespace, DEFAULT_TOPIC_ALIASES));
    defaultAliases.set(namespace, aliases);
  }
  return aliases;
}

/** The default limits, made once. */
function defaultLimits(): ResolvedDeviceLimits {
  return (sharedLimits ??= Object.freeze(resolveDeviceLimits({})) as ResolvedDeviceLimits);
}

function aliasesFor(namespace: string, given: Readonly<Record<string, string>>): Record<string, string> {
  if (namespace === NEUTRAL_NAMESPACE) return { ...given };
  const aliases = Object.fromEntries(
    Object.entries(given).map(([from, to]) => [from, to === NEUTRAL_NAMESPACE ? namespace : to]),
  );
  if (Object.hasOwn(aliases, namespace) && aliases[namespace] !== namespace)
    bad(
      `namespace "${namespace}" is also a topic alias for "${aliases[namespace]}": filters could never name it; pick another word or drop the alias`,
    );
  if (!Object.hasOwn(aliases, NEUTRAL_NAMESPACE)) aliases[NEUTRAL_NAMESPACE] = namespace;
  return aliases;
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

/** A token form the device knows; JavaScript callers may pass anything. */
function checkTokenFormat(format: unknown): SessionTokenFormat {
  return SESSION_TOKEN_FORMATS.includes(format as SessionTokenFormat)
    ? (format as SessionTokenFormat)
    : bad(`sessionTokenFormat "${shown(format)}" must be one of ${SESSION_TOKEN_FORMATS.join(', ')}`);
}

/** An optional boolean option: false when absent; anything else but a boolean is refused. */
function checkBoolean(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  return typeof value === 'boolean' ? value : bad(`${name} must be true or false, not ${shown(value)}`);
}

function bad(message: string): never {
  throw new EmulatorError('BAD_OPTION', message);
}

/** The `allowedHosts` entries, each a host name, a `.suffix` or an IP address (else BAD_OPTION). */
function checkAllowedHosts(entries: unknown): string[] {
  if (!Array.isArray(entries)) return bad('allowedHosts must be a list of host names');
  return entries.map((entry: unknown) => {
    if (typeof entry !== 'string') return bad('allowedHosts must hold host names');
    const problem = allowedHostProblem(entry);
    return problem === undefined ? entry : bad(problem);
  });
}
