/**
 * `bwc-emu run [options] -- COMMAND...`: starts the emulator, runs a test command (in any
 * language) with the emulator's addresses in its environment, stops the emulator when the
 * command ends and exits with the command's code, like `mockttp -c`. Then it grades the
 * client (docs/grading.md): a table of findings on stderr, `--report FILE` (JSON),
 * `--junit FILE` (JUnit XML) and `--fail-on` deciding whether findings fail the run.
 */
import { spawn } from 'node:child_process';
import type { Options } from 'yargs';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../base/atomic-file';
import type { EmulatorHandle } from '../index';
import { reportFails } from '../grading/grade';
import { reportJunit } from '../grading/junit';
import { reportTable } from '../grading/report-table';
import { deviceCommand } from './device';
import type { CliIo } from './parse';
import { type ReadyDocument, writeReadyFile } from './ready';
import { RUN_ENVIRONMENT } from './settings';

const NAME = 'bwc-emu run';

/** The exit code of a run whose command passed but whose client failed the grading (`--fail-on`). */
export const GRADING_FAILED_EXIT = 3;

/** Where the report goes and what fails the run. */
interface ReportArgs {
  report?: string;
  junit?: string;
  failOn: 'error' | 'warning' | 'never';
}

/** The variables the command finds in its environment (documented in docs/testing.md). */
export { RUN_ENVIRONMENT } from './settings';

/** The options of `bwc-emu run` besides every option of `bwc-emu`. */
export const RUN_OPTIONS: Record<string, Options> = {
  'log-file': {
    type: 'string',
    describe: "append the emulator's log lines to this file (default: stderr; stdout is the command's)",
  },
  report: { type: 'string', describe: 'write the grading report (JSON) here when the command ends' },
  junit: {
    type: 'string',
    describe: 'write the grading report as JUnit XML (a test suite per segment, a test case per rule) here',
  },
  'fail-on': {
    choices: ['error', 'warning', 'never'],
    default: 'never',
    describe: `exit ${GRADING_FAILED_EXIT} when the command passed but the client has a finding this severe or worse`,
  },
};

/** Runs `bwc-emu run ...` (argv after the word `run`); resolves to the command's exit code. */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const split = argv.indexOf('--');
  const command = split < 0 ? [] : argv.slice(split + 1);
  const options = split < 0 ? argv : argv.slice(0, split);
  if (command.length === 0 && !options.includes('--help') && !options.includes('-h')) {
    io.err(`${NAME}: name the command to run after --, e.g. '${NAME} --scenario motion -- npm test'\n`);
    return 2;
  }
  return deviceCommand(options, io, {
    name: NAME,
    usage:
      `$0 [options] -- COMMAND [ARGS...]\n\nStarts the emulator (every option of bwc-emu), runs COMMAND once it is ready with\n` +
      `${RUN_ENVIRONMENT.join(', ')}\nin its environment, stops the emulator when it ends and exits with its code.\n` +
      `Then prints what the client did wrong (docs/grading.md), in every segment (a reset between tests\n` +
      `ends one and keeps its findings); with --fail-on, findings that severe (or a broken scenario\n` +
      `expectation) make a passing command's run exit ${GRADING_FAILED_EXIT}.`,
    // The command's stdout is its own: the emulator's log lines go to stderr or --log-file.
    stdoutTaken: true,
    options: RUN_OPTIONS,
    whileRunning: async ({ ready, readyFile, stopped, emulator, args }) => {
      const code = await runWhileReady(command, ready, readyFile, stopped, io);
      const graded = await gradeClient(emulator, args as unknown as ReportArgs, io);
      return code !== 0 ? code : graded;
    },
  });
}

/** Prints the report's table, writes its files; resolves to 0, or the grading failure's exit code. */
async function gradeClient(emulator: EmulatorHandle, args: ReportArgs, io: CliIo): Promise<number> {
  // The command has ended: no retry of a refused request can come any more.
  const report = emulator.report({ clientStopped: true });
  io.err(reportTable(report));
  const files: [string | undefined, string, string][] = [
    [args.report, `${JSON.stringify(report, null, 2)}\n`, '--report'],
    [args.junit, reportJunit(report), '--junit'],
  ];
  let failed = false;
  for (const [file, text, flag] of files) {
    if (file === undefined) continue;
    try {
      await writeFileAtomic(file, text);
    } catch (err) {
      io.err(`${NAME}: ${flag} ${file}: cannot write it: ${(err as Error).message}\n`);
      failed = true;
    }
  }
  if (failed) return 1;
  return reportFails(report, args.failOn) ? GRADING_FAILED_EXIT : 0;
}

/** Runs the command with the emulator's addresses; a stop signal is passed on to it. */
async function runWhileReady(
  command: string[],
  ready: ReadyDocument,
  givenReadyFile: string | undefined,
  stopped: Promise<string>,
  io: CliIo,
): Promise<number> {
  // The command always gets a ready file: for a fleet it is the only way to see every device.
  const dir = givenReadyFile === undefined ? await mkdtemp(join(tmpdir(), 'bwc-emu-run-')) : undefined;
  const readyFile = givenReadyFile ?? join(dir as string, 'ready.json');
  try {
    if (dir !== undefined) await writeReadyFile(readyFile, ready);
    return await spawnCommand(command, environment(ready, readyFile), stopped, io);
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

/** The variables of {@link RUN_ENVIRONMENT} for the first device (the ready file has them all). */
function environment(ready: ReadyDocument, readyFile: string): Record<(typeof RUN_ENVIRONMENT)[number], string> {
  const first = ready.devices[0];
  return {
    BWC_EMU_URL: first.urls.base,
    BWC_EMU_WS_URL: first.urls.eventStream,
    BWC_EMU_USER: first.user ?? '',
    BWC_EMU_PASSWORD: first.password ?? '',
    BWC_EMU_CONTROL_URL: ready.control ?? '',
    BWC_EMU_READY_FILE: readyFile,
  };
}

/** Spawns `command` with the terminal's stdio; resolves to its exit code (128 + signal when killed). */
function spawnCommand(
  command: string[],
  env: Record<string, string>,
  stopped: Promise<string>,
  io: CliIo,
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, ...env } });
    void stopped.then((signal) => child.kill(signal as NodeJS.Signals));
    child.once('error', (err: NodeJS.ErrnoException) => {
      io.err(`${NAME}: cannot run ${command[0]}: ${err.code === 'ENOENT' ? 'command not found' : err.message}\n`);
      resolve(err.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => {
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
