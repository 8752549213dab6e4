/** The version of the installed bwc-emu package, read once from its package.json. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** `0.1.0`, or `unknown` when no package.json of bwc-emu is found above this file. */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  cached = 'unknown';
  // src/base (ts-jest, ts-node) and dist/base (the build) both sit two levels below the package root.
  for (let dir = __dirname, i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'bwc-emu' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // Not here: look one level up.
    }
  }
  return cached;
}
