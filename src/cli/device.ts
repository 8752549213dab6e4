/**
 * `bwc-emu [options]`: runs devices playing scenarios until Ctrl+C. A thin shell over
 * {@link startEmulator}: parse the flags (./device-flags) into options
 * (./device-options-from), start, say it is ready (./ready), print the banner, wait for the
 * stop signal, close.
 */
import yargs, { type Options } from 'yargs';
import { type ConnectionFile, type EmulatorHandle, EmulatorError, startEmulator } from '../index';
import { devicesBanner } from './banner';
import { secretsView } from './credentials';
import { type DeviceArgs, deviceFlags, DEVICE_USAGE } from './device-flags';
import { type FlagOptions, optionsFromFlags } from './device-options-from';
import { type CliIo, parseCommandLine, readConnectionFile, sayConnectionFile, tlsPairProblem } from './parse';
import { type LogSink, openLogFile } from './log-file';
import { startProgress } from './start-progress';
import {
  type LogGate,
  logGate,
  type ReadyDocument,
  readyDocument,
  readyLine,
  removeReadyFile,
  writeReadyFile,
} from './ready';

/** What the emulator does once ready: serve until a stop signal (`bwc-emu`), or run a command (`bwc-emu run`). */
export interface DeviceMode {
  /** The command's name in help and errors. */
  name: string;
  /** Replaces the usage text. */
  usage?: string;
  /** Options of this command only (`bwc-emu run`'s report flags). */
  options?: Record<string, Options>;
  /**
   * Whether stdout belongs to someone else (`bwc-emu run`'s command): the emulator's log
   * lines then go to stderr or `--log-file`, and the ready line to stderr.
   */
  stdoutTaken?: boolean;
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

/** Serve until stopped. */
const SERVE: DeviceMode = { name: 'bwc-emu' };

/** The flags and what they ask for, once everything the command line alone can refuse is checked. */
interface Prepared {
  args: DeviceArgs;
  /** Every parsed option, the mode's own included. */
  all: Record<string, unknown>;
  options: FlagOptions;
  connection: ConnectionFile | undefined;
  /** Holds log lines until the ready line is out. */
  logs: ReturnType<typeof logGate>;
  /** Where the log lines go. */
  sink: LogSink;
}

/** Runs `bwc-emu [options]`; resolves to the exit code. */
export async function deviceCommand(argv: string[], io: CliIo, mode: DeviceMode = SERVE): Promise<number> {
  const prepared = await prepare(argv, io, mode);
  if (typeof prepared === 'number') return prepared;
  try {
    return await serve(prepared, io, mode);
  } finally {
    prepared.sink.close();
  }
}

/** Starts the emulator the prepared flags ask for, says it is ready, serves or runs the mode's command, closes. */
async function serve(prepared: Prepared, io: CliIo, mode: DeviceMode): Promise<number> {
  const { args, logs } = prepared;
  // Listen for the stop signal before anything is printed: a supervisor may signal
  // as soon as it reads the banner.
  const stopped = io.stopSignal();
  const emulator = await start(prepared, io);
  if (typeof emulator === 'number') return emulator;
  const ready = readyDocument(emulator);
  const say = mode.stdoutTaken ? io.err : io.out;
  if (!(await announceReady(ready, args.readyFile, emulator, { ...io, out: say }, logs))) return 1;
  const code = mode.whileRunning
    ? await mode.whileRunning({ ready, readyFile: args.readyFile, stopped, emulator, args: prepared.all })
    : await serveUntilStopped(prepared, emulator, stopped, io);
  await emulator.close();
  if (args.readyFile !== undefined) await removeReadyFile(args.readyFile).catch(() => undefined);
  return code;
}

/** Parses and checks the flags, removes an old ready file, reads the connection file; or the exit code. */
async function prepare(argv: string[], io: CliIo, mode: DeviceMode): Promise<Prepared | number> {
  const parser = yargs(argv)
    .scriptName(mode.name)
    .usage(mode.usage ?? DEVICE_USAGE)
    .options(deviceFlags())
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
  let sink: LogSink | undefined;
  let options: FlagOptions;
  let logs: LogGate;
  try {
    sink = logSink(parsed.args, io, mode);
    // Log lines wait until the ready line is out: it is the first line on stdout.
    logs = logGate(sink.write);
    options = await optionsFromFlags(args, io, logs.write);
  } catch (err) {
    sink?.close();
    io.err(`bwc-emu: ${parsed.explain((err as Error).message)}\n`);
    return 2;
  }
  if (args.readyFile !== undefined) {
    // A ready file left by an earlier run must not say this one is ready.
    const removed = await removeReadyFile(args.readyFile).then(
      () => undefined,
      (err: Error) => err.message,
    );
    if (removed !== undefined) {
      sink.close();
      io.err(`bwc-emu: --ready-file ${args.readyFile}: cannot remove the old one: ${removed}\n`);
      return 2;
    }
  }
  const connection =
    args.connectionFile === undefined
      ? undefined
      : sayConnectionFile(await readConnectionFile(args.connectionFile), 'bwc-emu', io);
  if (args.connectionFile === undefined || connection !== undefined)
    return { args, all: parsed.args, options, connection, logs, sink };
  sink.close();
  return 2;
}

/** Where the log lines go: stdout's log writer, or (stdout taken) `--log-file` or stderr; throws naming the flag. */
function logSink(args: Record<string, unknown>, io: CliIo, mode: DeviceMode): LogSink {
  if (!mode.stdoutTaken) return { write: io.log ?? io.out, close: () => undefined };
  const file = args['log-file'];
  return typeof file === 'string' ? openLogFile(file) : { write: io.err, close: () => undefined };
}

/** Starts the emulator the flags ask for; or the exit code (2 for a refusal, 1 for a crash). */
async function start({ args, options, connection, logs }: Prepared, io: CliIo): Promise<EmulatorHandle | number> {
  const progress = startProgress(io.err, io.errIsTty ?? false, args.devices ?? 0);
  try {
    const emulator = await startEmulator({
      scenarios: args.scenario,
      device: options.device,
      speed: args.speed,
      seed: args.seed,
      ...options.fleet,
      ...(options.grading === undefined ? {} : { grading: options.grading }),
      // Only files named on the command line are watched, not the shipped default.
      watch: args.watch,
      ...(connection ? { connection } : {}),
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
      onReload: (reload) => {
        if (!reload.ok)
          io.err(
            `${reload.error.message}\nbwc-emu: ${reload.error.file} has errors; the last good version keeps running\n`,
          );
      },
    });
    progress.end();
    return emulator;
  } catch (err) {
    progress.end();
    logs.open();
    if (!(err instanceof EmulatorError)) {
      io.err(`bwc-emu: ${(err as Error).stack}\n`);
      return 1;
    }
    io.err(`bwc-emu: ${err.message}\n`);
    return 2;
  }
}

/**
 * Writes the ready file (if asked), then the ready line, then lets the held log lines out;
 * false (the emulator closed) when the ready file cannot be written.
 */
async function announceReady(
  ready: ReadyDocument,
  readyFile: string | undefined,
  emulator: EmulatorHandle,
  io: CliIo,
  logs: Prepared['logs'],
): Promise<boolean> {
  if (readyFile !== undefined) {
    try {
      await writeReadyFile(readyFile, ready);
    } catch (err) {
      logs.open();
      io.err(`bwc-emu: --ready-file ${readyFile}: cannot write it: ${(err as Error).message}\n`);
      await emulator.close();
      return false;
    }
  }
  io.out(readyLine(ready));
  logs.open();
  return true;
}

/** Prints the banner for a person, then waits for the stop signal; resolves to 0. */
async function serveUntilStopped(
  { args, connection }: Prepared,
  emulator: EmulatorHandle,
  stopped: Promise<string>,
  io: CliIo,
): Promise<number> {
  // The banner is for a person: on stdout at a terminal, else on stderr (stdout is for programs).
  const human = io.isTty ? io.out : io.err;
  const read =
    connection && args.connectionFile !== undefined ? { file: connection, path: args.connectionFile } : undefined;
  human(devicesBanner(emulator.devices, args.speed, read, secretsView(args, io.isTty)));
  human(`\n${await stopped}: stopping\n`);
  return 0;
}
