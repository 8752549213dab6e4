#!/usr/bin/env node
/**
 * Adds the other platforms' optional native packages (@swc/core-darwin-arm64, ...) to
 * package-lock.json when the registry this lock was made against does not serve them.
 *
 * Why: `npm install` here cannot fetch metadata for foreign-platform binaries, so it leaves
 * them out of the lock, and `npm ci` then refuses the lock as out of sync. Entries marked
 * optional with their os/cpu let `npm ci` skip them on this platform and fetch them on the
 * platform they are for. Run it after any `npm install` that rewrites the lock:
 *   node scripts/complete-lockfile.js
 */
'use strict';
const fs = require('fs');
const path = require('path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  freebsd: 'freebsd',
  android: 'android',
  openharmony: 'openharmony',
};
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
};

/** Reads os, cpu and libc from a platform package name such as `core-linux-arm-gnueabihf`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS[p]);
  const cpu =
    parts.find((p) => CPU[p]) ??
    (parts.includes('gnueabihf') || parts.includes('musleabihf') || parts.includes('eabi') ? 'arm' : undefined);
  const libc = parts.some((p) => p.startsWith('musl'))
    ? ['musl']
    : parts.some((p) => p.startsWith('gnu'))
      ? ['glibc']
      : undefined;
  return os && cpu ? { os, cpu, libc } : undefined;
}

let added = 0;
// New entries go at the end: npm reads the lock in any order and sorts it on its next write.
for (const [where, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${where ? `${where}/` : ''}node_modules/${dep}`.replace(/^\/+/, '');
    const hoisted = `node_modules/${dep}`;
    if (packages[key] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue; // not a platform binary: leave it for npm to resolve
    packages[hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: platform.libc } : {}),
    };
    added++;
  }
}
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} foreign-platform entries`);
