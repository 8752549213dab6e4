/**
 * `bwc-emu destination`: runs the reference content destination and prints what a
 * newcomer needs: the auth URL, the login, a connection file, commands to try.
 */
import yargs from 'yargs';
import { type CliIo, logFlags, loggerFor, parseCommandLine, tlsFlags, tlsFrom, tlsPairProblem } from './parse';
import { destinationBanner } from './banner';
import { secretsView } from './credentials';
import {
  CAPABILITY_NAMES,
  type CapabilityName,
  type DestinationHandle,
  type DestinationOptions,
  type DestinationUser,
  EmulatorError,
  type FaultRule,
  type Result,
  startDestination,
} from '../index';
import { checkRule } from '../destination/faults';
import { parseDuration } from '../base/duration';
import { writeFileAtomic } from '../base/atomic-file';
import { parseSize } from '../base/size';
import { numberFlag } from './number-flag';

/** Runs `bwc-emu destination ...` (argv after the word); resolves to the exit code. */
export async function destinationCommand(argv: string[], io: CliIo): Promise<number> {
  const parser = destinationParser(argv);
  const parsed = await parseCommandLine(parser, argv, 'bwc-emu destination', io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args;

  let options: DestinationOptions;
  try {
    options = {
      port: args.port,
      host: args.host,
      dataDir: args['data-dir'],
      users: users(args.user ?? [], args.key ?? [], args['read-only'] ?? []),
      licences: args.licences,
      quotaBytes: args.quota === undefined ? undefined : valueOf(parseSize(args.quota, '--quota')),
      maxObjectBytes: valueOf(parseSize(args['max-object-size'], '--max-object-size')),
      tokenLifetimeMs: durationMs(args['token-ttl'], '--token-ttl'),
      stalledAfterMs: positiveDurationMs(args['stalled-after'], '--stalled-after'),
      capabilities: Object.fromEntries((args['disable-capability'] ?? []).map((name) => [capabilityName(name), false])),
      faults: (args.fault ?? []).map(parseFault),
      tls: await tlsFrom(args.tls, args['tls-cert'], args['tls-key']),
      publicUrl: args['public-url'],
      basicOverHttp: args['basic-over-http'],
      logger: loggerFor(args, io),
    };
  } catch (err) {
    io.err(`bwc-emu destination: ${(err as Error).message}\n`);
    return 2;
  }
  const stopped = io.stopSignal();
  let destination: DestinationHandle;
  try {
    destination = await startDestination(options);
  } catch (err) {
    io.err(`bwc-emu destination: ${err instanceof EmulatorError ? err.message : (err as Error).stack}\n`);
    return err instanceof EmulatorError ? 2 : 1;
  }
  if (args['connection-file']) {
    try {
      await writeFileAtomic(args['connection-file'], `${JSON.stringify(destination.connectionFile(), null, 2)}\n`);
    } catch (err) {
      await destination.close();
      io.err(`bwc-emu destination: cannot write the connection file: ${(err as Error).message}\n`);
      return 1;
    }
  }
  io.out(
    destinationBanner(destination, {
      connectionFile: args['connection-file'],
      temporaryDataDir: !args['data-dir'],
      view: secretsView(args, io.isTty),
    }),
  );
  const signal = await stopped;
  io.out(`\n${signal}: stopping\n`);
  await destination.close();
  return 0;
}

/** Pairs `--user` and `--key` by position; marks the `--read-only` ones. */
function users(names: string[], keys: string[], readOnly: string[]): DestinationUser[] | undefined {
  for (const name of readOnly) if (!names.includes(name)) throw new Error(`--read-only ${name}: no such --user`);
  if (names.length === 0) return undefined;
  return names.map((user, i) => ({ user, key: keys[i], readOnly: readOnly.includes(user) }));
}

/** `status=503,share=0.1,path=/v1/AUTH_bws,methods=PUT+POST,latency=200ms,times=3` -> a fault rule. */
export function parseFault(text: string): FaultRule {
  const rule: Record<string, unknown> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (name === 'status' || name === 'share' || name === 'times') rule[name] = Number(value);
    else if (name === 'path') rule.pathPrefix = value;
    else if (name === 'methods') rule.methods = value.split('+').filter(Boolean);
    else if (name === 'latency') rule.latencyMs = durationMs(value, '--fault latency');
    else throw new Error(`--fault "${text}": unknown part "${name}" (status, share, path, methods, latency, times)`);
  }
  return valueOf(checkRule(rule), `--fault "${text}": `);
}

function durationMs(text: string, flag: string): number {
  return valueOf(parseDuration(text), `${flag}: `);
}

function positiveDurationMs(text: string, flag: string): number {
  const ms = durationMs(text, flag);
  if (ms <= 0) throw new Error(`${flag}: must be longer than 0 (e.g. 60s or 5m)`);
  return ms;
}

