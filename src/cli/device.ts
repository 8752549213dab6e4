/**
 * `bwc-emu [options]`: runs devices playing scenarios until Ctrl+C. A thin shell over
 * {@link startEmulator}: parse the flags, start, say it is ready (./ready), print the
 * banner, wait for the stop signal, close.
 */
import { DEVICE_LIMITS, type DeviceLimits } from '../device/device-limits';
import yargs, { type Options } from 'yargs';
import { type Account, DEFAULT_ACCOUNT, parseAccount } from '../auth/accounts';
import { AUTH_MODES, type AuthMode } from '../auth/authenticator';
import { type DigestAlgorithm, DIGEST_ALGORITHMS } from '../auth/digest';
import { EmulatorError } from '../base/errors';
import type { LogLevel } from '../base/log';
import { type DeviceOptions, PERSONA_NAMES, PERSONAS, type PersonaName } from '../device/device-options';
import { type EmulatorHandle, type EmulatorOptions, MAX_DEVICES, startEmulator } from '../emulator/start-emulator';
import type { TimestampMode } from '../events/event-bus';
import { devicesBanner } from './banner';
import { secretsView } from './credentials';
import { type GradingArgs, gradingFlags, gradingFrom } from './grading-flags';
import {
  type CliIo,
  logFlags,
  loggerFor,
  parseCommandLine,
  readConnectionFile,
  sayConnectionFile,
  tlsFlags,
  tlsFrom,
  tlsPairProblem,
} from './parse';
import { logGate, type ReadyDocument, readyDocument, readyLine, removeReadyFile, writeReadyFile } from './ready';

