/**
 * What the flags of `bwc-emu [options]` (./device-flags) ask the emulator for: its
 * {@link EmulatorOptions}, or the refusal naming the flag at fault. Values are checked by
 * startEmulator; here only what the command line alone can tell.
 */
import { isIPv4 } from 'node:net';
import { parseAccount } from '../auth/accounts';
import {
  type Account,
  type DeviceLimits,
  type DeviceOptions,
  type DigestAlgorithm,
  type EmulatorOptions,
  type GradingOptions,
  loadPersonaFile,
  PERSONA_NAMES,
  type PersonaFile,
  type PersonaName,
  type TimestampMode,
} from '../index';
import { type DeviceArgs, DEFAULT_PORT } from './device-flags';
import { gradingFrom } from './grading-flags';
import { type CliIo, loggerFor, tlsFrom } from './parse';

/** The emulator options of the flags (scenarios and what is read later aside). */
export interface FlagOptions {
  device: DeviceOptions;
  fleet: Pick<EmulatorOptions, 'devices' | 'addressRange' | 'deviceIndexBase' | 'control'>;
  grading: GradingOptions | undefined;
}

/** The options the flags ask for, logging through `writeLog`; throws naming the flag. */
export async function optionsFromFlags(
  args: DeviceArgs,
  io: CliIo,
  writeLog: (line: string) => void,
): Promise<FlagOptions> {
  const options = {
    device: await deviceOptionsFrom(args, io, writeLog),
    fleet: fleetOptions(args),
    grading: gradingFrom(args),
  };
  if (!(args.speed > 0)) throw new Error(`--speed must be a positive number, not ${args.speed}`);
  return options;
}

/** `--devices`, `--device-index-base` and the control flags as emulator options; throws for a conflict of flags. */
function fleetOptions(args: DeviceArgs): FlagOptions['fleet'] {
  const token = args.controlToken;
  if (token !== undefined && !args.control)
    throw new Error('--control-token has no use with --no-control; give one or the other');
  if (args.basicOverHttp && (args.auth === 'digest' || args.auth === 'none'))
    throw new Error(`--basic-over-http has no use with --auth ${args.auth}; give --auth both (or basic) with it`);
  if (args.readyFile !== undefined && (typeof args.readyFile !== 'string' || args.readyFile === ''))
    throw new Error('--ready-file needs one file name');
  return {
    ...(args.devices === undefined ? {} : { devices: args.devices }),
    ...(args.addressRange === undefined ? {} : { addressRange: checkedAddressRange(args) }),
    deviceIndexBase: args.deviceIndexBase,
    control: args.control ? (token === undefined ? {} : { token: String(token) }) : false,
  };
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
    // Address mode leaves an unset port to the emulator: 80, or 443 with TLS, as cameras are reached.
    ...(args.port !== undefined || args.addressRange === undefined ? { port: args.port ?? DEFAULT_PORT } : {}),
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
    ...(args.persona === undefined ? {} : { persona: personaFrom(args.persona) }),
    ...(args.cgiPrefix === undefined ? {} : { cgiPrefix: args.cgiPrefix }),
    ...(args.wsPrefix === undefined ? {} : { wsPrefix: args.wsPrefix }),
    ...(args.realm === undefined ? {} : { realm: String(args.realm) }),
    ...(args.namespace === undefined ? {} : { namespace: String(args.namespace) }),
    ...(args.sessionTokenFormat === undefined ? {} : { sessionTokenFormat: args.sessionTokenFormat }),
    stateDir: args.stateDir,
    wsDeflate: args.wsDeflate,
    timestamps: parseTimestamps(args.timestamps),
    logger: loggerFor(args, io, writeLog),
  };
}

/**
 * `--address-range START` once the command line alone finds nothing wrong with it: an IPv4
 * address from which the fleet's addresses stay in IPv4 (whether they are this machine's is
 * startEmulator's to say). Throws naming the flag.
 */
function checkedAddressRange(args: DeviceArgs): string {
  const start = String(args.addressRange);
  if (!isIPv4(start))
    throw new Error(
      `--address-range "${start}" must be an IPv4 address, the first device's (e.g. --address-range 127.1.0.1)`,
    );
  const count = args.devices ?? Math.max(1, args.scenario?.length ?? 1);
  const first = start.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  if (first + count - 1 > 0xffffffff)
    throw new Error(
      `--address-range ${start} with ${count} devices goes past 255.255.255.255 (the last IPv4 address); ` +
        'start lower (e.g. --address-range 127.1.0.1)',
    );
  return start;
}

/**
 * `--persona`: a persona's name as it is, anything else a persona file's path, loaded (throws
 * naming the flag and the file's errors).
 */
function personaFrom(value: string): PersonaName | PersonaFile {
  if ((PERSONA_NAMES as readonly string[]).includes(value)) return value as PersonaName;
  const loaded = loadPersonaFile(value);
  if (loaded.ok) return loaded.value;
  const names = PERSONA_NAMES.join(', ');
  throw new Error(`--persona "${value}" is neither a persona (${names}) nor a persona file: ${loaded.error.message}`);
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
