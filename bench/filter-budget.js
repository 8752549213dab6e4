'use strict';
/**
 * A normal client's `events:configure` latency while strangers hold what filter terms they
 * can get (`auth: none`), against the same client with none held, in the same run (issue 29,
 * item 8: 50 addresses x 2,048 terms stalled a normal client for 1.6 s, the terms budget being
 * per remote address).
 *
 * Processes (bench/child.js):
 *  - the emulator (this file run with `serve DIST EVERYMS`): startEmulator from DIST, one device,
 *    auth none, every limit at its default, logs silent, a scenario publishing an event of 7
 *    simple items every BENCH_BUDGET_EVENT_MS (5) ms;
 *  - the strangers (`strangers PORT ADDRESSES`): one session from each of ADDRESSES loopback
 *    addresses (127.0.0.10 on), each configuring 8 content filters of 256 comparisons (2,048
 *    terms, a session's whole share) that match no event but are evaluated for every one; it
 *    tells how many were granted and how many refused (2104);
 *  - the normal client, in this process, from 127.0.0.2: one session configuring one topic
 *    filter, again and again (the next after the answer and BENCH_BUDGET_PAUSE_MS, 20 ms),
 *    the time from the configure to its answer recorded.
 *
 * For each build (this one; with BENCH_BUDGET_BEFORE_DIST, also another commit's dist, e.g.
 * the one with a per-address budget), BENCH_ROUNDS rounds of: the client alone for
 * BENCH_SECONDS, then with the strangers' sessions held, then they go.
 *
 * Knobs (environment): BENCH_BUDGET_ADDRESSES (50), BENCH_SECONDS (5), BENCH_ROUNDS (2),
 * BENCH_BUDGET_EVENT_MS (5), BENCH_BUDGET_PAUSE_MS (20), BENCH_BUDGET_BEFORE_DIST.
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { forkChild } = require('./child');
const { intEnv } = require('./env');
const { printAligned } = require('./figures');
const { latencyCells, latencyFigures, runMainOrChild } = require('./latency');
const { openSession } = require('./stream-session');

const DIST = path.join(__dirname, '..', 'dist');
const SELF = path.join(__dirname, 'filter-budget.js');
const NORMAL_ADDRESS = '127.0.0.2';
const TOPIC = 'tns1:Test/Tick';

/** Runs the child side named on the command line, or nothing (loaded as a module). */
function childMain() {
  const [role, ...args] = process.argv.slice(2);
  if (role === 'serve') return serve(args[0], Number(args[1]));
  if (role === 'strangers') return holdStrangers(Number(args[0]), Number(args[1]));
  return undefined;
}

/** Child: an emulator with one device (auth none) publishing an event of 7 items every `everyMs`. */
async function serve(dist, everyMs) {
  const { startEmulator, loadScenario } = require(path.join(dist, 'index.js'));
  const items = Array.from({ length: 7 }, (_, i) => `k${i}: 'v${i}'`).join(', ');
  const ticking = loadScenario(
    `name: ticking\ntimeline:\n  - { every: ${everyMs}ms, emit: { topic: ${TOPIC}, data: { ${items} } } }\n`,
    'ticking.yaml',
  );
  if (!ticking.ok) throw new Error(`the scenario: ${JSON.stringify(ticking.error)}`);
  const emulator = await startEmulator({
    scenarios: [{ scenario: ticking.value }],
    device: { port: 0, auth: 'none', logLevel: 'silent', initialStates: [] },
  });
  process.on('message', async (message) => {
    if (message?.cmd !== 'close') return;
    await emulator.close();
    process.send({ type: 'closed' });
    process.disconnect();
  });
  process.send({ type: 'ready', port: emulator.devices[0].device.port });
}

/** 8 content filters of 256 comparisons each (2,048 terms) that match nothing the scenario sends. */
function costlyFilters(salt) {
  return Array.from({ length: 8 }, (_, f) => ({
    contentFilter: `boolean(//SimpleItem[${Array.from({ length: 128 }, (_, i) => `@Name='k${i}' and @Value='never-${salt}-${f}-${i}'`).join(' or ')}])`,
  }));
}

/** Child: one session from each of `count` addresses, each asking for 2,048 terms; holds them until told. */
async function holdStrangers(port, count) {
  const sessions = [];
  let granted = 0;
  let refused = 0;
  for (let a = 0; a < count; a++) {
    const request = { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: costlyFilters(a) } };
    const { ws, answer } = await openSession(port, `127.0.0.${10 + a}`, request);
    sessions.push(ws);
    if (answer.error) refused++;
    else granted++;
  }
  process.on('message', (message) => {
    if (message?.cmd !== 'close') return;
    for (const ws of sessions) ws.terminate();
    process.send({ type: 'closed' });
    process.disconnect();
  });
  process.send({ type: 'held', granted, refused });
}

