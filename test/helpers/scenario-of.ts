/** A scenario written inline in a test. */
import { loadScenario } from '../../src/scenario/load';
import type { Scenario } from '../../src/scenario/schema';

/** The scenario of these YAML lines (or of one YAML text); throws every error, one a line. */
export function scenarioOf(...lines: string[]): Scenario {
  const loaded = loadScenario(`${lines.join('\n')}\n`, 'test.yaml');
  if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
  return loaded.value;
}
