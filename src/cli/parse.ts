/**
 * What every `bwc-emu` command shares: where it writes ({@link CliIo}), parsing its flags
 * with yargs without exits and with one-line errors, and its logger from the log flags.
 */
import { readFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { LOG_LEVELS } from '../base/log';
import { loadCertificate } from '../base/tls';
import {
  type ConnectionFile,
  type ConnectionFileResult,
  createLogger,
  type Logger,
  type LogLevel,
  parseConnectionFile,
  type TlsMaterial,
} from '../index';
import { connectionFileError } from '../protocol/connection-file';
import { type Settings, withSettings } from './settings';

/** Where a command writes and how it learns to stop; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Log lines for stdout, which may be dropped when too much waits unread; `out` when absent. */
  log?: (line: string) => void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal: () => Promise<string>;
  /** Whether stdout is a terminal (pretty logs, progress bars and the banner on stdout then). */
  isTty: boolean;
  /** Whether stderr is a terminal (a fleet's start-up progress line there then); false when absent. */
  errIsTty?: boolean;
  /** The variables settings are read from (./settings); `process.env` when absent. */
  env?: Record<string, string | undefined>;
}

/**
 * Parsed flags and how to name where a refused value came from (`explain`), or the exit
 * code when help was printed (0) or the flags were refused (2).
 */
export type ParseOutcome<T> = { ok: true; args: T; explain: Settings['explain'] } | { ok: false; code: number };

/**
 * Parses `argv` with `parser` (every option declared), its values also from the
 * `BWC_EMU_*` variables and `--config` (./settings); prints `--help` to `out`, or a
 * refusal as one line on `err` ("bwc-emu record: Missing required argument: out") with
 * where to find help.
 */
export async function parseCommandLine<T>(
  parser: Argv<T>,
  argv: string[],
  command: string,
  io: Pick<CliIo, 'out' | 'err' | 'env'>,
): Promise<ParseOutcome<T>> {
  const settings = withSettings(parser, argv, io.env ?? process.env);
  let failure: string | undefined = settings.problem;
  let help = '';
  let args: T | undefined;
  if (failure === undefined)
    try {
      args = (await parser
        .exitProcess(false)
        .fail((message, err) => {
          failure = message ?? err?.message ?? 'invalid arguments';
        })
        .parseAsync(argv, {}, (_err, _argv, output) => {
          help = output;
        })) as T;
    } catch (err) {
      failure = (err as Error).message;
    }
  if (failure !== undefined || args === undefined) {
    // yargs spreads some messages ("Invalid values: ...") over several lines; a CLI error is one.
    const message = (failure ?? 'invalid arguments').replace(/\s*\n\s*/g, ' ').trim();
    const line = settings.explain(unknownOptions(message, argv, command) ?? message);
    io.err(`${command}: ${line}\nRun '${command} --help' for the options.\n`);
    return { ok: false, code: 2 };
  }
  if (help) {
    io.out(`${help}\n`);
    return { ok: false, code: 0 };
  }
  return { ok: true, args, explain: settings.explain };
}

/** Which commands take an option; set by main.ts, which alone may load every command. */
let commandsTaking: ((option: string) => string[]) | undefined;

/** Lets the refusal of an unknown option say which commands take it (main.ts calls it). */
export function whereOptionsBelong(lookup: (option: string) => string[]): void {
  commandsTaking = lookup;
}

/**
 * yargs' "Unknown arguments: data-dir, dataDir" said once per option, with the commands it
 * belongs to ("unknown option --data-dir: it is an option of bwc-emu destination"); undefined
 * for any other message.
 */
function unknownOptions(message: string, argv: readonly string[], command: string): string | undefined {
  const listed = /^Unknown arguments?: (.*)$/.exec(message)?.[1].split(', ');
  if (!listed) return undefined;
  const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const names = [...new Set(listed.map((n) => (n.length > 1 && listed.includes(kebab(n)) ? kebab(n) : n)))];
  const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return names
    .map((name) => {
      // A word without dashes on the command line is an argument the command takes none of.
      if (words.includes(name)) return `unexpected argument "${name}"`;
      const flag = `${name.length === 1 ? '-' : '--'}${name}`;
      const owners = (commandsTaking?.(name) ?? []).filter((owner) => owner !== command);
      return owners.length === 0
        ? `unknown option ${flag}`
        : `unknown option ${flag}: it is an option of ${owners.join(' and ')}`;
    })
    .join('; ');
}