/** Runs `bwc-emu [options]`; resolves to the exit code. */
export async function deviceCommand(argv: string[], io: CliIo, mode: DeviceMode = SERVE): Promise<number> {
  const parser = yargs(argv)
    .scriptName(mode.name)
    .usage(mode.usage ?? DEVICE_USAGE)
    .option('scenario', {
      alias: 's',
      type: 'string',
      array: true,
      describe: 'scenario file or shipped name, one device each (repeatable; default: default)',
    })
    .option('speed', { type: 'number', default: 1, describe: 'scenario playback speed (2 = twice as fast)' })
    .option('seed', { type: 'number', default: 1, describe: 'seed of the scenario jitter, for reproducible runs' })
    .option('watch', {
      type: 'boolean',
      default: true,
      describe: 'reload a --scenario file when it is saved (--no-watch to turn off)',
    })
    .option('connection-file', {
      type: 'string',
      describe: "upload the scenario's body-worn: recordings to this content destination as it plays",
    })
    .option('port', { alias: 'p', type: 'number', default: 8080, describe: 'TCP port (0 picks a free one)' })
    .option('host', {
      type: 'string',
      default: '127.0.0.1',
      describe: 'address to listen on (0.0.0.0 for every interface)',
    })
    .option('allowed-host', {
      type: 'string',
      array: true,
      describe:
        'a Host name the dashboard and control API also answer under besides localhost, 127.0.0.1, ::1 and ' +
        '--host (DNS rebinding; .example.test: the names under it too; repeatable)',
    })
    .option('serial', {
      type: 'string',
      describe: "device serial number, also names the digest realm (default: the scenario's, else ACCC8E000001)",
    })
    .option('model', { type: 'string', describe: 'product number the device reports (e.g. W110)' })
    .option('firmware', { type: 'string', describe: 'firmware version the device reports (e.g. 11.11.73)' })
    .option('discovery-auth', {
      choices: ['anonymous', 'required'] as const,
      default: 'anonymous' as const,
      describe: 'whether apidiscovery.cgi and basicdeviceinfo.cgi getAllUnrestrictedProperties need credentials',
    })
    .option('user', { alias: 'u', type: 'string', default: DEFAULT_ACCOUNT.name, describe: 'admin user name' })
    .option('password', { type: 'string', default: DEFAULT_ACCOUNT.password, describe: 'admin password' })
    .option('account', {
      type: 'string',
      array: true,
      describe: 'extra account name:password[:viewer|operator|admin] (repeatable)',
    })
    .option('auth', {
      choices: AUTH_MODES,
      default: 'both',
      describe:
        'accepted schemes: both is digest, and Basic too over TLS or with --basic-over-http; basic alone is Basic even on plain HTTP; none serves everything without credentials',
    })
    .option('basic-over-http', {
      type: 'boolean',
      default: false,
      describe:
        'with --auth both, accept Basic on plain HTTP too, where it sends the password in clear (default: digest only without --tls)',
    })
    .option('digest-algorithms', {
      type: 'string',
      default: 'MD5',
      describe: `comma-separated, one challenge each: ${DIGEST_ALGORITHMS.join(', ')}`,
    })
    .option('limit', {
      type: 'string',
      array: true,
      describe: `change a limit, name=value (repeatable): ${DEVICE_LIMITS.map((l) => l.name).join(', ')} (docs/limits.md)`,
    })
    .option('digest-replay', {
      choices: ['lenient', 'strict'] as const,
      default: 'lenient' as const,
      describe: 'strict refuses a repeated digest nc',
    })
    .options(tlsFlags('cert', 'key', 'serve HTTPS/WSS with a self-signed certificate made at start'))
    .option('persona', {
      choices: PERSONA_NAMES,
      describe: `device family to look like, setting the four flags below together: ${personaHelp()} (default: svc)`,
    })
    .option('cgi-prefix', {
      type: 'string',
      describe: "CGI path prefix (default: the persona's, /svc-cgi; a real device family uses /axis-cgi)",
    })
    .option('ws-prefix', {
      type: 'string',
      describe: "event stream path prefix (default: the persona's, /svc; real devices: /vapix)",
    })
    .option('realm', {
      type: 'string',
      describe: "digest realm (default: the persona's word and the serial, e.g. SVC_ACCC8E000001)",
    })
    .option('namespace', {
      type: 'string',
      describe:
        "word published for the scenarios' tnsvendor: topic prefix, e.g. tnsaxis (default: the persona's); filters may still write tnsvendor:",
    })
    .option('ws-deflate', { type: 'boolean', default: false, describe: 'offer permessage-deflate on the event stream' })
    .option('timestamps', {
      type: 'string',
      default: 'utc',
      describe: 'notification timestamps: utc, none, or local:+HH:MM (device clock in local time)',
    })
    .option('state-dir', { type: 'string', describe: 'keep feature flag values here across restarts' })
    .option('devices', {
      type: 'number',
      describe: `a fleet: run this many devices (1-${MAX_DEVICES}) on --port, --port + 1, ... with serials counting up`,
    })
    .option('device-index-base', {
      type: 'number',
      default: 0,
      describe: 'index of the first device: its serial is --serial + this (disjoint serials for several processes)',
    })
    .option('control', {
      type: 'boolean',
      default: true,
      describe: 'serve the control API at /_emu on every device, loopback only without a token (--no-control: off)',
    })
    .option('control-token', {
      type: 'string',
      describe: 'open the control API to any address with Authorization: Bearer TOKEN',
    })
    .option('ready-file', {
      type: 'string',
      describe: 'once every device listens, write the ready document (JSON: devices, control) here',
    })
    .options(logFlags('info'))
    .options(gradingFlags())
    .options(mode.options ?? {})
    .check((args) => {
      const tlsProblem = tlsPairProblem('cert', args.cert, 'key', args.key);
      if (tlsProblem) throw new Error(tlsProblem);
      return true;
    })
    .strict()
    .help()
    .alias('help', 'h')
    .version()
    .wrap(Math.min(100, process.stdout.columns || 100));
  const parsed = await parseCommandLine(parser, argv, mode.name, io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args as unknown as DeviceArgs;

  // Log lines wait until the ready line is out: it is the first line on stdout.
  const logs = logGate(io.log ?? io.out);
  let options: DeviceOptions;
  let fleet: Pick<EmulatorOptions, 'devices' | 'deviceIndexBase' | 'control'>;
  let grading: EmulatorOptions['grading'];
  try {
    options = await deviceOptionsFrom(args, io, logs.write);
    fleet = fleetOptions(args);
    grading = gradingFrom(args);
  } catch (err) {
    io.err(`bwc-emu: ${(err as Error).message}\n`);
    return 2;
  }
  if (!(args.speed > 0)) {
    io.err(`bwc-emu: --speed must be a positive number, not ${args.speed}\n`);
    return 2;
  }
  const readyFile = args.readyFile;
  if (readyFile !== undefined) {
    // A ready file left by an earlier run must not say this one is ready.
    const removed = await removeReadyFile(readyFile).then(
      () => undefined,
      (err: Error) => err.message,
    );
    if (removed !== undefined) {
      io.err(`bwc-emu: --ready-file ${readyFile}: cannot remove the old one: ${removed}\n`);
      return 2;
    }
  }
  const connection =
    args.connectionFile === undefined
      ? undefined
      : sayConnectionFile(await readConnectionFile(args.connectionFile), 'bwc-emu', io);
  if (args.connectionFile !== undefined && connection === undefined) return 2;
  // Listen for the stop signal before anything is printed: a supervisor may signal
  // as soon as it reads the banner.
  const stopped = io.stopSignal();
  let emulator: EmulatorHandle;
  try {
    emulator = await startEmulator({
      scenarios: args.scenario,
      device: options,
      speed: args.speed,
      seed: args.seed,
      ...fleet,
      ...(grading === undefined ? {} : { grading }),
      // Only files named on the command line are watched, not the shipped default.
      watch: args.watch,
      ...(connection ? { connection } : {}),
      onReload: (reload) => {
        if (!reload.ok)
          io.err(
            `${reload.error.message}\nbwc-emu: ${reload.error.file} has errors; the last good version keeps running\n`,
          );
      },
    });
  } catch (err) {
    logs.open();
    if (!(err instanceof EmulatorError)) {
      io.err(`bwc-emu: ${(err as Error).stack}\n`);
      return 1;
    }
    io.err(`bwc-emu: ${err.message}\n`);
    return 2;
  }
  const ready = readyDocument(emulator);
  if (readyFile !== undefined) {
    try {
      await writeReadyFile(readyFile, ready);
    } catch (err) {
      logs.open();
      io.err(`bwc-emu: --ready-file ${readyFile}: cannot write it: ${(err as Error).message}\n`);
      await emulator.close();
      return 1;
    }
  }
  io.out(readyLine(ready));
  logs.open();
  // The banner is for a person: on stdout at a terminal, else on stderr (stdout is for programs).
  const human = io.isTty ? io.out : io.err;
  let code = 0;
  if (mode.whileRunning) {
    code = await mode.whileRunning({ ready, readyFile, stopped, emulator, args: parsed.args });
  } else {
    const read =
      connection && args.connectionFile !== undefined ? { file: connection, path: args.connectionFile } : undefined;
    human(devicesBanner(emulator.devices, args.speed, read, secretsView(args, io.isTty)));
    human(`\n${await stopped}: stopping\n`);
  }
  await emulator.close();
  if (readyFile !== undefined) await removeReadyFile(readyFile).catch(() => undefined);
  return code;
}

/** What the emulator does once ready: serve until a stop signal (`bwc-emu`), or run a command (`bwc-emu run`). */
export interface DeviceMode {
  /** The command's name in help and errors. */
  name: string;
  /** Replaces the usage text. */
  usage?: string;
  /** Options of this command only (`bwc-emu run`'s report flags). */
  options?: Record<string, Options>;
  /** Runs while the emulator is up, instead of the banner and the wait for a stop signal; resolves to the exit code. */
  whileRunning?: (running: {
    ready: ReadyDocument;
    readyFile: string | undefined;
    stopped: Promise<string>;
    emulator: EmulatorHandle;
    /** Every parsed option, the command's own included. */
    args: Record<string, unknown>;
  }) => Promise<number>;
}

/** What `bwc-emu --help` says first. */
const DEVICE_USAGE =
  "$0 [options]\n$0 validate FILE...   check scenario files (exit 1 with every error)\n$0 scenarios          list the shipped scenarios\n$0 record --url URL --out FILE   record a device's events into a scenario\n$0 destination [--data-dir DIR]  run the reference content destination (Swift subset)\n$0 upload --connection-file FILE   upload recordings to a content destination as a body worn system\n$0 run [options] -- COMMAND   run a test command against the emulator, exit with its code\n\n" +
  'Runs a simulated body worn camera device: feature flags, session tokens and the\nevent stream behind real HTTP digest authentication, playing a scenario.';

/** Serve until stopped. */
const SERVE: DeviceMode = { name: 'bwc-emu' };

/** `--devices`, `--device-index-base` and the control flags as emulator options; throws for a conflict of flags. */
function fleetOptions(args: DeviceArgs): Pick<EmulatorOptions, 'devices' | 'deviceIndexBase' | 'control'> {
  // The values are checked by startEmulator; here only what exists on the command line alone.
  const token = args.controlToken;
  if (token !== undefined && !args.control)
    throw new Error('--control-token has no use with --no-control; give one or the other');
  if (args.basicOverHttp && (args.auth === 'digest' || args.auth === 'none'))
    throw new Error(`--basic-over-http has no use with --auth ${args.auth}; give --auth both (or basic) with it`);
  if (args.readyFile !== undefined && (typeof args.readyFile !== 'string' || args.readyFile === ''))
    throw new Error('--ready-file needs one file name');
  return {
    ...(args.devices === undefined ? {} : { devices: args.devices }),
    deviceIndexBase: args.deviceIndexBase,
    control: args.control ? (token === undefined ? {} : { token: String(token) }) : false,
  };
}

/** The flags as yargs parses them. */
interface DeviceArgs extends GradingArgs {
  scenario?: string[];
  watch: boolean;
  connectionFile?: string;
  speed: number;
  seed: number;
  port: number;
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
  persona?: PersonaName;
  cgiPrefix?: string;
  wsPrefix?: string;
  realm?: string;
  namespace?: string;
  stateDir?: string;
  wsDeflate: boolean;
  timestamps: string;
  devices?: number;
  deviceIndexBase: number;
  control: boolean;
  controlToken?: string;
  readyFile?: string;
  'log-level': LogLevel;
  'log-format'?: 'pretty' | 'json';
}

/** The device options the flags ask for, logging through `writeLog`; throws naming the flag. */
async function deviceOptionsFrom(
  args: DeviceArgs,
  io: CliIo,
  writeLog: (line: string) => void,
): Promise<DeviceOptions> {
  const accounts: Account[] = [{ name: args.user, password: args.password, role: 'admin' }];
  for (const text of args.account ?? []) {
    const account = parseAccount(text);
    if (typeof account === 'string') throw new Error(`--account: ${account}`);
    accounts.push(account);
  }
  return {
    port: args.port,
    host: args.host,
    ...(args.allowedHost?.length ? { allowedHosts: args.allowedHost.map(String) } : {}),
    serial: args.serial,
    identity: { ...(args.model ? { ProdNbr: args.model } : {}), ...(args.firmware ? { Version: args.firmware } : {}) },
    discoveryAuth: args.discoveryAuth,
    accounts,
    auth: args.auth,
    basicOverHttp: args.basicOverHttp,
    limits: parseLimits(args.limit ?? []),
    digestAlgorithms: args.digestAlgorithms
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean) as DigestAlgorithm[],
    digestReplay: args.digestReplay,
    tls: await tlsFrom(args.tls, args.cert, args.key),
    // Only what the command line names: the rest comes from the persona (see resolveDeviceOptions).
    ...(args.persona === undefined ? {} : { persona: args.persona }),
    ...(args.cgiPrefix === undefined ? {} : { cgiPrefix: args.cgiPrefix }),
    ...(args.wsPrefix === undefined ? {} : { wsPrefix: args.wsPrefix }),
    ...(args.realm === undefined ? {} : { realm: String(args.realm) }),
    ...(args.namespace === undefined ? {} : { namespace: String(args.namespace) }),
    stateDir: args.stateDir,
    wsDeflate: args.wsDeflate,
    timestamps: parseTimestamps(args.timestamps),
    logger: loggerFor(args, io, writeLog),
  };
}

