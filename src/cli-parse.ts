/** Parsing a command line with yargs the way every `bwc-emu` command does: no exits, one-line errors. */
import type { Argv } from 'yargs';

/** Parsed flags, or the exit code when help was printed (0) or the flags were refused (2). */
export type ParseOutcome<T> = { ok: true; args: T } | { ok: false; code: number };

/**
 * Parses `argv` with `parser`; prints `--help` to `out`, or a refusal as one line on
 * `err` ("bwc-emu record: Missing required argument: out") with where to find help.
 */
export async function parseCommandLine<T>(
  parser: Argv<T>,
  argv: string[],
  command: string,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<ParseOutcome<T>> {
  let failure: string | undefined;
  let help = '';
  let args: T | undefined;
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
    io.err(
      `${command}: ${(failure ?? 'invalid arguments').replace(/\s*\n\s*/g, ' ').trim()}\nRun '${command} --help' for the options.\n`,
    );
    return { ok: false, code: 2 };
  }
  if (help) {
    io.out(`${help}\n`);
    return { ok: false, code: 0 };
  }
  return { ok: true, args };
}
