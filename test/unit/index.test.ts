/**
 * The public face loads its modules on first use (src/index.ts): every value it declares is
 * there, is the value of the module it comes from, and is named where Node's ESM loader
 * looks for it; requiring the face, or starting a destination or a device through it,
 * loads no more than that server needs (issue 17: idle memory).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as face from '../../src';

const ROOT = join(__dirname, '../..');
const SOURCE = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');

/** `import type * as Name from './path'` of src/index.ts: module name -> path. */
const MODULES = new Map([...SOURCE.matchAll(/^import type \* as (\w+) from '(.+)';$/gm)].map((m) => [m[1], m[2]]));

/** `export declare const name: typeof Module.name` of src/index.ts. */
const DECLARED = [...SOURCE.matchAll(/^export declare const (\w+): typeof (\w+)\.(\w+);$/gm)].map((m) => ({
  name: m[1],
  module: m[2],
  member: m[3],
}));

describe('the lazily loaded values of the public face', () => {
  it('are each the value of the module they name, under the same name', () => {
    expect(DECLARED.length).toBeGreaterThan(30);
    for (const { name, module, member } of DECLARED) {
      expect({ name, member }).toEqual({ name, member: name });
      const path = MODULES.get(module);
      if (path === undefined) throw new Error(`${name}: no \`import type * as ${module}\` in src/index.ts`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded = require(join(ROOT, 'src', path)) as Record<string, unknown>;
      const value = (face as Record<string, unknown>)[name];
      expect({ name, defined: value !== undefined, same: value === loaded[member] }).toEqual({
        name,
        defined: true,
        same: true,
      });
    }
  });

  it('are each named by an `exports.name =` placeholder, for the ESM loader', () => {
    const lines = SOURCE.split('\n').filter((line) => /^\s*exports\./.test(line));
    const placeholders = new Set(lines.flatMap((line) => [...line.matchAll(/exports\.(\w+) =/g)].map((m) => m[1])));
    expect(DECLARED.map((d) => d.name).filter((name) => !placeholders.has(name))).toEqual([]);
    expect([...placeholders].filter((name) => !DECLARED.some((d) => d.name === name))).toEqual([]);
  });
});

/**
 * For `node -e`: requires src/index.ts (compiled on load with @swc/core, as Jest does), runs
 * the step named by argv[1], and prints the packages and src folders then loaded.
 */
const PROBE = `
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative, sep } = require('node:path');
require('./test/helpers/register-ts.js');
// Paths from the repository's root (the working directory), so that a clone under a folder
// named src or node_modules is not mistaken for the sources or a package.
const loaded = () => {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const parts = relative(process.cwd(), file).split(sep);
    const nm = parts.lastIndexOf('node_modules');
    if (nm >= 0) names.add(parts[nm + 1]);
    else if (parts[0] === 'src') names.add('src/' + parts[1].replace(/\\.ts$/, ''));
  }
  return [...names].sort();
};
(async () => {
  const face = require('./src/index.ts');
  const step = process.argv[1];
  if (step === 'destination') {
    const dataDir = mkdtempSync(join(tmpdir(), 'bwc-face-'));
    const d = await face.startDestination({ port: 0, dataDir, logLevel: 'silent' });
    await d.close();
    rmSync(dataDir, { recursive: true, force: true });
  } else if (step === 'device') {
    const d = await face.startDevice({ port: 0, logLevel: 'silent' });
    await d.close();
  }
  console.log(JSON.stringify(loaded()));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

function loadedBy(step: string): string[] {
  const child = spawnSync(process.execPath, ['-e', PROBE, step], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(child.stdout) as string[];
}

describe('what the public face loads', () => {
  it('loads no server, no schema library, no logger when it is only required', () => {
    const loaded = loadedBy('nothing');
    expect(loaded).toContain('src/index'); // the sources are found at all
    for (const heavy of ['express', 'pino', 'zod', 'yaml', 'ws', 'selfsigned', 'src/destination', 'src/device'])
      expect(loaded).not.toContain(heavy);
  }, 70_000);

  // A server loads zod: its journal's entries are zod schemas (src/base/journal-entries.ts).
  it('loads neither the control API, TLS generation nor the device for a destination', () => {
    const loaded = loadedBy('destination');
    expect(loaded).toEqual(expect.arrayContaining(['express', 'pino', 'src/destination']));
    for (const heavy of ['zod-openapi', 'yaml', 'selfsigned', 'ws', 'yargs', 'src/control', 'src/device'])
      expect(loaded).not.toContain(heavy);
  }, 70_000);

  it('loads neither the control API, TLS generation nor the destination for a device', () => {
    const loaded = loadedBy('device');
    expect(loaded).toEqual(expect.arrayContaining(['express', 'ws', 'src/device']));
    for (const heavy of ['zod-openapi', 'yaml', 'selfsigned', 'yargs', 'src/control', 'src/destination'])
      expect(loaded).not.toContain(heavy);
  }, 70_000);
});