/** How long the normal client waits for an answer before it gives up on the phase (a device that fell behind for good). */
const GIVE_UP_MS = 10_000;

/**
 * The normal client for `seconds`: configures one topic filter again and again; the latencies
 * (ms). An answer that takes longer than GIVE_UP_MS ends the phase, counted as that long.
 */
async function normalClient(port, seconds, pauseMs) {
  const first = { apiVersion: '1.0', context: 'c0', method: 'events:configure', params: { eventFilterList: [] } };
  const { ws } = await openSession(port, NORMAL_ADDRESS, first);
  const answers = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    answers.get(message.context)?.(message);
  });
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  for (let n = 1; performance.now() < end; n++) {
    const context = `c${n}`;
    const request = {
      apiVersion: '1.0',
      context,
      method: 'events:configure',
      params: { eventFilterList: [{ topicFilter: TOPIC }] },
    };
    const started = performance.now();
    let timer;
    const answer = await new Promise((resolve) => {
      answers.set(context, resolve);
      timer = setTimeout(() => resolve(undefined), GIVE_UP_MS);
      ws.send(JSON.stringify(request));
    });
    clearTimeout(timer);
    answers.delete(context);
    latencies.push(performance.now() - started);
    if (answer === undefined) {
      console.log(`  no answer to a configure within ${GIVE_UP_MS / 1000} s: the phase ends there`);
      break;
    }
    if (answer.error) throw new Error(`the normal client's configure was refused: ${JSON.stringify(answer.error)}`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  ws.terminate();
  return latencies;
}

/** One build's phases: the client alone, then with the strangers' terms held, BENCH_ROUNDS times. */
async function measureBuild({ label, dist }, settings) {
  const server = forkChild(SELF, ['serve', dist, String(settings.everyMs)], { name: `${label} emulator` });
  const { port } = await server.next('ready');
  const alone = [];
  const loaded = [];
  let held = { granted: 0, refused: 0 };
  try {
    await normalClient(port, 1, settings.pauseMs); // warm-up
    for (let round = 0; round < settings.rounds; round++) {
      alone.push(...(await normalClient(port, settings.seconds, settings.pauseMs)));
      const args = ['strangers', String(port), String(settings.addresses)];
      const strangers = forkChild(SELF, args, { name: 'strangers' });
      try {
        held = await strangers.next('held');
        console.log(`  ${label}, round ${round + 1}: ${held.granted} strangers granted, ${held.refused} refused`);
        loaded.push(...(await normalClient(port, settings.seconds, settings.pauseMs)));
      } finally {
        await strangers.close({ cmd: 'close' }, 'closed');
      }
    }
  } finally {
    await server.close({ cmd: 'close' }, 'closed');
  }
  return { label, held, alone, loaded };
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build`');
  const settings = {
    addresses: intEnv('BENCH_BUDGET_ADDRESSES', 50),
    seconds: intEnv('BENCH_SECONDS', 5),
    rounds: intEnv('BENCH_ROUNDS', 2),
    everyMs: intEnv('BENCH_BUDGET_EVENT_MS', 5),
    pauseMs: intEnv('BENCH_BUDGET_PAUSE_MS', 20),
  };
  if (settings.addresses > 240) throw new Error('BENCH_BUDGET_ADDRESSES: at most 240 (127.0.0.10-249)');
  const before = process.env.BENCH_BUDGET_BEFORE_DIST;
  const builds = [
    ...(before ? [{ label: `before (${before})`, dist: before }] : []),
    { label: 'this build', dist: DIST },
  ];
  console.log(
    `a normal client's configure (auth none) alone and with ${settings.addresses} addresses asking for 2,048 terms each, ` +
      `an event every ${settings.everyMs} ms, ${settings.rounds} rounds of ${settings.seconds} s each`,
  );
  const results = [];
  for (const build of builds) results.push(await measureBuild(build, settings));
  const rows = [
    ['build', 'strangers granted / refused', 'configures', 'alone p50', 'alone p95', 'loaded p50', 'loaded p95'],
  ];
  for (const r of results)
    rows.push([
      r.label,
      `${r.held.granted} / ${r.held.refused}`,
      `${r.alone.length} / ${r.loaded.length}`,
      ...latencyCells(r),
    ]);
  console.log('\nconfigure latency of the normal client, ms:');
  printAligned(rows);
  const figures = latencyFigures(
    results,
    (p, label) =>
      `filter budget, p${p} of a normal configure with ${settings.addresses} addresses x 2,048 terms asked, ${label}`,
  );
  return { name: 'filter-budget', figures, results: results.map(({ label, held }) => ({ label, held })) };
}

module.exports = { name: 'filter-budget', main };

runMainOrChild(module, main, childMain);
