'use strict';
/**
 * Load run (`npm run load`): many sessions with mixed filters on one device for a
 * while, on loopback only and bounded in time. It checks two things and exits 1 when
 * either fails:
 *  1. nothing is lost: every session receives exactly the notifications its filters
 *     select (computed with the emulator's own compiled filters), none missing, none extra;
 *  2. a hostile client cannot slow the others: in the second half a "hostile" client
 *     address opens sessions and fills what the device's filter budget (`maxDeviceTerms`)
 *     has left with content filters that are costly to evaluate and match nothing, until
 *     a configure past the budget is refused with 2104 (which it must be). The normal
 *     clients' p99 notification latency in the hostile half must stay within 2x of the
 *     quiet half's (the same-run baseline).
 *
 * The device runs in a child process (bench/load-device.js) with auth none and every
 * limit at its default; without accounts sessions are counted per remote address (and
 * terms per session, all of them within the device's budget), so the normal sessions come
 * from 127.0.0.2-5 (a quarter each) and the hostile ones from 127.0.0.9.
 *
 * Knobs (arguments or environment): --sessions (LOAD_SESSIONS, 1000), --seconds
 * (LOAD_SECONDS, 60: half quiet, half hostile), --rate (LOAD_RATE, events/s, 100),
 * --hostile-sessions (LOAD_HOSTILE_SESSIONS, 500).
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { forkChild } = require('./child');
const { openSession } = require('./stream-session');
const { DIST, configureRequest, makeEvents } = require('./event-mix');

const NORMAL_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const HOSTILE_ADDRESS = '127.0.0.9';

function option(name, env, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  const text = at >= 0 ? process.argv[at + 1] : process.env[env];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a whole number of at least 1, not ${text}`);
  return value;
}

const CONFIG = {
  sessions: option('sessions', 'LOAD_SESSIONS', 1000),
  seconds: option('seconds', 'LOAD_SECONDS', 60),
  rate: option('rate', 'LOAD_RATE', 100),
  hostileSessions: option('hostile-sessions', 'LOAD_HOSTILE_SESSIONS', 500),
};

/** A growable list of latencies (ms) for one phase. */
class Samples {
  constructor() {
    this.values = new Float64Array(1 << 16);
    this.length = 0;
  }
  push(v) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }
  percentile(p) {
    if (this.length === 0) return NaN;
    const sorted = this.values.slice(0, this.length).sort();
    return sorted[Math.min(this.length - 1, Math.floor((p / 100) * this.length))];
  }
}

/** Content filters of `terms` comparisons in all (at most 256 a filter) that match none of the mix's events. */
function costlyFilters(terms, salt) {
  const filters = [];
  for (let from = 0; from < terms; from += 256) {
    const count = Math.min(256, terms - from);
    const values = Array.from({ length: count }, (_, i) => `@Value='never-${salt}-${from + i}'`).join(' or ');
    filters.push({ contentFilter: `boolean(//SimpleItem[${values}])` });
  }
  return filters;
}

