/**
 * Every fault switch has an end-to-end test: the names in the `describeFault(...)` calls of
 * this folder's test files are exactly the catalogue's switches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FAULT_NAMES } from '../../../src';

/** The first argument of each describeFault call, as a quoted string. */
const CALL = /\bdescribeFault\(\s*(['"`])([^'"`]+)\1/g;

function describedSwitches(): { names: Set<string>; files: string[] } {
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.test.ts') && f !== basename(__filename));
  const names = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(join(__dirname, file), 'utf8').matchAll(CALL)) names.add(match[2]);
  return { names, files };
}

describe('fault switch coverage', () => {
  it('finds the e2e test files', () => {
    expect(describedSwitches().files.length).toBeGreaterThan(0);
  });

  it('every switch in FAULT_CATALOGUE has an end-to-end test, and every describeFault names a switch', () => {
    const { names } = describedSwitches();
    const switches = new Set<string>(FAULT_NAMES);
    const untested = FAULT_NAMES.filter((name) => !names.has(name));
    const notSwitches = [...names].filter((name) => !switches.has(name)).sort();
    expect({ untested, notSwitches }).toEqual({ untested: [], notSwitches: [] });
  });
});
