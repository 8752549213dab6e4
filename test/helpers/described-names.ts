/**
 * For coverage tests: the names given to a describe-wrapper (`describeFault`, `describeRule`)
 * in the test files of a folder, read as text, so a catalogue entry without its end-to-end
 * test is found without running anything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The first (quoted) argument of every `call(...)` in `dir`'s test files but `self`, and the files read. */
export function describedNames(dir: string, call: string, self: string): { names: Set<string>; files: string[] } {
  const pattern = new RegExp(`\\b${call}\\(\\s*(['"\`])([^'"\`]+)\\1`, 'g');
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts') && f !== basename(self));
  const names = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(pattern)) names.add(match[2]);
  return { names, files };
}
