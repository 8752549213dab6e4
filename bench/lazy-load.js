'use strict';
/**
 * What each lazy `require()` of the package saves: every place that loads a module on first
 * use instead of at start, measured lazy (the build as it is) against eager (the same build
 * with the deferred modules loaded at start), in the same run.
 *
 * Eager is made without another build: the deferred modules are preloaded with `node -r`
 * (as an import at the top of the lazy site's file would load them, before the work starts).
 * Each measurement is a fresh process:
 *  - library cases (this file run with `run KIND`): the package loaded from dist/index.js as
 *    a user's code does, then `require` (nothing more), `destination` (startDestination on a
 *    temp dir) or `device` (startDevice); measured when ready: milliseconds since the process
 *    started (performance.now(), node's own start included) and RSS;
 *  - CLI cases: `node bin/bwc-emu ARGS`, to its exit: milliseconds since the process started
 *    and peak RSS (process.resourceUsage().maxRSS), written by a preloaded probe
 *    (bench/lazy-load-probe.js).
 * The two variants of a case alternate (which goes first rotates every round) for
 * BENCH_ROUNDS rounds (7); the table shows medians, the ratio lazy / eager and the saving.
 *
 * The sites measured are those still lazy, and each module the public face defers alone.
 * Five more were measured lazy against eager in the runs that made them plain imports
 * (bench/README.md, "Lazy loading and shared caches"): the control API in start-emulator.ts
 * (with control: false), zod-openapi in control-router.ts, the fault switches in device.ts,
 * the connection file's parser in destination.ts and the recordings pages in
 * destination-app.ts.
 *
 * A lazy site is worth keeping when one of its cases saves at least 5 % of the time or of
 * the RSS (THRESHOLD), and at least 5 ms or 2 MB (the spread between rounds on this shared
 * machine is about that much); otherwise it is a plain import. The verdicts are printed.
 *
 * Knobs (environment): BENCH_ROUNDS (7), BENCH_LAZY_CASES (all; a comma-separated list of
 * case ids).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { intEnv, listEnv, rotated } = require('./env');
const { figure, median, printAligned } = require('./figures');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PROBE = path.join(__dirname, 'lazy-load-probe.js');
const MiB = 1024 * 1024;
/** The share of a case's time or RSS a lazy site must save to be kept. */
const THRESHOLD = 0.05;
/** ... and at least this much, above the rounds' spread. */
const MIN_MS = 5;
const MIN_MB = 2;

/** The modules src/index.ts loads on first read of one of their exports. */
const INDEX_DEFERRED = [
  'emulator/start-emulator',
  'base/journal',
  'device/device',
  'device/device-options',
  'device/device-limits',
  'protocol/fault-catalogue',
  'device/feature-flags',
  'scenario/load',
  'emulator/play-on-device',
  'destination/destination',
  'destination/destination-options',
  'protocol/connection-file',
  'bws/body-worn-system',
  'bws/conformance',
  'bws/plan',
  'bws/swift-client',
  'bws/retry-policy',
  'auth/digest',
  'auth/digest-client',
  'base/log',
];
/** The command files src/cli/main.ts loads when their command runs. */
const CLI_DEFERRED = ['validate', 'scenarios', 'record', 'destination', 'upload', 'run', 'device'].map(
  (c) => `cli/${c}`,
);

/** Each lazy site, and the cases where its laziness could show (`run`: a library case, `cli`: a command). */
const SITES = [
  {
    site: 'index.ts: exports load their module when read',
    defer: INDEX_DEFERRED,
    cases: [
      { id: 'index-require', run: 'require' },
      { id: 'index-destination', run: 'destination' },
      { id: 'index-device', run: 'device' },
    ],
  },
  {
    site: 'cli/main.ts: a command file loads when its command runs',
    defer: CLI_DEFERRED,
    cases: [
      { id: 'cli-help', cli: ['--help'] },
      { id: 'cli-validate', cli: ['validate', 'scenarios/motion.yaml'] },
      { id: 'cli-scenarios', cli: ['scenarios'] },
    ],
  },
  // Each of the face's lazily loaded modules alone: whether its own laziness pays.
  ...INDEX_DEFERRED.map((m) => ({
    site: `index.ts: ${m} loads when one of its exports is read`,
    defer: [m],
    cases: [{ id: `index:${m}`, run: 'require' }],
  })),
];
const ALL_CASES = SITES.flatMap((s) => s.cases.map((c) => c.id));
const ROUNDS = intEnv('BENCH_ROUNDS', 7);
const ONLY = listEnv('BENCH_LAZY_CASES', ALL_CASES, ALL_CASES);

/** Child side: does the work of `kind`, then prints how long since the process started, and its RSS. */
async function run(kind) {
  const pkg = require(path.join(DIST, 'index.js'));
  let close = async () => undefined;
  let dataDir;
  if (kind === 'destination') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bwc-bench-lazy-'));
    const destination = await pkg.startDestination({ port: 0, dataDir, logger: silent(pkg) });
    close = () => destination.close();
  } else if (kind === 'device') {
    const device = await pkg.startDevice({ port: 0, logger: silent(pkg) });
    close = () => device.close();
  } else if (kind !== 'require') {
    throw new Error(`kind must be require, destination or device, not "${kind}"`);
  }
  const measured = { ms: performance.now(), rss: process.memoryUsage().rss / MiB };
  await close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

