/**
 * The `bwc-emu` command line: parses flags (yargs) and calls the public API.
 * Prints what a newcomer needs on start; one-line errors for bad flags.
 */
import yargs from 'yargs';
import { type Account, DEFAULT_ACCOUNT, parseAccount } from './auth/accounts';
import { AUTH_MODES, type AuthMode } from './auth/authenticator';
import { type DigestAlgorithm, DIGEST_ALGORITHMS } from './auth/digest';
import { type DeviceHandle, startDevice } from './device/device';
import type { DeviceOptions } from './device/device-options';
import { loadCertificate } from './base/tls';
import { parseCommandLine } from './cli-parse';
import { destinationCommand } from './cli-destination';
import { recordCommand } from './cli-record';
import { uploadCommand } from './cli-upload';
import { listScenarios, loadForRun, type LoadedScenario, validateCommand } from './cli-scenarios';
import { EmulatorError } from './base/errors';
import { deviceOptionsForScenario, playOnDevice, type ScenarioRun } from './scenario/play-on-device';
import { readConnectionFile, type ConnectionFile } from './protocol/connection-file';
import { type ScenarioWatcher, watchScenario } from './scenario/watcher';
import type { TimestampMode } from './events/event-bus';
import { createLogger, LOG_LEVELS, type LogLevel } from './base/log';

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal: () => Promise<string>;
  isTty: boolean;
}

const defaultIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stopSignal: () =>
    new Promise((resolve) => {
      const stop = (signal: string): void => resolve(signal);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
  isTty: Boolean(process.stdout.isTTY),
};

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  if (argv[0] === 'validate') return validateCommand(argv.slice(1), io.out, io.err);
  if (argv[0] === 'scenarios') return listScenarios(io.out);
  if (argv[0] === 'record') return recordCommand(argv.slice(1), io);
  if (argv[0] === 'destination') return destinationCommand(argv.slice(1), io);
  if (argv[0] === 'upload') return uploadCommand(argv.slice(1), io);
  const parser = yargs(argv)
    .scriptName('bwc-emu')
    .usage(
      "$0 [options]\n$0 validate FILE...   check scenario files (exit 1 with every error)\n$0 scenarios          list the shipped scenarios\n$0 record --url URL --out FILE   record a device's events into a scenario\n$0 destination [--data-dir DIR]  run the reference content destination (Swift subset)\n$0 upload --connection-file FILE   upload recordings to a content destination as a body worn system\n\n" +
        'Runs a simulated body worn camera device: feature flags, session tokens and the\nevent stream behind real HTTP digest authentication, playing a scenario.',
    )
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
    .option('serial', {
      type: 'string',
      describe: "device serial number, also names the digest realm (default: the scenario's, else ACCC8E000001)",
    })
    .option('model', { type: 'string', describe: 'product number the device reports (e.g. W110)' })
    .option('firmware', { type: 'string', describe: 'firmware version the device reports (e.g. 11.11.73)' })
    .option('discovery-auth', {
      choices: ['anonymous', 'required'] as const,
      default: 'anonymous' as const,
      describe: 'whether apidiscovery.cgi needs credentials',
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
      default: 'both' as AuthMode,
      describe: 'accepted schemes; none serves everything without credentials',
    })
    .option('digest-algorithms', {
      type: 'string',
      default: 'MD5',
      describe: `comma-separated, one challenge each: ${DIGEST_ALGORITHMS.join(', ')}`,
    })
    .option('digest-replay', {
      choices: ['lenient', 'strict'] as const,
      default: 'lenient' as const,
      describe: 'strict refuses a repeated digest nc',
    })
    .option('tls', {
      type: 'boolean',
      default: false,
      describe: 'serve HTTPS/WSS with a self-signed certificate made at start',
    })
    .option('cert', { type: 'string', describe: 'PEM certificate file for --tls (with --key)' })
    .option('key', { type: 'string', describe: 'PEM private key file for --tls (with --cert)' })
    .option('cgi-prefix', {
      type: 'string',
      default: '/svc-cgi',
      describe: 'CGI path prefix (a real device family uses /axis-cgi)',
    })
    .option('ws-prefix', {
      type: 'string',
      default: '/svc',
      describe: 'event stream path prefix (real devices: /vapix)',
    })
    .option('ws-deflate', { type: 'boolean', default: false, describe: 'offer permessage-deflate on the event stream' })
    .option('timestamps', {
      type: 'string',
      default: 'utc',
      describe: 'notification timestamps: utc, none, or local:+HH:MM (device clock in local time)',
    })
    .option('state-dir', { type: 'string', describe: 'keep feature flag values here across restarts' })
    .option('log-level', { choices: LOG_LEVELS, default: 'info' as LogLevel, describe: 'log verbosity' })
    .option('log-format', {
      choices: ['pretty', 'json'] as const,
      describe: 'log line format (default: pretty on a terminal, json otherwise)',
    })
    .check((args) => {
      if ((args.cert === undefined) !== (args.key === undefined)) throw new Error('--cert and --key go together');
      return true;
    })
    .strict()
    .help()
    .alias('help', 'h')
    .version()
    .wrap(Math.min(100, process.stdout.columns || 100));
  const parsed = await parseCommandLine(parser, argv, 'bwc-emu', io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args;

  let options: DeviceOptions;
  try {
    options = await deviceOptionsFrom(args as unknown as DeviceArgs, io);
  } catch (err) {
    io.err(`bwc-emu: ${(err as Error).message}\n`);
    return 2;
  }
  const a = args as unknown as DeviceArgs;
  if (!(a.speed > 0)) {
    io.err(`bwc-emu: --speed must be a positive number, not ${a.speed}\n`);
    return 2;
  }
  let scenarios: LoadedScenario[];
  try {
    scenarios = await Promise.all((a.scenario?.length ? a.scenario : ['default']).map(loadForRun));
  } catch (err) {
    io.err(`bwc-emu: ${(err as Error).message}\n`);
    return 2;
  }
  const connection = a.connectionFile === undefined ? undefined : await readConnectionFile(a.connectionFile);
  if (connection !== undefined && !connection.ok) {
    io.err(connection.errors.map((e) => `bwc-emu: ${e}\n`).join(''));
    return 2;
  }
  // Listen for the stop signal before anything is printed: a supervisor may signal
  // as soon as it reads the banner.
  const stopped = io.stopSignal();
  const running: { device: DeviceHandle; run: ScenarioRun; watcher?: ScenarioWatcher }[] = [];
  const stopAll = async (): Promise<void> => {
    for (const { run } of running) run.stop();
    await Promise.all(
      running.map(async ({ device, watcher }) => {
        await watcher?.close();
        await device.close();
      }),
    );
  };
  for (const [i, { file, scenario }] of scenarios.entries()) {
    // One device per scenario: the next ports, and the next serials unless a scenario names its own.
    const base = {
      ...options,
      port: options.port && options.port + i,
      ...(i > 0 && options.serial ? { serial: nextSerial(options.serial, i) } : {}),
    };
    let device: DeviceHandle;
    try {
      device = await startDevice(deviceOptionsForScenario(scenario, base));
    } catch (err) {
      await stopAll();
      io.err(`bwc-emu: ${err instanceof EmulatorError ? err.message : (err as Error).stack}\n`);
      return err instanceof EmulatorError ? 2 : 1;
    }
    const log = options.logger?.child({ device: device.serial, scenario: scenario.name ?? file });
    const playerOptions = {
      speed: a.speed,
      seed: a.seed,
      log: (msg: string, fields?: object) => log?.info(fields ?? {}, msg),
      ...(connection ? { connection: connection.file } : {}),
    };
    const entry: (typeof running)[number] = { device, run: playOnDevice(device, scenario, playerOptions) };
    // Only files named on the command line are watched, not the shipped default.
    if (a.watch && a.scenario?.length) {
      entry.watcher = watchScenario(
        file,
        (reloaded) => {
          entry.run.stop();
          entry.run = playOnDevice(device, reloaded.scenario, playerOptions);
          log?.info({ file }, 'scenario changed: restarted with the new version');
        },
        (errors) => {
          log?.warn(
            { file, errors: errors.map((e) => e.text) },
            'scenario changed but has errors: the last good version keeps running',
          );
          io.err(
            `${errors.map((e) => e.text).join('\n')}\nbwc-emu: ${file} has errors; the last good version keeps running\n`,
          );
        },
        {
          onError: (err) =>
            log?.error({ file, err: err.message }, 'scenario reload failed; the last good version keeps running'),
        },
      );
    }
    running.push(entry);
    await entry.watcher?.ready; // a save right after the banner is seen
    io.out(
      banner(
        device,
        `${scenario.name ?? file} (${file}${a.speed !== 1 ? `, speed ${a.speed}` : ''})`,
        recordingsLine(scenario, connection?.ok ? connection.file : undefined),
      ),
    );
  }
  const signal = await stopped;
  io.out(`\n${signal}: stopping\n`);
  await stopAll();
  return 0;
}

/** `ACCC8E000001` + 2 -> `ACCC8E000003`: the serial of the i-th extra device. */
function nextSerial(serial: string, i: number): string {
  const match = /^(.*?)(\d+)$/.exec(serial);
  if (!match) return `${serial}-${i + 1}`;
  return `${match[1]}${String(Number(match[2]) + i).padStart(match[2].length, '0')}`;
}

/** The flags as yargs parses them. */
interface DeviceArgs {
  scenario?: string[];
  watch: boolean;
  connectionFile?: string;
  speed: number;
  seed: number;
  port: number;
  host: string;
  serial?: string;
  model?: string;
  firmware?: string;
  discoveryAuth: 'anonymous' | 'required';
  user: string;
  password: string;
  account?: string[];
  auth: AuthMode;
  digestAlgorithms: string;
  digestReplay: 'lenient' | 'strict';
  tls: boolean;
  cert?: string;
  key?: string;
  cgiPrefix: string;
  wsPrefix: string;
  stateDir?: string;
  wsDeflate: boolean;
  timestamps: string;
  logLevel: LogLevel;
  logFormat?: 'pretty' | 'json';
}

async function deviceOptionsFrom(args: DeviceArgs, io: CliIo): Promise<DeviceOptions> {
  const accounts: Account[] = [{ name: args.user, password: args.password, role: 'admin' }];
  for (const text of args.account ?? []) {
    const account = parseAccount(text);
    if (typeof account === 'string') throw new Error(`--account: ${account}`);
    accounts.push(account);
  }
  return {
    port: args.port,
    host: args.host,
    serial: args.serial,
    identity: { ...(args.model ? { ProdNbr: args.model } : {}), ...(args.firmware ? { Version: args.firmware } : {}) },
    discoveryAuth: args.discoveryAuth,
    accounts,
    auth: args.auth,
    digestAlgorithms: args.digestAlgorithms
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean) as DigestAlgorithm[],
    digestReplay: args.digestReplay,
    tls: args.cert && args.key ? await loadCertificate(args.cert, args.key) : args.tls,
    cgiPrefix: args.cgiPrefix,
    wsPrefix: args.wsPrefix,
    stateDir: args.stateDir,
    wsDeflate: args.wsDeflate,
    timestamps: parseTimestamps(args.timestamps),
    logger: createLogger({
      level: args.logLevel,
      format: args.logFormat ?? (io.isTty ? 'pretty' : 'json'),
      write: io.out,
    }),
  };
}

