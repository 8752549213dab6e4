'use strict';
/**
 * Fleet cost (issue 33): start-up time, idle memory, memory with 2 idle event stream sessions
 * per device, and the time one event takes to reach every session, for N emulated devices in
 * one process against N bare node:http + ws servers in one process, in the same run.
 *
 * Sides, each in a process of its own (bench/fleet-server.js, --expose-gc), so the memory
 * measured is that side's alone:
 *  - `address`: startEmulator({ devices: N, addressRange: '127.1.0.1', device: { port: 0 } }),
 *    every device on one port, device i at 127.1.0.1 + i, one listening socket in all;
 *  - `ports`: startEmulator({ devices: N, device: { port: 0 } }), a free port per device;
 *  - `bare` (the baseline): N node:http servers on 127.0.0.1, a free port each (taken as the
 *    emulator takes them: consecutive where free, as the kernel's search slows), each with a ws
 *    WebSocketServer in noServer mode that answers the configure and keeps its sockets.
 * For each size and round the sides measured at that size take turns (the order rotates
 * every round); medians of BENCH_ROUNDS rounds.
 *
 * Measured per side, size and round: start-up ms (from the start call until every device
 * listens); RSS and heapUsed idle, after two forced GCs; then, at the session sizes, this
 * process opens 2 sessions to every device (each configured with a topic filter for the
 * event, its answer awaited), RSS with them open (after GCs), and one event published on
 * every device (emulator: device.publish; bare: each server serialises the events:notify
 * frame once and sends it to its sockets, corked per tick as the device does): the time
 * from the publish command until every session has the event (the median of 5 events one
 * after another, after one unmeasured). Per device: the growth from N=1 to N, (RSS(N) - RSS(1)) / (N - 1), so a
 * process's fixed cost is not counted per device; the ratio is emulator / bare, and no ratio
 * where the baseline was not measured.
 *
 * File descriptors: a side runs only where its sockets fit under the process limit
 * (`ulimit -n`, the same for both processes): a bare server or a ports-mode device holds a
 * listening socket each, and each session is one socket in the fleet's process and one in
 * this one. Where the baseline does not fit, the emulator's figures are reported alone.
 *
 * Bounds (the issue's): address mode, 100,000 devices start within 20 s and idle under 800 MB
 * RSS; ports mode, 10,000 devices start within 5 s and idle under 180 MB; with 2 idle sessions
 * per device, per-device RSS at most 1.2 times the bare servers'. MB is 10^6 bytes, KiB 1024.
 *
 * Knobs (environment): BENCH_FLEET_MODES ("address,ports"), BENCH_FLEET_ADDRESS_SIZES
 * ("1000,10000,100000"), BENCH_FLEET_PORT_SIZES ("10000"), BENCH_FLEET_SESSION_SIZES
 * ("1000,5000": sizes measured with sessions too, in every mode), BENCH_ROUNDS (3),
 * BENCH_FLEET_DIST (the emulator's dist/ folder: another build, or a copy that a rebuild does
 * not change halfway through a run; this checkout's dist/ by default).
 * A quick run: BENCH_FLEET_ADDRESS_SIZES=1000 BENCH_FLEET_PORT_SIZES=2000
 * BENCH_FLEET_SESSION_SIZES=1000 BENCH_ROUNDS=1.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { intEnv, intList, listEnv, rotated } = require('./env');
const { forkChild } = require('./child');
const { openSessions } = require('./fleet-sessions');
const { report } = require('./fleet-report');
const { median } = require('./figures');

const SERVER_SCRIPT = path.join(__dirname, 'fleet-server.js');
/** The emulator's build: BENCH_FLEET_DIST (another build's dist/, as bench/fleet-server.js reads it) or this checkout's. */
const DIST = process.env.BENCH_FLEET_DIST || path.join(__dirname, '..', 'dist');
const SESSIONS_PER_DEVICE = 2;
const MODES = ['address', 'ports'];
/** Events timed one after another in each round (after one unmeasured): their median is the round's. */
const EVENTS = 5;
/** File descriptors a process holds besides its sockets (stdio, IPC, epoll, the emulator's control API and files). */
const FD_MARGIN = 64;

/** The knobs, read when the benchmark runs (shared-caches.js loads this file for `measure` alone). */
function config() {
  return {
    modes: listEnv('BENCH_FLEET_MODES', MODES, MODES),
    sizes: {
      address: intList('BENCH_FLEET_ADDRESS_SIZES', [1000, 10_000, 100_000]),
      ports: intList('BENCH_FLEET_PORT_SIZES', [10_000]),
    },
    sessionSizes: intList('BENCH_FLEET_SESSION_SIZES', [1000, 5000]),
    rounds: intEnv('BENCH_ROUNDS', 3),
  };
}

/** The open-files limit of a process started from here (`ulimit -n`; Node cannot read it). */
function fdLimit() {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  return out === 'unlimited' ? Infinity : Number(out);
}

/** How many files this process has open now (0 where /proc is not there). */
function openFds() {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return 0;
  }
}

/** The sockets `side` holds with `count` devices: its listeners, and the sessions' when they are open. */
function socketsOf(side, count, sessions) {
  const listeners = side === 'address' ? 1 : count;
  return listeners + (sessions ? SESSIONS_PER_DEVICE * count : 0);
}

/**
 * What runs at each size: for each side, whether it fits at all and whether its sessions do
 * (in its own process and in this one), and a note for each that does not.
 */
