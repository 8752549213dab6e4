/** `bwc-emu validate FILE...`: checks scenario files and prints every error as `file:line:col: message`. */
import yargs from 'yargs';
import { loadScenarioFile } from '../index';
import { scenarioPath } from '../scenario/shipped';
import { type CliIo, parseCommandLine } from './parse';

const COMMAND = 'bwc-emu validate';

/** Every error of every file; exit 1 when any has one, 2 when no file is named. */
export async function validateCommand(argv: string[], io: CliIo): Promise<number> {
  // Parsed like every command, so `--help` prints help instead of being read as a file.
  const parser = yargs(argv)
    .scriptName(COMMAND)
    .usage('$0 FILE...\n\nChecks scenario files (or shipped scenario names) and prints every error as file:line:col.')
    .strictOptions() // the files are positional: strict() would refuse them
    .help()
    .alias('help', 'h');
  const parsed = await parseCommandLine(parser, argv, COMMAND, io);
  if (!parsed.ok) return parsed.code;
  const files = (parsed.args as { _: (string | number)[] })._.map(String);
  if (files.length === 0) {
    io.err(`${COMMAND}: name at least one scenario file, e.g. '${COMMAND} scenarios/*.yaml'\n`);
    return 2;
  }
  let failed = 0;
  for (const name of files) {
    const result = await loadScenarioFile(scenarioPath(name));
    if (result.ok) {
      io.out(`${name}: ok${result.value.name ? ` (${result.value.name})` : ''}\n`);
    } else {
      failed++;
      io.err(`${result.error.message}\n`);
    }
  }
  if (failed > 0) io.err(`${failed} of ${files.length} scenario file(s) have errors\n`);
  return failed > 0 ? 1 : 0;
}
