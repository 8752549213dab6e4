#!/usr/bin/env node
/**
 * `npm run fuzz -- [cases] [surface...] [--cases N] [--seed N] [--batch N] [--jest-flags...]`:
 * runs the robustness suite in test/fuzz with N cases per surface (FUZZ_CASES, 2000 by
 * default), a seed (FUZZ_SEED; the same seed checks the same cases) and cases per
 * health check (FUZZ_BATCH), then prints the outcomes of every surface. A word picks
 * surfaces by file name (`authorization`, `frames`); other flags go to Jest (give their
 * values with `=`, e.g. `--maxWorkers=1`: a lone number is the case count). Exits
 * with Jest's status.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const USAGE = 'usage: npm run fuzz -- [cases] [surface...] [--cases N] [--seed N] [--batch N] [--jest-flags...]';

/** Splits the arguments into the fuzz settings and the rest (for Jest). */
function parseArgs(args) {
  const settings = { cases: 2000, seed: undefined, batch: undefined };
  const surfaces = [];
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (flag === '--cases' || flag === '--seed' || flag === '--batch') {
      const text = inline ?? args[++i];
      settings[flag.slice(2)] = wholeNumber(flag, text);
    } else if (/^\d+$/.test(arg)) {
      settings.cases = wholeNumber('cases', arg);
    } else if (!arg.startsWith('-')) {
      surfaces.push(arg);
    } else {
      rest.push(arg);
    }
  }
  return { settings, surfaces, rest };
}

function wholeNumber(name, text) {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(value)) {
    process.stderr.write(`${name} needs a whole number, not ${JSON.stringify(text)}\n${USAGE}\n`);
    process.exit(2);
  }
  return value;
}

/** The per-surface tables, from the files each surface wrote. */
function formatTallies(dir) {
  const records = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
  const lines = [];
  let total = 0;
  for (const r of records) {
    total += r.cases;
    lines.push(`${r.surface}: ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s (seed ${r.seed})`);
    for (const [outcome, n] of Object.entries(r.outcomes))
      lines.push(`  ${outcome.padEnd(36)} ${String(n).padStart(8)}  ${((100 * n) / Math.max(1, r.cases)).toFixed(1)}%`);
  }
  lines.push(`${records.length} surfaces, ${total} cases`);
  return lines.join('\n');
}

function main() {
  const { settings, surfaces, rest } = parseArgs(process.argv.slice(2));
  const tallyDir = mkdtempSync(join(tmpdir(), 'bwc-fuzz-tally-'));
  const env = { ...process.env, FUZZ_CASES: String(settings.cases), FUZZ_TALLY_DIR: tallyDir };
  if (settings.seed !== undefined) env.FUZZ_SEED = String(settings.seed);
  if (settings.batch !== undefined) env.FUZZ_BATCH = String(settings.batch);
  const seed = settings.seed ?? process.env.FUZZ_SEED ?? 'default';
  process.stdout.write(`fuzz: ${settings.cases} cases per surface, seed ${seed}\n`);
  const started = Date.now();
  const jest = require.resolve('jest/bin/jest');
  // Jest runs a file matching any pattern, so each surface's pattern carries the directory.
  const escaped = surfaces.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const patterns = escaped.length ? escaped.map((word) => `test/fuzz/.*${word}`) : ['test/fuzz/'];
  const run = spawnSync(process.execPath, [jest, '--testPathPatterns', ...patterns, ...rest], {
    cwd: join(__dirname, '..'),
    env,
    stdio: 'inherit',
  });
  process.stdout.write(`\n${formatTallies(tallyDir)}\nin ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  rmSync(tallyDir, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}

main();
