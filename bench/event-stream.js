'use strict';
/**
 * Event stream fan-out: notifications delivered per second by the emulator's event
 * stream (EventBus -> StreamServer -> EventSession -> ws) against a bare `ws` server
 * that sends the very same frames to the very same clients, batched the same way.
 *
 * Configurations (`kind:sessions`, BENCH_FANOUT, default
 * `topic:200,topic:800,topic:5000,content:200,content:800,mix:200`):
 *  - one device, `startDevice({ port: 0, auth: 'none', maxBufferedBytes: 1 GiB, initialStates: [] })`
 *    with its session limits raised to the run's sessions (no initial states, so
 *    configuring a session sends nothing but the answer);
 *  - `sessions` WebSocket sessions, each configured with 3 filters of one kind
 *    (bench/event-mix.js: `topic` three topic filters, `content` three content filters
 *    and no topic, `mix` one concrete path, one `//.` subtree and one content filter;
 *    60 distinct filter sets of each kind, some with `onvif:` aliases);
 *  - events from a fixed, seeded mix of 21 topics (alarms and states clients filter
 *    for, and high-rate telemetry such as GNSS position that no filter selects), so
 *    most events match none of a given client's filters (the run prints the shares);
 *    BENCH_EVENTS events per run, by default 10 million / sessions (2,000 to 50,000);
 *  - events are published BATCH per setImmediate tick.
 *
 * Baseline: a bare `ws` WebSocketServer on its own node:http server (upgrade event,
 * like the device) with its own connections. For every event it serialises the
 * notification once (JSON.stringify and UTF-8, the work any broadcaster of events does
 * and the device does; the resulting bytes are the device's, checked up front;
 * BENCH_RAW_SERIALIZE=0 makes them up front instead) and sends each client that frame
 * as many times as the emulator does (once per matching filter). Which
 * client gets which event is computed once up front with the emulator's own
 * compiled filters, so the baseline does no filtering at all. It batches its writes
 * as the product does: each socket is corked at its first frame of a tick and
 * uncorked at the tick's end (one process.nextTick for all of them), and flushed
 * every 16 KiB within a tick (BENCH_RAW_BATCH=0: no batching, one write per frame,
 * the weaker baseline this benchmark used before). Every run checks the per-client
 * counts and byte totals the clients received, so both sides provably deliver
 * identical traffic.
 *
 * The clients live in a child process (bench/event-stream-clients.js): on a
 * 2-core machine that gives the server side one core to itself, whereas clients in
 * the same process would spend the server's event loop parsing frames, add the
 * same fixed cost to both sides and squeeze the ratio towards 1. Each run reports
 * the CPU time of both processes, so a client-bound run is visible.
 *
 * Measured: wall time from the first publish until the clients have received every
 * expected notification (the child reports over IPC), and notifications/s. After one
 * unreported warm-up each, the sides alternate and take turns going first (raw, emu, then
 * emu, raw, ...), so that neither side always runs right after the other; medians are
 * reported, plus `ratio: 0.NN` (emulator / raw).
 *
 * Knobs (environment): BENCH_FANOUT (see above), BENCH_EVENTS, BENCH_BATCH (500),
 * BENCH_ROUNDS (5), BENCH_WARMUP_EVENTS (2500, 0 for none), BENCH_ONLY (some of raw, emu:
 * e.g. one side only, under --cpu-prof), BENCH_RAW_BATCH=0, BENCH_RAW_SERIALIZE=0.
 */
const { intEnv, listEnv, rotated } = require('./env');
const { figure, fmt, median, percent, printAligned } = require('./figures');
const { FILTER_KINDS, makeEvents, configureRequest } = require('./event-mix');
const { forkChild } = require('./child');
const { once } = require('node:events');
const http = require('node:http');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');
const { WebSocketServer } = require('ws');

const DIST = path.join(__dirname, '..', 'dist');

const CONFIG = {
  events: intEnv('BENCH_EVENTS', 0, 0),
  batch: intEnv('BENCH_BATCH', 500, 0),
  rounds: intEnv('BENCH_ROUNDS', 5, 0),
  warmupEvents: intEnv('BENCH_WARMUP_EVENTS', 2_500, 0),
  only: listEnv('BENCH_ONLY', ['raw', 'emu'], ['raw', 'emu']),
  rawBatch: process.env.BENCH_RAW_BATCH !== '0',
  rawSerialize: process.env.BENCH_RAW_SERIALIZE !== '0',
  runs: fanoutEnv(),
};

