'use strict';
/**
 * A good client's request latency while many live feeds (`GET /_emu/feed`, Server-Sent
 * Events) are open on the same emulator, against the same client with no feed, in the same
 * run (issue 29, item 5: 1,000 feeds took a good client to p50 0.3-0.75 s, p95 2 s).
 *
 * Processes (bench/child.js):
 *  - the emulator (this file run with `serve MAXFEEDS DIST EVERYMS`): startEmulator from DIST,
 *    one device, auth none, a scenario publishing an event every BENCH_FEEDS_EVENT_MS (10) ms
 *    to one session of this process subscribed to everything (a journal entry each), logs
 *    silent, `control: { maxFeeds }`;
 *  - the feeds (`feeds URL COUNT MODE`): COUNT SSE connections opened at once, each read and
 *    thrown away (`reading`, idle dashboards) or never read (`stalled`); it tells how many
 *    got 200 and how many 503;
 *  - the good client, in this process: a JSON-RPC `listAll` POST to featureflag.cgi every
 *    BENCH_FEEDS_INTERVAL_MS (5) ms, one at a time (the next waits for the answer), its latency
 *    recorded. Each request is a journal entry, so the feeds get a batch every 200 ms.
 *
 * For each server (the cap at its default, 100, so most of the 1,000 are refused with 503; the
 * cap at 1,000, every feed open; and, with BENCH_FEEDS_BEFORE_DIST, the same package built from
 * another commit, e.g. the one before the feeds were shared), BENCH_ROUNDS rounds of: the client
 * alone for BENCH_SECONDS, then with BENCH_FEEDS feeds opened, then they are closed. The table
 * shows p50 and p95 of every request of each phase.
 *
 * Knobs (environment): BENCH_FEEDS (1000), BENCH_SECONDS (5), BENCH_ROUNDS (2),
 * BENCH_FEEDS_MODE (reading | stalled), BENCH_FEEDS_INTERVAL_MS (5), BENCH_FEEDS_EVENT_MS (10),
 * BENCH_FEEDS_BEFORE_DIST.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { URL } = require('node:url');
const { performance } = require('node:perf_hooks');
const { forkChild } = require('./child');
const { choiceEnv, intEnv } = require('./env');
const { printAligned } = require('./figures');
const { latencyCells, latencyFigures, runMainOrChild } = require('./latency');
const { openSession } = require('./stream-session');

const DIST = path.join(__dirname, '..', 'dist');
const SELF = path.join(__dirname, 'feeds.js');

/** Runs the child side named on the command line, or nothing (loaded as a module). */
function childMain() {
  const [role, ...args] = process.argv.slice(2);
  if (role === 'serve') return serve(Number(args[0]), args[1], Number(args[2]));
  if (role === 'feeds') return holdFeeds(args[0], Number(args[1]), args[2]);
  return undefined;
}

/** Child: an emulator with one device publishing every `everyMs` and the feed cap `maxFeeds`; tells its URLs. */
async function serve(maxFeeds, dist, everyMs) {
  const { startEmulator, loadScenario } = require(path.join(dist, 'index.js'));
  const ticking = loadScenario(
    `name: ticking\ntimeline:\n  - { every: ${everyMs}ms, emit: { topic: tns1:Test/Tick, data: { State: '1' } } }\n`,
    'ticking.yaml',
  );
  if (!ticking.ok) throw new Error(`the scenario: ${JSON.stringify(ticking.error)}`);
  const emulator = await startEmulator({
    scenarios: [{ scenario: ticking.value }],
    device: { port: 0, auth: 'none', logLevel: 'silent' },
    control: { maxFeeds },
  });
  const device = emulator.devices[0].device;
  process.on('message', async (message) => {
    if (message?.cmd !== 'close') return;
    await emulator.close();
    process.send({ type: 'closed' });
    process.disconnect();
  });
  process.send({ type: 'ready', url: device.url, port: device.port, flags: device.urls.featureFlags });
}

/** Child: opens `count` feeds of `url` at once, reading them or not; closes them when told. */
async function holdFeeds(url, count, mode) {
  const open = [];
  const statuses = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve) => {
          const req = http.get(`${url}/_emu/feed`, { agent: false }, (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              return resolve(res.statusCode);
            }
            open.push(req);
            if (mode === 'reading') res.on('data', () => undefined);
            else res.socket.pause();
            res.on('error', () => undefined);
            resolve(200);
          });
          req.on('error', () => resolve(0));
        }),
    ),
  );
  const tally = (status) => statuses.filter((s) => s === status).length;
  process.on('message', (message) => {
    if (message?.cmd !== 'close') return;
    for (const req of open) req.destroy();
    process.send({ type: 'closed' });
    process.disconnect();
  });
  process.send({ type: 'open', ok: tally(200), refused: tally(503), failed: count - tally(200) - tally(503) });
}