async function main() {
  const { compileConfigure, filterMatches } = require(path.join(DIST, 'events', 'configure.js'));
  const { DEFAULT_SESSION_LIMITS, SESSION_FREE_TERMS } = require(path.join(DIST, 'events', 'session-limits.js'));
  const device = forkChild(path.join(__dirname, 'load-device.js'), [], { name: 'device process' });
  const { port } = await device.next('ready');

  const events = makeEvents(10_000);
  const total = CONFIG.seconds * CONFIG.rate;
  const half = Math.floor(total / 2);
  const phaseOf = (seq) => (seq < half ? 0 : 1);
  const latencies = [new Samples(), new Samples()];
  const received = new Int32Array(CONFIG.sessions);
  const expected = new Int32Array(CONFIG.sessions);

  // Expected deliveries per session: its 3 filters against every event (one delivery per matching filter).
  const compiledSets = new Map();
  for (let c = 0; c < CONFIG.sessions; c++) {
    const request = configureRequest(c);
    const key = JSON.stringify(request.params);
    if (!compiledSets.has(key))
      compiledSets.set(key, compileConfigure(request, { topicAliases: { onvif: 'tns1' }, maxFilters: 256 }).value);
    const filters = compiledSets.get(key);
    for (let seq = 0; seq < total; seq++) {
      const e = events[seq % events.length];
      for (const f of filters) if (filterMatches(f, e.topic, e.message)) expected[c]++;
    }
  }

  const normal = [];
  for (let c = 0; c < CONFIG.sessions; c++) {
    const onMessage = (data) => {
      const now = performance.timeOrigin + performance.now();
      const { key } = JSON.parse(data.toString()).params.notification.message;
      received[c]++;
      latencies[phaseOf(Number(key.seq))].push(now - Number(key.sentAt));
    };
    const { ws, answer } = await openSession(
      port,
      NORMAL_ADDRESSES[c % NORMAL_ADDRESSES.length],
      configureRequest(c),
      onMessage,
    );
    if (answer.error) throw new Error(`configure of session ${c} refused: ${JSON.stringify(answer.error)}`);
    normal.push(ws);
  }
  console.log(
    `load: ${CONFIG.sessions} sessions open and configured; ${total} events at ${CONFIG.rate}/s over ${CONFIG.seconds} s`,
  );

  const quiet = await device.ask({ cmd: 'publish', from: 0, count: half, rate: CONFIG.rate }, 'published');

  // The hostile client: sessions that ask for the device's whole budget between them (beyond
  // their free terms; all but the last session would take it), until one is refused.
  const budget = DEFAULT_SESSION_LIMITS.maxDeviceTerms;
  const hostile = [];
  const perSession = SESSION_FREE_TERMS + Math.ceil(budget / Math.max(1, CONFIG.hostileSessions - 1));
  let held = 0;
  let over = { error: 'the device budget was never reached' };
  for (let h = 0; h < CONFIG.hostileSessions; h++) {
    const request = {
      apiVersion: '1.0',
      method: 'events:configure',
      params: { eventFilterList: costlyFilters(perSession, h) },
    };
    const { ws, answer } = await openSession(port, HOSTILE_ADDRESS, request, () => undefined);
    hostile.push(ws);
    if (answer.error) {
      over = answer;
      break;
    }
    held += perSession;
  }
  const overRefused = over.error?.code === 2104;
  console.log(
    `load: hostile ${HOSTILE_ADDRESS}: ${hostile.length} sessions holding ${held} terms; the configure past the device's budget: ${JSON.stringify(over.error)}`,
  );

  const loud = await device.ask({ cmd: 'publish', from: half, count: total - half, rate: CONFIG.rate }, 'published');

  // Let the last notifications arrive: until every session has what it expects, or 10 s.
  const deadline = performance.now() + 10_000;
  const missing = () => expected.reduce((sum, e, c) => sum + Math.max(0, e - received[c]), 0);
  while (missing() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));

  const lost = missing();
  const extra = expected.reduce((sum, e, c) => sum + Math.max(0, received[c] - e), 0);
  const notifications = received.reduce((a, b) => a + b, 0);
  const p = (s, q) => s.percentile(q).toFixed(2);
  const ratio = latencies[1].percentile(99) / latencies[0].percentile(99);
  console.log(
    `load: notifications expected ${expected.reduce((a, b) => a + b, 0)}, received ${notifications}, lost ${lost}, extra ${extra}`,
  );
  console.log(
    `load: quiet   latency p50 ${p(latencies[0], 50)} ms, p99 ${p(latencies[0], 99)} ms (${latencies[0].length} notifications; device cpu ${(quiet.cpu.user + quiet.cpu.system) / 1e3} ms)`,
  );
  console.log(
    `load: hostile latency p50 ${p(latencies[1], 50)} ms, p99 ${p(latencies[1], 99)} ms (${latencies[1].length} notifications; device cpu ${(loud.cpu.user + loud.cpu.system) / 1e3} ms)`,
  );
  console.log(`load: p99 ratio hostile/quiet ${ratio.toFixed(2)} (must be at most 2)`);

  for (const ws of [...normal, ...hostile]) ws?.terminate();
  await device.close({ cmd: 'close' }, 'closed');
  const ok = lost === 0 && extra === 0 && ratio <= 2 && overRefused;
  console.log(ok ? 'load: PASS' : 'load: FAIL');
  if (!ok) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