/**
 * Bounds on the notifications/s of emulator / batched bare ws, by `kind:sessions`: at least
 * 0.9 with topic filters at 200 sessions, at least 0.8 with more sessions or content filters;
 * none for the mixed filters (reported for information).
 */
const FANOUT_BOUNDS = {
  'topic:200': '>= 0.9',
  'topic:800': '>= 0.8',
  'topic:5000': '>= 0.8',
  'content:200': '>= 0.8',
  'content:800': '>= 0.8',
};

/** Bytes a socket takes within one tick before it is flushed: the product's FLUSH_BYTES. */
const FLUSH_BYTES = 16 * 1024;

/** BENCH_FANOUT as a list of `{ kind, clients }`. */
function fanoutEnv() {
  const raw = process.env.BENCH_FANOUT || 'topic:200,topic:800,topic:5000,content:200,content:800,mix:200';
  return raw.split(',').map((item) => {
    const [kind, count] = item.trim().split(':');
    const clients = Number(count);
    if (!FILTER_KINDS.includes(kind) || !Number.isInteger(clients) || clients < 1)
      throw new Error(`BENCH_FANOUT: "${item}" is not kind:sessions with a kind of ${FILTER_KINDS.join(', ')}`);
    return { kind, clients };
  });
}

// ---- workload ------------------------------------------------------------------

/**
 * Per event, the clients it goes to (a client appears once per matching filter),
 * computed with the emulator's own compiled filters; filter sets are shared by many
 * clients, so each distinct set is evaluated once.
 */
function planDeliveries(deviceEvents, clients, kind, rules) {
  const { compileConfigure, filterMatches } = require(path.join(DIST, 'events', 'configure.js'));
  const bySet = new Map();
  const setOf = [];
  for (let c = 0; c < clients; c++) {
    const request = configureRequest(c, kind);
    const key = JSON.stringify(request.params);
    if (!bySet.has(key)) {
      const compiled = compileConfigure(request, rules);
      if (!compiled.ok) throw new Error(`bench filter refused: ${compiled.error.message}`);
      bySet.set(key, { filters: compiled.value, clients: [] });
    }
    const set = bySet.get(key);
    set.clients.push(c);
    setOf[c] = set;
  }
  const sets = [...bySet.values()];
  const perEvent = [];
  const perClient = new Array(clients).fill(0);
  const perClientBytes = new Array(clients).fill(0);
  const perFilterKind = [0, 0, 0];
  let none = 0;
  for (let i = 0; i < deviceEvents.length; i++) {
    const e = deviceEvents[i];
    const bytes = Buffer.byteLength(e.json);
    const targets = [];
    for (const set of sets) {
      let times = 0;
      set.filters.forEach((f, k) => {
        if (filterMatches(f, e.topic, e.message)) {
          times++;
          perFilterKind[k] += set.clients.length;
        }
      });
      if (times === 0) {
        none += set.clients.length;
        continue;
      }
      for (const c of set.clients) {
        for (let t = 0; t < times; t++) targets.push(c);
        perClient[c] += times;
        perClientBytes[c] += times * bytes;
      }
    }
    perEvent.push(Int32Array.from(targets));
  }
  const total = perClient.reduce((s, n) => s + n, 0);
  return { perEvent, perClient, perClientBytes, total, perFilterKind, none, distinctSets: sets.length, setOf };
}

// ---- the two servers -----------------------------------------------------------

/** Publishes `count` events through `publishOne`, `batch` per setImmediate tick; resolves after the last. */
function publishInBatches(count, batch, publishOne) {
  return new Promise((resolve, reject) => {
    let i = 0;
    const tick = () => {
      try {
        const end = Math.min(i + batch, count);
        for (; i < end; i++) publishOne(i);
      } catch (err) {
        reject(err);
        return;
      }
      if (i < count) setImmediate(tick);
      else resolve();
    };
    tick();
  });
}