/** The value of a flag that parsed; else throws its message after `prefix`, for the one-line refusal. */
function valueOf<T>(result: Result<T>, prefix = ''): T {
  if (!result.ok) throw new Error(`${prefix}${result.error.message}`);
  return result.value;
}

function capabilityName(name: string): CapabilityName {
  if (!(CAPABILITY_NAMES as readonly string[]).includes(name))
    throw new Error(`--disable-capability ${name}: unknown (known: ${CAPABILITY_NAMES.join(', ')})`);
  return name as CapabilityName;
}

/** The parser of `bwc-emu destination`'s flags (also read for where a misplaced option belongs). */
export function destinationParser(argv: string[]) {
  return yargs(argv)
    .scriptName('bwc-emu destination')
    .usage(
      '$0 [--data-dir DIR] [--port 8090] [--user NAME --key KEY]...\n\n' +
        'Runs the reference content destination: the OpenStack Swift subset a body worn system\n' +
        'uploads recordings to (GET /auth/v1.0, PUT/POST/HEAD/GET under /v1/{account}), with\n' +
        'the body worn rules (registered users and cameras, licences, recording checks).\n' +
        'Swift features it does not implement (large objects, copies, ACLs, expiry...) are\n' +
        'refused with 501; GET /info lists what is served, GET /healthcheck answers OK, and\n' +
        'GET / shows the recordings in a browser (log in with a user and its key).',
    )
    .option('data-dir', {
      alias: 'd',
      type: 'string',
      describe: 'where objects are stored, kept across restarts (default: a new temporary directory, removed at stop)',
    })
    .option(
      'port',
      numberFlag('port', 'port', { alias: 'p', default: 8090, describe: 'TCP port (0 picks a free one)' }),
    )
    .option('host', {
      type: 'string',
      default: '127.0.0.1',
      describe: 'address to listen on (0.0.0.0 for every interface)',
    })
    .option('user', {
      alias: 'u',
      type: 'string',
      array: true,
      describe: 'login name (repeatable, paired with --key in order; "acct:name" logs into AUTH_acct; default: bws)',
    })
    .option('key', {
      alias: 'k',
      type: 'string',
      array: true,
      describe: 'key of the --user at the same position (default: secret)',
    })
    .option('read-only', {
      type: 'string',
      array: true,
      describe: 'a --user that may only read (403 on writes; repeatable)',
    })
    .option(
      'licences',
      numberFlag('licences', 'number', {
        describe: 'licences per account for users and for cameras (402 beyond; default unlimited)',
      }),
    )
    .option('quota', {
      type: 'string',
      describe: 'bytes each account may store, e.g. 500MB or 2GiB (507 beyond; default unlimited)',
    })
    .option('max-object-size', { type: 'string', default: '5GiB', describe: 'largest single object (413 beyond)' })
    .option('token-ttl', { type: 'string', default: '15m', describe: 'auth token lifetime, e.g. 15m or 30s' })
    .option('stalled-after', {
      type: 'string',
      default: '60s',
      describe: 'the recordings page shows a transferring upload as stalled after this long without progress',
    })
    .option('disable-capability', {
      type: 'string',
      array: true,
      describe: `publish this capability as false (repeatable): ${CAPABILITY_NAMES.join(', ')}`,
    })
    .option('fault', {
      type: 'string',
      array: true,
      describe:
        'inject a fault, e.g. status=503,share=0.1 or status=507,path=/v1/AUTH_bws/Users or latency=200ms,methods=PUT (repeatable)',
    })
    .options(
      tlsFlags(
        'tls-cert',
        'tls-key',
        'serve HTTPS with a self-signed certificate made at start (printed as base64 PEM)',
      ),
    )
    .option('public-url', {
      type: 'string',
      describe: 'base URL to put in X-Storage-Url (default: the one the client used)',
    })
    .option('connection-file', { type: 'string', describe: 'also write a connection file for the first user here' })
    .option('basic-over-http', {
      type: 'boolean',
      default: false,
      describe:
        'let the recordings page and /_emu/faults accept Basic on plain HTTP too, where it sends the key in clear (default: digest only without TLS)',
    })
    .options(logFlags('info', 'log verbosity (debug shows every request)'))
    .check((args) => {
      const tlsProblem = tlsPairProblem('tls-cert', args['tls-cert'], 'tls-key', args['tls-key']);
      if (tlsProblem) throw new Error(tlsProblem);
      if ((args.user?.length ?? 0) !== (args.key?.length ?? 0))
        throw new Error('give one --key for each --user, in the same order');
      return true;
    })
    .strict()
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, process.stdout.columns || 100));
}