/** One POST of `body` to `target` (http.request's options); resolves with its latency in ms (rejects unless 200). */
function post(target, body) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const options = { ...target, method: 'POST', headers: { 'Content-Type': 'application/json' } };
    const req = http.request(options, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`got ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The good client for `seconds`: a request every `intervalMs` (or right after a slower answer); the latencies. */
async function goodClient(flags, seconds, intervalMs) {
  const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(flags);
  const target = { host: url.hostname, port: url.port, path: url.pathname, agent };
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    latencies.push(await post(target, body));
    const wait = intervalMs - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  agent.destroy();
  return latencies;
}

/** One server's phases: the client alone, then with the feeds, BENCH_ROUNDS times; every latency of each. */
async function measureServer({ label, maxFeeds, dist }, settings) {
  const args = ['serve', String(maxFeeds), dist, String(settings.everyMs)];
  const server = forkChild(SELF, args, { name: `${label} emulator` });
  const { url, port, flags } = await server.next('ready');
  // A session subscribed to every event: each notification is a journal entry.
  const everything = {
    apiVersion: '1.0',
    method: 'events:configure',
    params: { eventFilterList: [{ topicFilter: '' }] },
  };
  const { ws: subscriber } = await openSession(port, undefined, everything);
  const alone = [];
  const loaded = [];
  let held = { ok: 0, refused: 0, failed: 0 };
  try {
    await goodClient(flags, 1, settings.intervalMs); // warm-up
    for (let round = 0; round < settings.rounds; round++) {
      alone.push(...(await goodClient(flags, settings.seconds, settings.intervalMs)));
      const feeds = forkChild(SELF, ['feeds', url, String(settings.feeds), settings.mode], { name: 'feeds' });
      try {
        held = await feeds.next('open');
        loaded.push(...(await goodClient(flags, settings.seconds, settings.intervalMs)));
      } finally {
        await feeds.close({ cmd: 'close' }, 'closed');
      }
    }
  } finally {
    subscriber.terminate();
    await server.close({ cmd: 'close' }, 'closed');
  }
  return { label, held, alone, loaded };
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build`');
  const settings = {
    feeds: intEnv('BENCH_FEEDS', 1000),
    seconds: intEnv('BENCH_SECONDS', 5),
    rounds: intEnv('BENCH_ROUNDS', 2),
    mode: choiceEnv('BENCH_FEEDS_MODE', 'reading', ['reading', 'stalled']),
    intervalMs: intEnv('BENCH_FEEDS_INTERVAL_MS', 5),
    everyMs: intEnv('BENCH_FEEDS_EVENT_MS', 10),
  };
  const before = process.env.BENCH_FEEDS_BEFORE_DIST;
  const servers = [
    ...(before ? [{ label: `before (${before})`, maxFeeds: settings.feeds, dist: before }] : []),
    { label: 'cap 100 (default)', maxFeeds: 100, dist: DIST },
    { label: `cap ${settings.feeds}: all open`, maxFeeds: settings.feeds, dist: DIST },
  ];
  console.log(
    `a good client (featureflag.cgi every ${settings.intervalMs} ms) alone and with ${settings.feeds} ${settings.mode} ` +
      `feeds, an event every ${settings.everyMs} ms to a session, ${settings.rounds} rounds of ${settings.seconds} s each`,
  );
  const results = [];
  for (const server of servers) results.push(await measureServer(server, settings));
  const rows = [['server', 'feeds open / refused', 'requests', 'alone p50', 'alone p95', 'with p50', 'with p95']];
  for (const r of results) {
    const { ok, refused, failed } = r.held;
    const held = `${ok} / ${refused}${failed ? ` (${failed} failed)` : ''}`;
    rows.push([r.label, held, `${r.alone.length} / ${r.loaded.length}`, ...latencyCells(r)]);
  }
  console.log('\nlatency of the good client, ms:');
  printAligned(rows);
  const figures = latencyFigures(
    results,
    (p, label) => `feeds, p${p} of a good client's request with ${settings.feeds} ${settings.mode} feeds, ${label}`,
  );
  return { name: 'feeds', figures, results: results.map(({ label, held }) => ({ label, held })) };
}

module.exports = { name: 'feeds', main };

runMainOrChild(module, main, childMain);