async function startRawServer(clients) {
  const sockets = new Array(clients);
  const server = http.createServer((req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    const index = Number(new URL(req.url, 'http://raw.invalid').searchParams.get('client'));
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets[index] = ws;
      ws.on('error', () => {});
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `ws://127.0.0.1:${server.address().port}/raw`;
  return {
    urls: Array.from({ length: clients }, (_, c) => `${url}?client=${c}`),
    sockets,
    async close() {
      for (const ws of sockets) if (ws && ws.readyState !== ws.CLOSED) ws.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// ---- one measured run ----------------------------------------------------------

async function measure(side, clientProc, eventCount, expectedTotal, publishOne, check) {
  await clientProc.ask({ cmd: 'arm', side, expected: expectedTotal }, 'armed', { side });
  if (global.gc) global.gc();
  const done = clientProc.next('done', { side });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await publishInBatches(eventCount, CONFIG.batch, publishOne);
  const tPublished = performance.now();
  const message = await done;
  const t1 = performance.now();
  const serverCpu = process.cpuUsage(cpu0);
  const seconds = (t1 - t0) / 1000;
  // Let stray extra frames (there must be none) arrive before the per-client check.
  await new Promise((resolve) => setTimeout(resolve, 100));
  check(await clientProc.ask({ cmd: 'report', side }, 'report', { side }));
  return {
    side,
    seconds,
    publishSeconds: (tPublished - t0) / 1000,
    rate: expectedTotal / seconds,
    serverCpu: (serverCpu.user + serverCpu.system) / 1e6 / seconds,
    clientCpu: (message.cpu.user + message.cpu.system) / 1e6 / seconds,
  };
}

function checkReport(report, plan, eventCount, limitPlan) {
  const counts = limitPlan ? limitPlan.perClient : plan.perClient;
  const bytes = limitPlan ? limitPlan.perClientBytes : plan.perClientBytes;
  for (let c = 0; c < counts.length; c++) {
    if (report.counts[c] !== counts[c] || report.bytes[c] !== bytes[c]) {
      throw new Error(
        `${report.side}: client ${c} received ${report.counts[c]} frames / ${report.bytes[c]} bytes, expected ${counts[c]} / ${bytes[c]} (events ${eventCount})`,
      );
    }
  }
}

/** Counts for a prefix of the event sequence (the warm-up). */
function prefixPlan(plan, deviceEvents, count, clients) {
  const perClient = new Array(clients).fill(0);
  const perClientBytes = new Array(clients).fill(0);
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.byteLength(deviceEvents[i].json);
    for (const c of plan.perEvent[i]) {
      perClient[c]++;
      perClientBytes[c] += bytes;
    }
  }
  return { perClient, perClientBytes, total: perClient.reduce((s, n) => s + n, 0) };
}

// ---- main ----------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const summaries = [];
  for (const { kind, clients } of CONFIG.runs) summaries.push(await runOne(kind, clients));
  console.log(`\nfan-out ratios (emulator / batched bare ws, medians of ${CONFIG.rounds} alternating pairs):`);
  for (const s of summaries) console.log(`  ${s.kind} x ${s.clients} sessions: ${s.ratio?.toFixed(2) ?? '-'}`);
  console.log(`  (total bench time ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const figures = summaries
    .filter((s) => s.ratio !== undefined)
    .map((s) =>
      figure(`fan-out, ${s.kind} filters x ${s.clients} sessions`, {
        product: fmt(s.summary.emu.median),
        baseline: fmt(s.summary.raw.median),
        unit: 'notifications/s',
        ratio: s.ratio,
        bound: FANOUT_BOUNDS[`${s.kind}:${s.clients}`] ?? '',
      }),
    );
  return { name: 'fan-out', figures, runs: summaries };
}

/** Events per run: BENCH_EVENTS, or 10 million / sessions within 2,000..50,000. */
function eventsFor(clients) {
  if (CONFIG.events > 0) return CONFIG.events;
  return Math.max(2_000, Math.min(50_000, Math.round(10_000_000 / clients)));
}

async function runOne(kind, clients) {
  const { startDevice } = require(path.join(DIST, 'index.js'));
  const eventCount = eventsFor(clients);
  const started = performance.now();

  const device = await startDevice({
    port: 0,
    auth: 'none',
    maxBufferedBytes: 1024 * 1024 * 1024,
    initialStates: [],
    limits: {
      maxSessions: clients,
      maxSessionsPerAccount: clients,
      maxAccountTerms: clients * 16,
      maxDeviceTerms: clients * 16,
    },
  });
  const raw = await startRawServer(clients);
  const clientProc = forkChild(path.join(__dirname, 'event-stream-clients.js'), [], { name: 'client process' });
  try {
    // Record what the device serialises for each event (no session is connected yet,
    // so nothing is delivered); the raw server sends exactly these bytes.
    const events = makeEvents(eventCount);
    const deviceEvents = events.map((e) => device.publish(e.topic, e.message, { timestamp: e.timestamp }));
    const rawPayloads = payloadMaker(deviceEvents);
    const plan = planDeliveries(deviceEvents, clients, kind, {
      topicAliases: device.options.topicAliases,
      maxFilters: device.options.maxFilters,
    });
    const avgBytes = Math.round(plan.perClientBytes.reduce((s, n) => s + n, 0) / plan.total);

    // Connect both client sets (the emulator's sessions configured with their filters).
    const emuUrl = `ws://127.0.0.1:${device.port}${device.options.wsPrefix}/ws-data-stream?sources=events`;
    const urls = new Array(clients).fill(emuUrl);
    const configures = Array.from({ length: clients }, (_, c) => configureRequest(c, kind));
    await clientProc.ask({ cmd: 'open', side: 'emu', urls, configures }, 'opened', { side: 'emu' });
    const rawOpen = { cmd: 'open', side: 'raw', urls: raw.urls, configures: new Array(clients).fill(null) };
    await clientProc.ask(rawOpen, 'opened', { side: 'raw' });
    const live = device.sessions();
    if (live.length !== clients || live.some((s) => s.state !== 'CONFIGURED'))
      throw new Error(`expected ${clients} configured sessions, found ${live.length}`);
    if (raw.sockets.filter(Boolean).length !== clients) throw new Error('raw server: not every client connected');

    const rawPublish = CONFIG.rawBatch
      ? batchedSender(raw.sockets, rawPayloads, plan)
      : plainSender(raw.sockets, rawPayloads, plan);
    const emuPublish = (i) => {
      const e = events[i];
      device.publish(e.topic, e.message, { timestamp: e.timestamp });
    };
    const sentSoFar = () => device.sessions().reduce((s, x) => s + x.sent, 0);
    const droppedSoFar = () => device.sessions().reduce((s, x) => s + x.dropped, 0);

    const runSide = async (side, count, limitPlan) => {
      const expected = limitPlan ? limitPlan.total : plan.total;
      const sentBefore = side === 'emu' ? sentSoFar() : 0;
      const result = await measure(
        side,
        clientProc,
        count,
        expected,
        side === 'raw' ? rawPublish : emuPublish,
        (report) => checkReport(report, plan, count, limitPlan),
      );
      if (side === 'emu') {
        const sent = sentSoFar() - sentBefore;
        if (sent !== expected || droppedSoFar() !== 0)
          throw new Error(`emu: sessions report ${sent} sent (expected ${expected}), ${droppedSoFar()} dropped`);
      }
      return result;
    };

    const cells = clients * eventCount;
    const shares = plan.perFilterKind.map((n, k) => `filter ${k + 1} ${percent(n / cells, 1)}`).join(', ');
    console.log(
      `\n--- ${kind} x ${clients} sessions: 3 filters each (${plan.distinctSets} distinct sets), ${eventCount} events, ${CONFIG.batch} per tick, bare ws ${CONFIG.rawBatch ? 'corked per tick' : 'unbatched'}`,
    );
    console.log(
      `  workload: ${plan.total} notifications per run (${(plan.total / clients).toFixed(0)} per client, avg ${avgBytes} B); ` +
        `matches per client-event: ${shares}, none ${percent(plan.none / cells, 1)}`,
    );

    if (CONFIG.warmupEvents > 0) {
      const count = Math.min(CONFIG.warmupEvents, eventCount);
      const warm = prefixPlan(plan, deviceEvents, count, clients);
      for (const side of CONFIG.only) await runSide(side, count, warm);
    }

    const results = { raw: [], emu: [] };
    for (let round = 0; round < CONFIG.rounds; round++) {
      for (const side of rotated(CONFIG.only, round)) {
        const r = await runSide(side, eventCount);
        results[side].push(r);
        console.log(
          `  run ${round + 1} ${side}: ${fmt(r.rate)} notif/s, ${r.seconds.toFixed(2)} s (published in ${r.publishSeconds.toFixed(2)} s), cpu server ${percent(r.serverCpu)} client ${percent(r.clientCpu)}`,
        );
      }
    }

    const summary = {};
    for (const side of CONFIG.only) {
      const runs = results[side];
      const rates = runs.map((r) => r.rate);
      summary[side] = {
        median: median(rates),
        min: Math.min(...rates),
        max: Math.max(...rates),
        seconds: median(runs.map((r) => r.seconds)),
        serverCpu: median(runs.map((r) => r.serverCpu)),
        clientCpu: median(runs.map((r) => r.clientCpu)),
      };
    }
    printTable(summary, plan.total);
    const ratio = summary.emu && summary.raw ? summary.emu.median / summary.raw.median : undefined;
    if (ratio !== undefined) console.log(`ratio: ${ratio.toFixed(2)}`);
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return { kind, clients, events: eventCount, ratio, summary, results };
  } finally {
    await clientProc.close({ cmd: 'close' }, 'closed');
    await device.close();
    await raw.close();
  }
}

/**
 * The bare side's frame of event `i`: by default serialised from the notification when it
 * is sent (one JSON.stringify and one UTF-8 encoding per event, as any broadcaster of events
 * must, and as the device does); with BENCH_RAW_SERIALIZE=0 made up front.
 */
function payloadMaker(deviceEvents) {
  if (!CONFIG.rawSerialize) {
    const made = deviceEvents.map((e) => Buffer.from(e.json));
    return (i) => made[i];
  }
  const notifications = deviceEvents.map((e) => JSON.parse(e.json));
  notifications.forEach((n, i) => {
    if (JSON.stringify(n) !== deviceEvents[i].json) throw new Error(`event ${i} does not serialise the same`);
  });
  return (i) => Buffer.from(JSON.stringify(notifications[i]), 'utf8');
}

/** The bare side without batching: one write per frame. */
function plainSender(sockets, payloads, plan) {
  const sendOpts = { binary: false };
  return (i) => {
    const payload = payloads(i);
    const targets = plan.perEvent[i];
    for (let k = 0; k < targets.length; k++) sockets[targets[k]].send(payload, sendOpts);
  };
}

/**
 * The bare side batched as the product batches: a socket is corked at its first frame of
 * a tick and uncorked at the end of the tick (one nextTick for all sockets), and flushed
 * every {@link FLUSH_BYTES} within the tick.
 */
function batchedSender(sockets, payloads, plan) {
  const sendOpts = { binary: false };
  const corkedBytes = new Int32Array(sockets.length).fill(-1);
  const corked = [];
  const uncorkAll = () => {
    for (let k = 0; k < corked.length; k++) {
      const c = corked[k];
      corkedBytes[c] = -1;
      sockets[c]._socket.uncork();
    }
    corked.length = 0;
  };
  return (i) => {
    const payload = payloads(i);
    const targets = plan.perEvent[i];
    for (let k = 0; k < targets.length; k++) {
      const c = targets[k];
      const ws = sockets[c];
      const socket = ws._socket;
      if (corkedBytes[c] < 0) {
        if (corked.length === 0) process.nextTick(uncorkAll);
        corked.push(c);
        corkedBytes[c] = 0;
        socket.cork();
      }
      ws.send(payload, sendOpts);
      corkedBytes[c] += payload.length;
      if (corkedBytes[c] >= FLUSH_BYTES) {
        corkedBytes[c] = 0;
        socket.uncork();
        socket.cork();
      }
    }
  };
}

function printTable(summary, total) {
  const rows = [
    ['side', 'notif/s (median)', 'min', 'max', 'wall s', 'server cpu', 'client cpu'],
    ...CONFIG.only.map((side) => {
      const s = summary[side];
      return [
        side === 'raw' ? 'raw ws' : 'emulator',
        fmt(s.median),
        fmt(s.min),
        fmt(s.max),
        s.seconds.toFixed(2),
        percent(s.serverCpu),
        percent(s.clientCpu),
      ];
    }),
  ];
  console.log(`\n${total} notifications per run, medians of ${CONFIG.rounds} alternating runs per side:`);
  printAligned(rows);
}

module.exports = { name: 'fan-out', main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