/** The `--log-level` and `--log-format` flags, for `parser.options(...)`. */
export function logFlags(defaultLevel: LogLevel, levelHelp = 'log verbosity') {
  return {
    'log-level': { choices: LOG_LEVELS, default: defaultLevel, describe: levelHelp },
    'log-format': {
      choices: ['pretty', 'json'] as const,
      describe: 'log line format (default: pretty on a terminal, json otherwise)',
    },
  };
}

/** A string flag naming a file. */
export interface FileFlag {
  type: 'string';
  describe: string;
}

/**
 * `--tls` (a certificate made at start) and the pair of flags naming PEM files to use
 * instead (`certFlag` and `keyFlag`: each command keeps the names its users know).
 */
export function tlsFlags<C extends string, K extends string>(certFlag: C, keyFlag: K, tlsHelp: string) {
  const files = {
    [certFlag]: { type: 'string', describe: `PEM certificate file to serve instead (with --${keyFlag})` },
    [keyFlag]: { type: 'string', describe: `PEM private key file of that certificate (with --${certFlag})` },
  } as Record<C | K, FileFlag>;
  return { tls: { type: 'boolean' as const, default: false, describe: tlsHelp }, ...files };
}

/** The refusal for a certificate given without its key or the other way round, else undefined. */
export function tlsPairProblem(certFlag: string, cert: unknown, keyFlag: string, key: unknown): string | undefined {
  return (cert === undefined) !== (key === undefined) ? `--${certFlag} and --${keyFlag} go together` : undefined;
}

/** What to serve: the PEM files when both are named, else a made certificate (`true`) or plain HTTP. */
export async function tlsFrom(
  tls: boolean,
  cert: string | undefined,
  key: string | undefined,
): Promise<boolean | TlsMaterial> {
  return cert !== undefined && key !== undefined ? loadCertificate(cert, key) : tls;
}

/** The flags {@link loggerFor} reads. */
export interface LogArgs {
  'log-level': LogLevel;
  'log-format'?: 'pretty' | 'json';
}

/** The log line format the flags ask for: `--log-format`, else pretty on a terminal and JSON otherwise. */
export function logFormat(args: Pick<LogArgs, 'log-format'>, isTty: boolean): 'pretty' | 'json' {
  return args['log-format'] ?? (isTty ? 'pretty' : 'json');
}

/** The logger the log flags ask for, writing to `write` (stdout's log lines by default); pretty on a terminal. */
export function loggerFor(args: LogArgs, io: Pick<CliIo, 'out' | 'log' | 'isTty'>, write = io.log ?? io.out): Logger {
  return createLogger({ level: args['log-level'], format: logFormat(args, io.isTty), write });
}

/** Reads and checks `--connection-file FILE`; every problem names the flag and the file. */
export async function readConnectionFile(path: string): Promise<ConnectionFileResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return connectionFileError('READ_FAILED', [`--connection-file ${path}: cannot read it: ${(err as Error).message}`]);
  }
  return parseConnectionFile(text, `--connection-file ${path}`);
}

/**
 * Says on stderr what is wrong with a connection file (each error) and what in it is
 * ignored (each warning, also for a refused file), prefixed with `command`; returns the
 * file, or undefined when it was refused.
 */
export function sayConnectionFile(
  result: ConnectionFileResult,
  command: string,
  io: Pick<CliIo, 'err'>,
): ConnectionFile | undefined {
  if (!result.ok) io.err(result.error.errors.map((e) => `${command}: ${e}\n`).join(''));
  const warnings = result.ok ? result.warnings : (result.error.warnings ?? []);
  io.err(warnings.map((w) => `${command}: warning: ${w}\n`).join(''));
  return result.ok ? result.value : undefined;
}