/** `utc`, `none` or `local:+02:00` as a {@link TimestampMode}. */
function parseTimestamps(text: string): TimestampMode {
  if (text === 'utc' || text === 'none') return { mode: text };
  const match = /^local:([+-])(\d{1,2}):?(\d{2})?$/.exec(text);
  if (!match) throw new Error(`--timestamps "${text}" must be utc, none or local:+HH:MM`);
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? '0');
  return { mode: 'local', offsetMinutes: match[1] === '-' ? -minutes : minutes };
}

/** Where the scenario's `body-worn:` recordings go, for the banner; undefined when it has none. */
function recordingsLine(
  scenario: LoadedScenario['scenario'],
  connection: ConnectionFile | undefined,
): string | undefined {
  const count = scenario['body-worn']?.recordings.length;
  if (count === undefined) return undefined;
  return connection
    ? `${count} to upload to ${connection.AuthenticationTokenURI[0]} as the scenario plays`
    : `${count} in the scenario, not uploaded (no --connection-file)`;
}

/** What a newcomer needs: where it is, how to log in, one command to try. */
function banner(device: DeviceHandle, scenario: string, recordings?: string): string {
  const o = device.options;
  const admin = o.accounts[0];
  const insecure = device.certificate ? ' -k' : '';
  const flagsUrl = `${device.url}${o.cgiPrefix}/featureflag.cgi`;
  const tokenUrl = `${device.url}${o.cgiPrefix}/wssession.cgi`;
  const streamUrl = `${device.url.replace(/^http/, 'ws')}${o.wsPrefix}/ws-data-stream?sources=events`;
  const curlAuth = `${insecure} --digest -u ${admin?.name}:${admin?.password}`;
  const authLine =
    o.auth === 'none'
      ? 'none: every request is served, no login asked (--auth none)'
      : `${o.auth === 'basic' ? 'basic' : `digest (${o.digestAlgorithms.join(', ')})${o.auth === 'both' ? ' or basic' : ''}`}, realm ${device.realm}`;
  const lines: (string | undefined)[] = [
    '',
    `bwc-emu: device ${device.serial} is running`,
    `  url            ${device.url}`,
    o.auth === 'none'
      ? undefined
      : `  credentials    ${admin?.name} / ${admin?.password} (admin)${o.accounts.length > 1 ? ` and ${o.accounts.length - 1} more account(s)` : ''}`,
    `  auth           ${authLine}`,
    `  feature flags  POST ${flagsUrl}`,
    `  session token  GET  ${tokenUrl}`,
    `  discovery      POST ${device.url}${o.cgiPrefix}/apidiscovery.cgi, basicdeviceinfo.cgi, GET param.cgi`,
    `  event stream   ${streamUrl}`,
    `  scenario       ${scenario}`,
    recordings === undefined ? undefined : `  recordings     ${recordings}`,
    '',
    'Try the feature flags:',
    `  curl${o.auth === 'none' ? insecure : curlAuth} -H 'Content-Type: application/json' \\`,
    `    -d '{"apiVersion":"1.0","context":"try","method":"listAll"}' ${flagsUrl}`,
    o.auth === 'none' ? 'Watch the events:' : 'Watch the events (a token is valid 15 s, once):',
    o.auth === 'none'
      ? `  npx wscat${insecure ? ' -n' : ''} -c '${streamUrl}'`
      : `  npx wscat${insecure ? ' -n' : ''} -c "${streamUrl}&wssession=$(curl -s${curlAuth} ${tokenUrl})"`,
    `  > {"apiVersion":"1.0","context":"try","method":"events:configure","params":{"eventFilterList":[{"topicFilter":"tns1:Device//."}]}}`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ];
  if (o.auth === 'none')
    lines.splice(1, 0, 'WARNING: authentication is OFF (--auth none): anyone who can reach this port has full access.');
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}