function plan(cfg, limit) {
  const counts = new Set([1, ...cfg.sessionSizes]);
  for (const mode of cfg.modes) for (const n of cfg.sizes[mode]) counts.add(n);
  const parentBase = openFds() + FD_MARGIN;
  return [...counts]
    .sort((a, b) => a - b)
    .map((count) => {
      const withSessions = count === 1 || cfg.sessionSizes.includes(count);
      const modes = cfg.modes.filter((m) => count === 1 || withSessions || cfg.sizes[m].includes(count));
      const sides = [];
      const notes = [];
      for (const side of ['bare', ...modes]) {
        if (socketsOf(side, count, false) + FD_MARGIN > limit) {
          notes.push(
            side === 'bare'
              ? `baseline does not fit (${count} listening sockets + sessions > fd limit ${limit})`
              : `${side} mode does not fit (${socketsOf(side, count, false)} sockets > fd limit ${limit})`,
          );
          continue;
        }
        const sessions =
          withSessions &&
          socketsOf(side, count, true) + FD_MARGIN <= limit &&
          parentBase + SESSIONS_PER_DEVICE * count <= limit;
        if (withSessions && !sessions)
          notes.push(
            `${side}: sessions do not fit (${socketsOf(side, count, true)} sockets there, ${SESSIONS_PER_DEVICE * count} here > fd limit ${limit})`,
          );
        sides.push({ side, sessions });
      }
      return { count, sides, notes };
    });
}

/** Publishes the event on the fleet and times it until every session has it. */
async function timeEvent(server, clients) {
  const arrived = clients.arrival();
  const sent = performance.now();
  const [at, { ms }] = await Promise.all([arrived, server.ask({ cmd: 'publish' }, 'published')]);
  return { eventMs: at - sent, publishMs: ms };
}

/**
 * Starts `side` ('address', 'ports' or 'bare') with `count` devices and measures it:
 * { startMs, idleRss, idleHeap } and, with `sessions`, { rss, heap } with 2 idle sessions
 * per device and { eventMs, publishMs } of an event to all of them (medians of EVENTS).
 * `dist`: the emulator's build (BENCH_FLEET_DIST or this checkout's dist/ by default;
 * bench/shared-caches.js passes patched copies).
 */
async function measure(side, count, { dist, sessions = false } = {}) {
  const server = forkChild(SERVER_SCRIPT, [side, String(count)], {
    name: `${side} fleet of ${count}`,
    execArgv: ['--expose-gc'],
    ...(dist === undefined ? {} : { env: { ...process.env, BENCH_FLEET_DIST: dist } }),
  });
  let clients;
  try {
    const { startMs } = await server.next('ready');
    const idle = (await server.ask({ cmd: 'memory' }, 'memory')).usage;
    const result = { startMs, idleRss: idle.rss, idleHeap: idle.heapUsed };
    if (!sessions) return result;
    const { targets } = await server.ask({ cmd: 'targets' }, 'targets');
    clients = await openSessions(targets, SESSIONS_PER_DEVICE);
    // Let the last answers settle before the idle measurement.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const open = (await server.ask({ cmd: 'memory' }, 'memory')).usage;
    await timeEvent(server, clients);
    const events = [];
    for (let e = 0; e < EVENTS; e++) events.push(await timeEvent(server, clients));
    return {
      ...result,
      rss: open.rss,
      heap: open.heapUsed,
      eventMs: median(events.map((t) => t.eventMs)),
      publishMs: median(events.map((t) => t.publishMs)),
    };
  } finally {
    await server.close();
    clients?.close();
  }
}

/** One measurement as a progress line. */
function describe(side, count, round, m) {
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const sessions =
    m.rss === undefined
      ? ''
      : `; ${SESSIONS_PER_DEVICE * count} sessions: RSS ${mb(m.rss)} MB, event to all ${m.eventMs.toFixed(1)} ms (publish loop ${m.publishMs.toFixed(1)} ms)`;
  return `  ${count} devices, round ${round + 1}, ${side}: start ${m.startMs.toFixed(0)} ms, idle RSS ${mb(m.idleRss)} MB, heap ${mb(m.idleHeap)} MB${sessions}`;
}

/** Refuses address mode early when the build has no addressRange option. */
function checkAddressMode(cfg) {
  if (!cfg.modes.includes('address')) return;
  const { EMULATOR_OPTION_NAMES } = require(path.join(DIST, 'emulator', 'start-emulator.js'));
  if (!EMULATOR_OPTION_NAMES || !('addressRange' in EMULATOR_OPTION_NAMES))
    throw new Error(
      'dist/ has no addressRange option: build it (npx tsc -p tsconfig.build.json) or set BENCH_FLEET_MODES=ports',
    );
}

async function main() {
  const cfg = config();
  checkAddressMode(cfg);
  const limit = fdLimit();
  const steps = plan(cfg, limit);
  console.log(
    `fleet: modes ${cfg.modes.join(', ')}; ${SESSIONS_PER_DEVICE} sessions per device at ${cfg.sessionSizes.join(', ')} devices; ${cfg.rounds} rounds; fd limit ${limit}`,
  );
  const results = new Map();
  for (const { count, sides, notes } of steps) {
    for (const note of notes) console.log(`  ${count} devices: ${note}`);
    const runs = Object.fromEntries(sides.map((s) => [s.side, []]));
    results.set(count, runs);
    for (let round = 0; round < cfg.rounds; round++) {
      for (const { side, sessions } of rotated(sides, round)) {
        const m = await measure(side, count, { sessions });
        runs[side].push(m);
        console.log(describe(side, count, round, m));
      }
    }
  }
  return { name: 'fleet', ...report(results, cfg, SESSIONS_PER_DEVICE) };
}

module.exports = { name: 'fleet', main, measure, SESSIONS_PER_DEVICE };

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
