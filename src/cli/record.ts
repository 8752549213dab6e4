/**
 * `bwc-emu record`: captures a device's event stream into a scenario file, so behaviour
 * seen on hardware can be replayed in CI with `bwc-emu --scenario capture.yaml`.
 */
import { writeFile } from 'node:fs/promises';
import yargs from 'yargs';
import { numberFlag } from './number-flag';
import { type CliIo, parseCommandLine } from './parse';
import { parseDuration } from '../base/duration';
import { RecordError, recordEvents } from '../scenario/recorder';
import { toScenarioYaml } from '../scenario/recording-yaml';

/** Runs `bwc-emu record ...` (argv after the word `record`); resolves to the exit code. */
export async function recordCommand(argv: string[], io: CliIo): Promise<number> {
  const parser = recordParser(argv);
  const parsed = await parseCommandLine(parser, argv, 'bwc-emu record', io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args;
  let durationMs: number | undefined;
  if (args.duration !== undefined) {
    const parsed = parseDuration(args.duration);
    if (!parsed.ok) {
      io.err(`bwc-emu record: --duration: ${parsed.error.message}\n`);
      return 2;
    }
    durationMs = parsed.value;
  }
  const abort = new AbortController();
  void io.stopSignal().then(() => abort.abort());
  io.out(`recording ${args.url} into ${args.out}; press Ctrl+C to stop\n`);
  try {
    const events = await recordEvents({
      url: args.url,
      user: args.user,
      password: args.password,
      token: args.token,
      cgiPrefix: args['cgi-prefix'],
      filters: args.filter,
      durationMs,
      maxEvents: args['max-events'],
      insecure: args.insecure,
      signal: abort.signal,
    });
    await writeFile(args.out, toScenarioYaml(events, { name: 'capture', source: args.url }));
    io.out(`${events.length} events written to ${args.out}; replay with: bwc-emu --scenario ${args.out}\n`);
    return 0;
  } catch (err) {
    io.err(`bwc-emu record: ${failure(err as Error, args.user, args['cgi-prefix'])}\n`);
    return 1;
  }
}

/** Why recording failed, in one line: a refused login says so instead of quoting the device's 401 page. */
function failure(err: Error, user: string, cgiPrefix: string): string {
  // A 401 answered after the credentials were sent (not one the recorder could not answer at all).
  if (!(err instanceof RecordError) || err.status !== 401 || !err.message.includes('HTTP 401')) return err.message;
  const where =
    err.code === 'TOKEN_REFUSED' ? `from ${cgiPrefix.replace(/\/+$/, '')}/wssession.cgi` : 'on the stream handshake';
  return `the device refused the login for user ${user}: wrong user name or password? (HTTP 401 ${where}; --user, --password)`;
}

/** The parser of `bwc-emu record`'s flags (also read for where a misplaced option belongs). */
export function recordParser(argv: string[]) {
  return yargs(argv)
    .scriptName('bwc-emu record')
    .usage(
      '$0 --url ws://HOST/svc/ws-data-stream?sources=events --out capture.yaml [options]\n\nRecords the event stream of a device (real or emulated) into a scenario file.',
    )
    .option('url', { type: 'string', demandOption: true, describe: 'the event stream URL, ws:// or wss://' })
    .option('user', { type: 'string', default: 'root', describe: 'user name' })
    .option('password', { type: 'string', default: 'pass', describe: 'password' })
    .option('token', {
      type: 'boolean',
      default: false,
      describe: 'use a session token from wssession.cgi instead of digest on the handshake',
    })
    .option('cgi-prefix', {
      type: 'string',
      default: '/svc-cgi',
      describe: 'CGI prefix for the token (real devices: /axis-cgi)',
    })
    .option('insecure', { type: 'boolean', default: false, describe: 'accept a self-signed wss/https certificate' })
    .option('filter', { type: 'string', array: true, describe: 'topic filter (repeatable; default: everything)' })
    .option('out', { type: 'string', demandOption: true, describe: 'the scenario file to write' })
    .option('duration', { type: 'string', describe: 'stop after this long, e.g. 60s (default: Ctrl+C)' })
    .option('max-events', numberFlag('max-events', 'number', { describe: 'stop after this many events' }))
    .strict()
    .help();
}
