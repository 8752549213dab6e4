/**
 * The flags of `bwc-emu [options]` (and `bwc-emu run`): their yargs table, their usage text
 * and their parsed shape. What they become is ./device-options-from; what runs is ./device.
 */
import type { Options } from 'yargs';
import { AUTH_MODES } from '../auth/authenticator';
import { SESSION_TOKEN_FORMATS, type SessionTokenFormat } from '../auth/token-forms';
import { MAX_DEVICES } from '../emulator/start-emulator';
import {
  type AuthMode,
  DEFAULT_ACCOUNT,
  DEVICE_LIMITS,
  DIGEST_ALGORITHMS,
  type LogLevel,
  PERSONA_NAMES,
  PERSONAS,
} from '../index';
import { type GradingArgs, gradingFlags } from './grading-flags';
import { numberFlag } from './number-flag';
import { logFlags, tlsFlags } from './parse';

/** `--port` when neither it nor `--address-range` is given. */
export const DEFAULT_PORT = 8080;

/** What `bwc-emu --help` says first. */
export const DEVICE_USAGE =
  "$0 [options]\n$0 validate FILE...   check scenario files (exit 1 with every error)\n$0 scenarios          list the shipped scenarios\n$0 record --url URL --out FILE   record a device's events into a scenario\n$0 destination [--data-dir DIR]  run the reference content destination (Swift subset)\n$0 upload --connection-file FILE   upload recordings to a content destination as a body worn system\n$0 run [options] -- COMMAND   run a test command against the emulator, exit with its code\n\n" +
  'Runs a simulated body worn camera device: feature flags, session tokens and the\nevent stream behind real HTTP digest authentication, playing a scenario.';

/** The device, fleet, log and grading flags in `--help` order, for `parser.options(...)`. */
export function deviceFlags(): Record<string, Options> {
  return {
    scenario: {
      alias: 's',
      type: 'string',
      array: true,
      describe: 'scenario file or shipped name, one device each (repeatable; default: default)',
      coerce: (names: string[]) => {
        // `-s` followed by nothing (or by another flag) must not quietly play the default scenario.
        if (names.length === 0 || names.some((n) => String(n).trim() === ''))
          throw new Error(
            "-s/--scenario needs a file or a shipped scenario name (e.g. -s motion; 'bwc-emu scenarios' lists them)",
          );
        return names.map(String);
      },
    },
    speed: numberFlag('speed', 'number', { default: 1, describe: 'scenario playback speed (2 = twice as fast)' }),
    seed: numberFlag('seed', 'number', { default: 1, describe: 'seed of the scenario jitter, for reproducible runs' }),
    watch: {
      type: 'boolean',
      default: true,
      describe: 'reload a --scenario file when it is saved (--no-watch to turn off)',
    },
    'connection-file': {
      type: 'string',
      describe: "upload the scenario's body-worn: recordings to this content destination as it plays",
    },
    // No yargs default: with --address-range an unset --port is 80 (443 with --tls), and only an
    // undefined value tells the two apart (a variable or a --config file sets it as a flag does).
    port: numberFlag('port', 'port', {
      alias: 'p',
      describe: `TCP port, 0 picks a free one (default: ${DEFAULT_PORT}; with --address-range 80, or 443 with --tls)`,
    }),
    host: {
      type: 'string',
      default: '127.0.0.1',
      describe: 'address to listen on (0.0.0.0 for every interface)',
    },
    'allowed-host': {
      type: 'string',
      array: true,
      describe:
        'a Host name the dashboard and control API also answer under besides localhost, 127.0.0.1, ::1 and ' +
        '--host (DNS rebinding; .example.test: the names under it too; repeatable)',
    },
    serial: {
      type: 'string',
      describe: "device serial number, also names the digest realm (default: the scenario's, else ACCC8E000001)",
    },
    model: { type: 'string', describe: 'product number the device reports (e.g. W110)' },
    firmware: { type: 'string', describe: 'firmware version the device reports (e.g. 11.11.73)' },
    'discovery-auth': {
      choices: ['anonymous', 'required'] as const,
      default: 'anonymous' as const,
      describe: 'whether apidiscovery.cgi and basicdeviceinfo.cgi getAllUnrestrictedProperties need credentials',
    },
    user: { alias: 'u', type: 'string', default: DEFAULT_ACCOUNT.name, describe: 'admin user name' },
    password: { type: 'string', default: DEFAULT_ACCOUNT.password, describe: 'admin password' },
    account: {
      type: 'string',
      array: true,
      describe: 'extra account name:password[:viewer|operator|admin] (repeatable)',
    },
    auth: {
      choices: AUTH_MODES,
      default: 'both',
      describe:
        'accepted schemes: both is digest, and Basic too over TLS or with --basic-over-http; basic alone is Basic even on plain HTTP; none serves everything without credentials',
    },
    'basic-over-http': {
      type: 'boolean',
      default: false,
      describe:
        'with --auth both, accept Basic on plain HTTP too, where it sends the password in clear (default: digest only without --tls)',
    },
    'digest-algorithms': {
      type: 'string',
      default: 'MD5',
      describe: `comma-separated, one challenge each: ${DIGEST_ALGORITHMS.join(', ')}`,
    },
    limit: {
      type: 'string',
      array: true,
      describe: `change a limit, name=value (repeatable): ${DEVICE_LIMITS.map((l) => l.name).join(', ')} (docs/limits.md)`,
    },
    'digest-replay': {
      choices: ['lenient', 'strict'] as const,
      default: 'lenient' as const,
      describe: 'strict refuses a repeated digest nc',
    },
    ...tlsFlags('cert', 'key', 'serve HTTPS/WSS with a self-signed certificate made at start'),
    persona: {
      type: 'string',
      describe: `device family to look like, setting the four flags below together: ${personaHelp()} (default: svc); or a persona FILE made by bwc-emu clone, to answer as that device`,
    },
    'cgi-prefix': {
      type: 'string',
      describe: "CGI path prefix (default: the persona's, /svc-cgi; a real device family uses /axis-cgi)",
    },
    'ws-prefix': {
      type: 'string',
      describe: "event stream path prefix (default: the persona's, /svc; real devices: /vapix)",
    },
    realm: {
      type: 'string',
      describe: "digest realm (default: the persona's word and the serial, e.g. SVC_ACCC8E000001)",
    },
    namespace: {
      type: 'string',
      describe:
        "word published for the scenarios' tnsvendor: topic prefix, e.g. tnsaxis (default: the persona's); filters may still write tnsvendor:",
    },
    'session-token-format': {
      choices: SESSION_TOKEN_FORMATS,
      describe:
        "how wssession.cgi writes tokens: decimal (19 digits, as real devices; beyond 2^53) or alphanumeric (32 letters and digits) (default: the persona's, decimal)",
    },
    'ws-deflate': { type: 'boolean', default: false, describe: 'offer permessage-deflate on the event stream' },
    timestamps: {
      type: 'string',
      default: 'utc',
      describe: 'notification timestamps: utc, none, or local:+HH:MM (device clock in local time)',
    },
    'state-dir': { type: 'string', describe: 'keep feature flag values here across restarts' },
    devices: numberFlag('devices', 'number', {
      describe:
        `a fleet: run this many devices (1-${MAX_DEVICES}) with serials counting up, on --port, --port + 1, ...; ` +
        'with --address-range, every device on --port of its own address',
    }),
    'address-range': {
      type: 'string',
      requiresArg: true,
      describe:
        'address mode: device i at this IPv4 address + i (e.g. 127.1.0.1: 127.1.0.1, 127.1.0.2, ...), all on --port, as cameras are reached; 127.0.0.0/8 needs no set-up on Linux',
    },
    'device-index-base': numberFlag('device-index-base', 'number', {
      default: 0,
      describe: 'index of the first device: its serial is --serial + this (disjoint serials for several processes)',
    }),
    control: {
      type: 'boolean',
      default: true,
      describe: 'serve the control API at /_emu on every device, loopback only without a token (--no-control: off)',
    },
    'control-token': {
      type: 'string',
      describe: 'open the control API to any address with Authorization: Bearer TOKEN',
    },
    'ready-file': {
      type: 'string',
      describe: 'once every device listens, write the ready document (JSON: devices, control) here',
    },
    ...logFlags('info'),
    ...gradingFlags(),
  };
}

