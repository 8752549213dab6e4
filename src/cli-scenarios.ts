/**
 * The scenario side of the command line: finding a scenario by shipped name or
 * path, `bwc-emu validate FILE...` and `bwc-emu scenarios`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadScenarioFile } from './scenario/load';
import type { Scenario } from './scenario/schema';

/** Where the shipped scenarios are (the package's `scenarios/`). */
export const SHIPPED_SCENARIOS_DIR = join(__dirname, '..', 'scenarios');

/** A scenario loaded for a run. */
export interface LoadedScenario {
  file: string;
  scenario: Scenario;
}

/** `motion` names a shipped scenario; anything with a `/` or `.yaml` is a path. */
export function scenarioPath(nameOrPath: string): string {
  if (nameOrPath.includes('/') || nameOrPath.includes('\\') || /\.ya?ml$/i.test(nameOrPath)) return nameOrPath;
  const shipped = join(SHIPPED_SCENARIOS_DIR, `${nameOrPath}.yaml`);
  return existsSync(shipped) ? shipped : nameOrPath;
}

/** Loads a scenario by name or path; rejects with every error, one `file:line:col: message` a line. */
export async function loadForRun(nameOrPath: string): Promise<LoadedScenario> {
  const file = scenarioPath(nameOrPath);
  const result = await loadScenarioFile(file);
  if (!result.ok)
    throw new Error(`scenario ${nameOrPath} has errors:\n${result.errors.map((e) => `  ${e.text}`).join('\n')}`);
  return { file, scenario: result.scenario };
}

/** `bwc-emu validate FILE...`: every error of every file; exit 1 when any has one. */
export async function validateCommand(
  files: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  if (files.length === 0) {
    err("bwc-emu validate: name at least one scenario file, e.g. 'bwc-emu validate scenarios/*.yaml'\n");
    return 2;
  }
  let failed = 0;
  for (const name of files) {
    const result = await loadScenarioFile(scenarioPath(name));
    if (result.ok) {
      out(`${name}: ok${result.scenario.name ? ` (${result.scenario.name})` : ''}\n`);
    } else {
      failed++;
      err(`${result.errors.map((e) => e.text).join('\n')}\n`);
    }
  }
  if (failed > 0) err(`${failed} of ${files.length} scenario file(s) have errors\n`);
  return failed > 0 ? 1 : 0;
}

/** `bwc-emu scenarios`: the shipped scenarios with their descriptions. */
export function listScenarios(out: (text: string) => void): number {
  const files = readdirSync(SHIPPED_SCENARIOS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const rows = files.map((f) => {
    const description = /^description:\s*(.+)$/m.exec(readFileSync(join(SHIPPED_SCENARIOS_DIR, f), 'utf8'))?.[1] ?? '';
    return [basename(f, '.yaml'), description] as const;
  });
  const width = Math.max(...rows.map(([name]) => name.length));
  out(`Shipped scenarios (bwc-emu --scenario NAME), in ${SHIPPED_SCENARIOS_DIR}:\n`);
  for (const [name, description] of rows) out(`  ${name.padEnd(width)}  ${description}\n`);
  return 0;
}
