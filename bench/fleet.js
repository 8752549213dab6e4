'use strict';
/**
 * Fleet cost: start-up time and memory of N emulated devices, each with 2 idle event
 * stream sessions, against N bare node:http + ws servers holding the same sessions.
 *
 * Each side runs in its own process (bench/fleet-server.js, with --expose-gc), so the
 * memory measured is that side's alone. For each size N (1, 100, 1000) and round, the
 * sides alternate; the parent (this process) opens 2 WebSocket sessions to every
 * device and then asks for the child's memory after a GC.
 *
 * Measured per side and size: start-up ms (from the start call until every server
 * listens) and RSS and heap with the sessions open. The per-device cost is the growth
 * from N=1 to the size, divided by the devices added: (RSS(N) - RSS(1)) / (N - 1), so a
 * process's fixed cost (the runtime, the loaded modules) is not counted per device. The
 * ratio is emu / bare; its bound is at most 1.5 at 1,000 devices (all in one process).
 *
 * Knobs (environment): BENCH_FLEET_SIZES ("1,100,1000"), BENCH_ROUNDS (3).
 */
const path = require('node:path');
const WebSocket = require('ws');
const { intEnv, intList, rotated } = require('./env');
const { forkChild } = require('./child');
const { figure, median } = require('./figures');

const SERVER_SCRIPT = path.join(__dirname, 'fleet-server.js');
const SESSIONS_PER_DEVICE = 2;
const MB = 1024 * 1024;

/**
 * Starts one side with `count` devices (the emulator from `dist`, this checkout's dist/ by
 * default: bench/shared-caches.js passes patched copies), opens the sessions, and measures.
 */
async function measure(side, count, dist) {
  // bench/fleet-server.js's messages have no type: each is the answer to what was last asked.
  const server = forkChild(SERVER_SCRIPT, [side, String(count)], {
    name: `${side} server`,
    execArgv: ['--expose-gc'],
    ...(dist === undefined ? {} : { env: { ...process.env, BENCH_FLEET_DIST: dist } }),
    stdio: 'inherit',
  });
  try {
    const ready = await server.next();
    const sockets = [];
    for (const port of ready.ports) {
      for (let s = 0; s < SESSIONS_PER_DEVICE; s++) {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/svc/ws-data-stream?sources=events`);
        sockets.push(
          new Promise((resolve, reject) => {
            ws.once('open', () => resolve(ws));
            ws.once('error', reject);
          }),
        );
      }
    }
    const open = await Promise.all(sockets);
    const { memory } = await server.ask('memory');
    for (const ws of open) ws.terminate();
    return { startMs: ready.startMs, rss: memory.rss, heap: memory.heapUsed };
  } finally {
    await server.close();
  }
}

async function main() {
  const sizes = intList('BENCH_FLEET_SIZES', [1, 100, 1000]);
  const rounds = intEnv('BENCH_ROUNDS', 3);
  if (!sizes.includes(1)) sizes.unshift(1);
  const results = {};
  for (const count of sizes) {
    results[count] = { emu: [], bare: [] };
    for (let r = 0; r < rounds; r++) {
      for (const side of rotated(['bare', 'emu'], r)) results[count][side].push(await measure(side, count));
    }
  }
  const med = (count, side, key) => median(results[count][side].map((m) => m[key]));
  console.log(`fleet: ${SESSIONS_PER_DEVICE} idle sessions per device, medians of ${rounds} alternating rounds`);
  console.log('devices  side   start ms   RSS MB   heap MB   RSS per device KB (growth from 1)');
  const summary = {};
  for (const count of sizes) {
    for (const side of ['bare', 'emu']) {
      const perDevice = count > 1 ? (med(count, side, 'rss') - med(1, side, 'rss')) / (count - 1) / 1024 : NaN;
      console.log(
        `${String(count).padStart(7)}  ${side.padEnd(5)} ${med(count, side, 'startMs').toFixed(0).padStart(9)} ${(med(count, side, 'rss') / MB).toFixed(1).padStart(8)} ${(med(count, side, 'heap') / MB).toFixed(1).padStart(9)}   ${Number.isNaN(perDevice) ? '-' : perDevice.toFixed(1)}`,
      );
    }
    if (count > 1) {
      const ratio =
        (med(count, 'emu', 'rss') - med(1, 'emu', 'rss')) / (med(count, 'bare', 'rss') - med(1, 'bare', 'rss'));
      const startRatio = med(count, 'emu', 'startMs') / med(count, 'bare', 'startMs');
      summary[count] = { perDeviceRssRatio: ratio, startRatio };
      console.log(
        `  ${count} devices: per-device RSS ratio emu/bare ${ratio.toFixed(2)}, start-up ratio ${startRatio.toFixed(2)}`,
      );
    }
  }
  const figures = [];
  for (const count of sizes.filter((n) => n > 1)) {
    const growth = (side) => (med(count, side, 'rss') - med(1, side, 'rss')) / (count - 1) / 1024;
    figures.push(
      figure(`fleet, RSS per device with ${SESSIONS_PER_DEVICE} idle sessions, ${count} devices`, {
        product: growth('emu').toFixed(0),
        baseline: growth('bare').toFixed(0),
        unit: 'KiB',
        ratio: summary[count].perDeviceRssRatio,
        bound: count === 1000 ? '<= 1.5' : '',
      }),
    );
  }
  return { name: 'fleet', figures, summary };
}

module.exports = { name: 'fleet', main, measure, SESSIONS_PER_DEVICE };

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
