/**
 * The Node versions `engines` names are the ones the package installs on: every runtime
 * dependency in package-lock.json (direct or not) accepts the oldest of them, so
 * `npm install --engine-strict` of the packed tarball succeeds there (zod-openapi 6 asked
 * for Node >= 22.14 while we said >= 20: every install printed EBADENGINE).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// semver is npm's own range logic (here through jest and dependency-cruiser).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const ROOT = join(__dirname, '..', '..');

/** A package-lock.json entry, as far as this test reads it. */
interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  engines?: { node?: string };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

it('every runtime dependency accepts the oldest Node that engines names', () => {
  const oldest = semver.minVersion(pkg.engines.node)?.version;
  expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
    .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(oldest!, entry.engines.node))
    .map(
      ([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${entry.engines!.node}`,
    );
  expect(refusing).toEqual([]);
});
