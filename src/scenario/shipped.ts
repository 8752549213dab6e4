/**
 * The scenarios shipped in the package's `scenarios/` folder, found by name: `motion`
 * is `scenarios/motion.yaml`, and so is `motion.yaml` unless the working directory has
 * one; anything with a `/` is a path.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Where the shipped scenarios are (two levels above `src/scenario/` and `dist/scenario/`). */
export const SHIPPED_SCENARIOS_DIR = join(__dirname, '..', '..', 'scenarios');

/** A shipped scenario: its name, its one-line description and its file. */
export interface ShippedScenario {
  name: string;
  description: string;
  file: string;
}

/**
 * The file of a scenario: `motion` names a shipped one; so does `motion.yaml` when the
 * working directory has no such file. Paths (with a `/`) and unknown names are returned as they are.
 */
export function scenarioPath(nameOrPath: string): string {
  if (nameOrPath.includes('/') || nameOrPath.includes('\\')) return nameOrPath;
  const isFileName = /\.ya?ml$/i.test(nameOrPath);
  if (isFileName && existsSync(nameOrPath)) return nameOrPath;
  const shipped = join(SHIPPED_SCENARIOS_DIR, isFileName ? nameOrPath : `${nameOrPath}.yaml`);
  return existsSync(shipped) ? shipped : nameOrPath;
}

/** Every shipped scenario, by name. */
export function shippedScenarios(): ShippedScenario[] {
  return readdirSync(SHIPPED_SCENARIOS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const file = join(SHIPPED_SCENARIOS_DIR, f);
      const description = /^description:\s*(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      return { name: basename(f, '.yaml'), description, file };
    });
}
