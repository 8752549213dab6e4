/**
 * A map or a list used as a map key (`{ topic: a }: 1`, `? [a]`) is an error of the file at
 * its line and column, not a process warning: yaml turned such keys into their text with
 * "Keys with collection values will be stringified", printed by every test run that fed
 * the loader odd YAML (33-44 times), and the key then read as a name nobody wrote.
 */
import { loadScenario, loadScenarioFile } from '../../../src/scenario/load';
import { shippedScenarios } from '../../../src/scenario/shipped';

/** The process warnings and console.warn lines printed while `run` runs. */
async function warningsOf(run: () => unknown): Promise<string[]> {
  const seen: string[] = [];
  const emit = jest.spyOn(process, 'emitWarning').mockImplementation((w) => void seen.push(String(w)));
  const warn = jest.spyOn(console, 'warn').mockImplementation((w) => void seen.push(String(w)));
  try {
    await run();
  } finally {
    emit.mockRestore();
    warn.mockRestore();
  }
  return seen;
}

/** The errors of a scenario as `code line:col: message`. */
function errorsOf(text: string): string[] {
  const result = loadScenario(text, 'demo.yaml');
  if (result.ok) throw new Error('expected errors, but the scenario loaded');
  return result.error.errors.map((e) => `${e.code} ${e.line}:${e.col}: ${e.message}`);
}

it('reports a map or a list as a key at its position, without a warning', async () => {
  let errors: string[] = [];
  const warnings = await warningsOf(() => {
    errors = [
      ...errorsOf('{ topic: a }: 1\n'),
      ...errorsOf('timeline:\n  - emit: { topic: a }\n    ? [x, y]\n    : 1\n'),
      ...errorsOf('a: &k { b: 1 }\n*k : 2\n'),
    ];
  });
  expect(errors).toEqual([
    'WRONG_TYPE 1:1: a key must be a word or a number, not a map',
    'WRONG_TYPE 3:7: a key must be a word or a number, not a list',
    'WRONG_TYPE 2:1: a key must be a word or a number, not a map',
  ]);
  expect(warnings).toEqual([]);
});

it('loads every shipped scenario without a warning', async () => {
  const warnings = await warningsOf(async () => {
    for (const { file } of shippedScenarios()) expect((await loadScenarioFile(file)).ok).toBe(true);
  });
  expect(warnings).toEqual([]);
});
