'use strict';
/**
 * Memory per idle session: the heap a configured, idle event stream session costs the
 * device, against what a bare `ws` connection costs a bare server.
 *
 * Each side runs in its own process (bench/session-memory-server.js, --expose-gc), a
 * fresh one per measurement: `bare` (node:http + ws, answering the configure message
 * as the device does) and `emu` (startDevice from dist/, auth none). This process opens
 * SESSIONS WebSocket connections to it, 200 at a time, and each sends an
 * `events:configure` with 3 topic filters (bench/event-mix.js, 60 distinct sets) and
 * waits for the answer; then the sessions sit idle. The server reports its
 * process.memoryUsage() after two forced GCs before the connections and after them;
 * heap per session = (heapUsed after - heapUsed before) / SESSIONS. RSS and external
 * memory per session are reported alongside.
 *
 * Sides alternate (bare, emu, then emu, bare, ...) for BENCH_ROUNDS rounds (3) per
 * session count; medians, and the ratio emu / bare of heap per session.
 *
 * Bound: heap per session at most 1.5 times the bare server's, at 10,000 sessions.
 *
 * Knobs (environment): BENCH_SESSIONS (comma-separated, 10000), BENCH_ROUNDS (3),
 * BENCH_HEAP_SNAPSHOT (a directory: each server then writes a heap snapshot there with its
 * sessions open, after the measurement, `<side>-<sessions>-round<N>.heapsnapshot`, for
 * finding what a session holds).
 */
const { intEnv, intList, rotated } = require('./env');
const { forkChild } = require('./child');
const fs = require('node:fs');
const path = require('node:path');
const { openSession } = require('./stream-session');
const { configureRequest } = require('./event-mix');
const { figure, fmt, median } = require('./figures');

const CONFIG = {
  sessions: intList('BENCH_SESSIONS', [10_000]),
  rounds: intEnv('BENCH_ROUNDS', 3),
  heapSnapshots: process.env.BENCH_HEAP_SNAPSHOT ? path.resolve(process.env.BENCH_HEAP_SNAPSHOT) : undefined,
};
const CONCURRENCY = 200;

/** The server of `side` in a fresh process (bench/child.js), with its memory and snapshot asks. */
function startServer(side, sessions) {
  const server = forkChild(path.join(__dirname, 'session-memory-server.js'), [side, String(sessions)], {
    name: `${side} server`,
    execArgv: ['--expose-gc'],
  });
  return {
    next: server.next,
    close: () => server.close(),
    async memory() {
      return (await server.ask({ cmd: 'memory' }, 'memory')).usage;
    },
    /** Has the server write a heap snapshot into `file`. */
    async snapshot(file) {
      await server.ask({ cmd: 'snapshot', file }, 'snapshot');
    },
  };
}

/** Opens one configured session; resolves with its socket once the configure is answered. */
async function openConfigured(url, c) {
  const { ws, answer } = await openSession(url, undefined, configureRequest(c, 'topic'), () => undefined);
  if (answer.error) throw new Error(`configure refused: ${JSON.stringify(answer.error)}`);
  return ws;
}

async function measure(side, sessions, round) {
  const server = startServer(side, sessions);
  const { url } = await server.next('ready');
  const before = await server.memory();
  const sockets = [];
  for (let c = 0; c < sessions; c += CONCURRENCY) {
    const batch = [];
    for (let k = c; k < Math.min(sessions, c + CONCURRENCY); k++) batch.push(openConfigured(url, k));
    sockets.push(...(await Promise.all(batch)));
  }
  // Let the last answers and initial states settle before the idle measurement.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = await server.memory();
  if (CONFIG.heapSnapshots) {
    const file = path.join(CONFIG.heapSnapshots, `${side}-${sessions}-round${round + 1}.heapsnapshot`);
    await server.snapshot(file);
    console.log(`  heap snapshot: ${file}`);
  }
  for (const ws of sockets) ws.terminate();
  await server.close();
  const per = (field) => (after[field] - before[field]) / sessions;
  return { heap: per('heapUsed'), rss: per('rss'), external: per('external'), idleHeap: before.heapUsed };
}

async function main() {
  if (CONFIG.heapSnapshots) fs.mkdirSync(CONFIG.heapSnapshots, { recursive: true });
  const summary = [];
  for (const sessions of CONFIG.sessions) {
    const runs = { bare: [], emu: [] };
    for (let round = 0; round < CONFIG.rounds; round++) {
      for (const side of rotated(['bare', 'emu'], round)) {
        const r = await measure(side, sessions, round);
        runs[side].push(r);
        console.log(
          `  ${sessions} sessions, run ${round + 1} ${side}: heap ${fmt(r.heap)} B/session, rss ${fmt(r.rss)} B/session, external ${fmt(r.external)} B/session (idle heap ${(r.idleHeap / 1048576).toFixed(1)} MB)`,
        );
      }
    }
    const bare = median(runs.bare.map((r) => r.heap));
    const emu = median(runs.emu.map((r) => r.heap));
    const ratio = emu / bare;
    console.log(
      `${sessions} idle configured sessions: heap per session ${fmt(emu)} B (emulator) vs ${fmt(bare)} B (bare ws), medians of ${CONFIG.rounds}; rss ${fmt(median(runs.emu.map((r) => r.rss)))} vs ${fmt(median(runs.bare.map((r) => r.rss)))} B`,
    );
    console.log(`ratio: ${ratio.toFixed(2)}`);
    summary.push({ sessions, emu, bare, ratio });
  }
  const figures = summary.map((s) =>
    figure(`heap per idle configured session, ${fmt(s.sessions)} sessions`, {
      product: fmt(s.emu),
      baseline: fmt(s.bare),
      unit: 'bytes',
      ratio: s.ratio,
      bound: s.sessions === 10_000 ? '<= 1.5' : '',
    }),
  );
  return { name: 'session-memory', figures, runs: summary };
}

module.exports = { name: 'session-memory', main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
