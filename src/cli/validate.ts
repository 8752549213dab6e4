/** `bwc-emu validate FILE...`: checks scenario files and prints every error as `file:line:col: message`. */
import { loadScenarioFile } from '../index';
import { scenarioPath } from '../scenario/shipped';
import type { CliIo } from './parse';

/** Every error of every file; exit 1 when any has one, 2 when no file is named. */
export async function validateCommand(files: string[], io: CliIo): Promise<number> {
  if (files.length === 0) {
    io.err("bwc-emu validate: name at least one scenario file, e.g. 'bwc-emu validate scenarios/*.yaml'\n");
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
