'use strict';
/**
 * What each process-wide cache of a device saves: a fleet of N devices (bench/fleet-server.js:
 * startEmulator({ devices: N }), a quiet scenario, auth none, the control API on), each with 2
 * idle event stream sessions, run by the build as it is (every cache on) and by copies of it
 * with one cache turned off, in the same run. The caches, each shared by every device of the
 * process that has the same settings:
 *  - `app`: the one Express app every device runs on, and its CGI dispatchers per prefix pair
 *    (src/device/device-app.ts); off: an app and a dispatcher per device;
 *  - `handshakers`: the ws servers that perform the handshakes, per setting
 *    (src/events/ws-handshaker.ts); off: one per device;
 *  - `flag-definitions`: the feature flag definitions, shared by content
 *    (src/device/feature-flags.ts); off: a map per device;
 *  - `step-lengths`: a scenario's list lengths, shared by its players
 *    (src/scenario/step-lengths.ts); off: a map per player;
 *  - `none`: all off.
 * The last two were once removed as saving nothing measurable at 300 devices with sessions
 * (bench/README.md, "Lazy loading and shared caches"), and came back for fleets of 100,000
 * idle devices (issue 33), where each saves about 0.25-0.5 KB a device: measure them with a
 * large BENCH_CACHE_DEVICES.
 * A copy is dist/ copied to a temp folder with the cache's lookup replaced by `undefined` (each
 * patch must match the compiled code, or the benchmark stops), beside links to node_modules,
 * package.json, scenarios and web, so that it loads as dist/ does.
 *
 * Measured per variant and size: start-up ms (from the start call until every device listens)
 * and RSS after a forced GC with the sessions open; per device: the growth from 1 device to N,
 * divided by N - 1 (fleet.js's measure). Variants alternate (the order rotates every round).
 * The ratio is cache on / off: below 1 is what the cache saves. A cache is worth keeping when
 * it saves at least 5 % of the per-device RSS or of the start-up time.
 *
 * Knobs (environment): BENCH_CACHE_DEVICES (300), BENCH_ROUNDS (3).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { intEnv, rotated } = require('./env');
const { figure, median, printAligned } = require('./figures');
const { measure, SESSIONS_PER_DEVICE } = require('./fleet');

const ROOT = path.join(__dirname, '..');
const DEVICES = intEnv('BENCH_CACHE_DEVICES', 300, 2);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const KiB = 1024;

/** Each cache: the compiled file and the lookup that, replaced by `undefined`, turns it off. */
const CACHES = {
  app: [
    ['device/device-app.js', 'if (sharedApp)\n        return sharedApp;', ''],
    ['device/device-app.js', 'let dispatch = dispatchers.get(key);', 'let dispatch = undefined;'],
  ],
  handshakers: [['events/ws-handshaker.js', 'let wss = handshakers.get(key);', 'let wss = undefined;']],
  'flag-definitions': [
    ['device/feature-flags.js', 'const known = sharedDefinitions.get(key);', 'const known = undefined;'],
  ],
  'step-lengths': [
    ['scenario/step-lengths.js', 'let lengths = StepLengths.shared.get(scenario);', 'let lengths = undefined;'],
  ],
};
const VARIANTS = ['on', ...Object.keys(CACHES), 'none'];

/** A copy of dist/ with `patches` applied, in a temp folder that loads as the repository does; its dist path. */
function patchedCopy(root, name, patches) {
  const base = path.join(root, name);
  const dist = path.join(base, 'dist');
  fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
  for (const link of ['node_modules', 'package.json', 'scenarios', 'web'])
    if (fs.existsSync(path.join(ROOT, link))) fs.symlinkSync(path.join(ROOT, link), path.join(base, link));
  for (const [file, from, to] of patches) {
    const target = path.join(dist, file);
    const text = fs.readFileSync(target, 'utf8');
    if (!text.includes(from)) throw new Error(`dist/${file} no longer has "${from}": update bench/shared-caches.js`);
    fs.writeFileSync(target, text.replace(from, to));
  }
  return dist;
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bwc-bench-caches-'));
  try {
    const dists = { on: path.join(ROOT, 'dist') };
    for (const [name, patches] of Object.entries(CACHES)) dists[name] = patchedCopy(root, name, patches);
    dists.none = patchedCopy(root, 'none', Object.values(CACHES).flat());
    console.log(`shared caches: ${DEVICES} devices, ${SESSIONS_PER_DEVICE} sessions each, ${ROUNDS} rounds`);
    const runs = Object.fromEntries(VARIANTS.map((v) => [v, { 1: [], [DEVICES]: [] }]));
    for (let round = 0; round < ROUNDS; round++)
      for (const variant of rotated(VARIANTS, round))
        for (const count of [1, DEVICES])
          runs[variant][count].push(await measure('ports', count, { dist: dists[variant], sessions: true }));
    const med = (variant, count, key) => median(runs[variant][count].map((r) => r[key]));
    const perDevice = (variant) => (med(variant, DEVICES, 'rss') - med(variant, 1, 'rss')) / (DEVICES - 1) / KiB;
    const rows = [['cache off', 'RSS per device KiB', 'on / off', 'start ms', 'on / off', 'verdict']];
    const figures = [];
    for (const variant of VARIANTS) {
      const rssRatio = perDevice('on') / perDevice(variant);
      const startRatio = med('on', DEVICES, 'startMs') / med(variant, DEVICES, 'startMs');
      const pays = variant !== 'on' && (rssRatio <= 0.95 || startRatio <= 0.95);
      rows.push([
        variant,
        perDevice(variant).toFixed(1),
        rssRatio.toFixed(2),
        med(variant, DEVICES, 'startMs').toFixed(0),
        startRatio.toFixed(2),
        variant === 'on' ? '' : pays ? 'keep' : 'remove',
      ]);
      if (variant !== 'on')
        figures.push(
          figure(`shared caches, RSS per device of ${DEVICES}, every cache on vs ${variant} off`, {
            product: perDevice('on').toFixed(0),
            baseline: perDevice(variant).toFixed(0),
            unit: 'KiB (lower is better)',
            ratio: rssRatio,
          }),
        );
    }
    console.log(`\nmedians of ${ROUNDS} rounds ('on': the build as it is):`);
    printAligned(rows);
    return { name: 'shared-caches', figures };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

module.exports = { name: 'shared-caches', main };

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