/** `svc (/svc-cgi, /svc, SVC_<serial>, tnsvendor), axis (...)`: the presets, for `--help`. */
function personaHelp(): string {
  return PERSONA_NAMES.map((name) => {
    const p = PERSONAS[name];
    return `${name} (${p.cgiPrefix}, ${p.wsPrefix}, ${p.realmWord}_<serial>, ${p.namespace})`;
  }).join(', ');
}

/** The flags as yargs parses them. */
export interface DeviceArgs extends GradingArgs {
  scenario?: string[];
  watch: boolean;
  connectionFile?: string;
  speed: number;
  seed: number;
  /** Undefined when not given: {@link DEFAULT_PORT}, or the emulator's 80/443 in address mode. */
  port?: number;
  host: string;
  allowedHost?: string[];
  serial?: string;
  model?: string;
  firmware?: string;
  discoveryAuth: 'anonymous' | 'required';
  user: string;
  password: string;
  account?: string[];
  limit?: string[];
  auth: AuthMode;
  basicOverHttp: boolean;
  digestAlgorithms: string;
  digestReplay: 'lenient' | 'strict';
  tls: boolean;
  cert?: string;
  key?: string;
  /** A persona's name, or a persona file's path. */
  persona?: string;
  cgiPrefix?: string;
  wsPrefix?: string;
  realm?: string;
  namespace?: string;
  sessionTokenFormat?: SessionTokenFormat;
  stateDir?: string;
  wsDeflate: boolean;
  timestamps: string;
  devices?: number;
  addressRange?: string;
  deviceIndexBase: number;
  control: boolean;
  controlToken?: string;
  readyFile?: string;
  'log-level': LogLevel;
  'log-format'?: 'pretty' | 'json';
}