/** A logger that writes nothing: the measure is of loading and starting, not of log lines. */
function silent(pkg) {
  return pkg.createLogger({ level: 'silent' });
}

/** `-r` flags preloading `modules` (paths under dist/). */
function preloads(modules) {
  return modules.flatMap((m) => {
    try {
      return ['-r', require.resolve(path.join(DIST, m))];
    } catch {
      throw new Error(`dist/${m} is missing: has a lazy site moved? (bench/lazy-load.js)`);
    }
  });
}

/** One measurement of `theCase`, eager (its site's modules preloaded) or not: { ms, mb }. */
function measure(theCase, defer, eager) {
  const flags = eager ? preloads(defer) : [];
  if (theCase.run) {
    const out = execFileSync(process.execPath, [...flags, path.join(__dirname, 'lazy-load.js'), 'run', theCase.run], {
      encoding: 'utf8',
    });
    const { ms, rss } = JSON.parse(out.trim().split('\n').pop());
    return { ms, mb: rss };
  }
  const probeFile = path.join(os.tmpdir(), `bwc-bench-probe-${process.pid}.json`);
  try {
    execFileSync(process.execPath, [...flags, '-r', PROBE, path.join(ROOT, 'bin', 'bwc-emu'), ...theCase.cli], {
      cwd: ROOT,
      env: { ...process.env, BENCH_PROBE_FILE: probeFile },
      stdio: 'ignore',
    });
    const { ms, maxRssKiB } = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
    return { ms, mb: maxRssKiB / 1024 };
  } finally {
    fs.rmSync(probeFile, { force: true });
  }
}

/** What a case is, for the tables. */
function describe(theCase) {
  return theCase.run ? `library: ${theCase.run}` : `bwc-emu ${theCase.cli.join(' ')}`;
}

/** Whether a saving is material (see the file comment). */
function material(lazy, eager, min) {
  return eager - lazy >= Math.max(min, THRESHOLD * eager);
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.js')))
    throw new Error('dist/index.js is missing: run `npm run build` first');
  const sites = SITES.map((s) => ({ ...s, cases: s.cases.filter((c) => ONLY.includes(c.id)) })).filter(
    (s) => s.cases.length > 0,
  );
  console.log(`lazy loading: each case lazy (as built) and eager (deferred modules preloaded), ${ROUNDS} rounds`);
  const rows = [
    ['site / case', 'lazy ms', 'eager ms', 'ratio', 'saved ms', 'lazy MB', 'eager MB', 'ratio', 'saved MB'],
  ];
  const figures = [];
  const verdicts = [];
  for (const { site, defer, cases } of sites) {
    let pays = false;
    for (const theCase of cases) {
      const runs = { lazy: [], eager: [] };
      for (let round = 0; round < ROUNDS; round++)
        for (const variant of rotated(['lazy', 'eager'], round))
          runs[variant].push(measure(theCase, defer, variant === 'eager'));
      const m = (variant, key) => median(runs[variant].map((r) => r[key]));
      const [lazyMs, eagerMs, lazyMb, eagerMb] = [m('lazy', 'ms'), m('eager', 'ms'), m('lazy', 'mb'), m('eager', 'mb')];
      const saves = material(lazyMs, eagerMs, MIN_MS) || material(lazyMb, eagerMb, MIN_MB);
      pays ||= saves;
      rows.push([
        `${theCase.id} (${describe(theCase)})${saves ? ' *' : ''}`,
        lazyMs.toFixed(1),
        eagerMs.toFixed(1),
        (lazyMs / eagerMs).toFixed(2),
        (eagerMs - lazyMs).toFixed(1),
        lazyMb.toFixed(1),
        eagerMb.toFixed(1),
        (lazyMb / eagerMb).toFixed(2),
        (eagerMb - lazyMb).toFixed(1),
      ]);
      console.log(`  ${rows.at(-1).join('  ')}`);
      figures.push(
        figure(`lazy loading, ${describe(theCase)}: ${site}, time to ready`, {
          product: lazyMs.toFixed(0),
          baseline: eagerMs.toFixed(0),
          unit: 'ms, lazy vs eager (lower is better)',
          ratio: lazyMs / eagerMs,
        }),
        figure(`lazy loading, ${describe(theCase)}: ${site}, RSS`, {
          product: lazyMb.toFixed(1),
          baseline: eagerMb.toFixed(1),
          unit: 'MB, lazy vs eager (lower is better)',
          ratio: lazyMb / eagerMb,
        }),
      );
    }
    verdicts.push(`${pays ? 'keep' : 'drop'}: ${site}`);
  }
  console.log(`\nmedians of ${ROUNDS} rounds (* saves >= ${THRESHOLD * 100} % and >= ${MIN_MS} ms or ${MIN_MB} MB):`);
  printAligned(rows);
  console.log(`\n${verdicts.join('\n')}`);
  return { name: 'lazy-load', figures };
}

module.exports = { name: 'lazy-load', main };

if (require.main === module) {
  const job = process.argv[2] === 'run' ? run(process.argv[3]) : main();
  job.catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