/** `svc (/svc-cgi, /svc, SVC_<serial>, tnsvendor), axis (...)`: the presets, for `--help`. */
function personaHelp(): string {
  return PERSONA_NAMES.map((name) => {
    const p = PERSONAS[name];
    return `${name} (${p.cgiPrefix}, ${p.wsPrefix}, ${p.realmWord}_<serial>, ${p.namespace})`;
  }).join(', ');
}

/** `utc`, `none` or `local:+02:00` as a {@link TimestampMode}. */
function parseTimestamps(text: string): TimestampMode {
  if (text === 'utc' || text === 'none') return { mode: text };
  const match = /^local:([+-])(\d{1,2}):?(\d{2})?$/.exec(text);
  if (!match) throw new Error(`--timestamps "${text}" must be utc, none or local:+HH:MM`);
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? '0');
  return { mode: 'local', offsetMinutes: match[1] === '-' ? -minutes : minutes };
}

/** `--limit name=value` flags as device limits; throws naming the flag for a malformed one (values are checked at start). */
function parseLimits(texts: readonly string[]): DeviceLimits {
  const limits: Record<string, number> = {};
  for (const text of texts) {
    const match = /^([A-Za-z]+)=(\d+)$/.exec(text.trim());
    if (!match)
      throw new Error(
        `--limit "${text}" must be name=whole-number, e.g. --limit maxSessionsPerAccount=50 (see docs/limits.md)`,
      );
    limits[match[1]] = Number(match[2]);
  }
  return limits;
}
