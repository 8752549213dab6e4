'use strict';
/**
 * Scenario timing: how late notifications reach subscribed clients against the
 * schedule, when a scenario emits RATE events/s for SECONDS to CLIENTS clients.
 *
 * Emulator side: a device playing the scenario `every: <1000/RATE>ms, times: N, emit`
 * through the real ScenarioPlayer and real scheduler (dist/), CLIENTS `ws` clients
 * subscribed with topicFilter "". The k-th notification a client receives belongs to
 * the k-th occurrence, scheduled at start + k * period; its lateness is the receive
 * time minus that.
 *
 * Baseline, same run, same device and clients: a bare scheduler that calls
 * device.publish() from setTimeout at the same absolute times (each timer armed
 * for `start + k * period - Date.now()`, the usual drift-free loop). The difference
 * between the two is what the player adds; both include the event stream. A bare
 * loop like that falls behind for good at 1 ms periods (Node fires no setTimeout
 * sooner than 1 ms after it is set, so every bit of work accumulates), which is why
 * the player's scheduler runs every due timer per wake; a second baseline does the
 * same by hand ("catch-up timer") to show what the player adds over it.
 *
 * Reported: p50, p99 and max lateness (ms) per side, from every client's every
 * notification. The aim is p99 under 5 ms for the emulator.
 *
 * Knobs (environment): BENCH_RATE (1000), BENCH_SECONDS (30), BENCH_CLIENTS (10).
 */
const { intEnv } = require('./env');
const { figure } = require('./figures');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const WebSocket = require('ws');

const DIST = path.join(__dirname, '..', 'dist');
const RATE = intEnv('BENCH_RATE', 1000);
const SECONDS = intEnv('BENCH_SECONDS', 30);
const CLIENTS = intEnv('BENCH_CLIENTS', 10);
const TOPIC = 'tns1:VideoSource/MotionAlarm';

/** Wall time in ms with sub-millisecond resolution, on the same base as Date.now(). */
const wallNow = () => performance.timeOrigin + performance.now();

async function connectClients(device) {
  const url = `${device.url.replace(/^http/, 'ws')}/svc/ws-data-stream?sources=events`;
  return Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url);
          const client = { ws, received: [] };
          ws.once('error', reject);
          ws.once('open', () =>
            ws.send(
              JSON.stringify({
                apiVersion: '1.0',
                method: 'events:configure',
                params: { eventFilterList: [{ topicFilter: TOPIC }] },
              }),
            ),
          );
          ws.once('message', () => {
            ws.on('message', () => client.received.push(wallNow()));
            resolve(client);
          });
        }),
    ),
  );
}

/** Runs one side; `schedule(start, period, count)` must publish `count` events. */
async function runSide(label, device, clients, schedule) {
  for (const c of clients) c.received = [];
  const period = 1000 / RATE;
  const count = RATE * SECONDS;
  const start = Date.now() + 50;
  await schedule(start, period, count);
  await new Promise((resolve) => {
    const check = () => (clients.every((c) => c.received.length >= count) ? resolve() : setTimeout(check, 20));
    check();
  });
  const lateness = [];
  for (const c of clients) c.received.forEach((t, i) => lateness.push(t - (start + (i + 1) * period)));
  lateness.sort((a, b) => a - b);
  const at = (q) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))];
  const result = { label, p50: at(0.5), p99: at(0.99), max: lateness[lateness.length - 1], n: lateness.length };
  console.log(
    `  ${label.padEnd(16)} p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(2)} ms (${result.n} notifications)`,
  );
  return result;
}

async function main() {
  const { startDevice, loadScenario, playOnDevice } = require(path.join(DIST, 'index.js'));
  const device = await startDevice({ port: 0, auth: 'none', initialStates: [] });
  const clients = await connectClients(device);
  console.log(`scenario timing: ${RATE} events/s for ${SECONDS} s to ${CLIENTS} clients`);

  const bare = (start, period, count) =>
    new Promise((resolve) => {
      let k = 1;
      const tick = () => {
        device.publish(TOPIC, { data: { State: '1' } });
        if (++k > count) return resolve();
        setTimeout(tick, Math.max(0, start + k * period - Date.now()));
      };
      setTimeout(tick, Math.max(0, start + period - Date.now()));
    });

  // The same with catch-up: each wake publishes every occurrence due by then.
  const catchUp = (start, period, count) =>
    new Promise((resolve) => {
      let k = 1;
      const wake = () => {
        const now = Date.now();
        while (k <= count && start + k * period <= now) {
          device.publish(TOPIC, { data: { State: '1' } });
          k++;
        }
        if (k > count) return resolve();
        setTimeout(wake, Math.max(0, start + k * period - Date.now()));
      };
      setTimeout(wake, Math.max(0, start + period - Date.now()));
    });

  const player = async (start, period, count) => {
    const loaded = loadScenario(
      `timeline:\n  - every: ${period}ms\n    times: ${count}\n    emit: { topic: ${TOPIC}, data: { State: 1 } }\n`,
      'bench.yaml',
    );
    if (!loaded.ok) throw new Error(loaded.error.message);
    // The player starts its clock at start(): begin exactly at `start` like the bare side.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now())));
    while (Date.now() < start) {
      /* the last sub-millisecond */
    }
    const run = playOnDevice(device, loaded.value);
    await run.done;
  };

  const baseline = await runSide('bare setTimeout', device, clients, bare);
  const caught = await runSide('catch-up timer', device, clients, catchUp);
  const emulator = await runSide('scenario player', device, clients, player);
  console.log(
    `p99: emulator ${emulator.p99.toFixed(2)} ms vs catch-up ${caught.p99.toFixed(2)} ms vs bare ${baseline.p99.toFixed(2)} ms (aim: emulator p99 < 5 ms)`,
  );
  for (const c of clients) c.ws.close();
  await device.close();
  const figures = [
    figure(`scenario timing, p99 lateness at ${RATE} events/s to ${CLIENTS} clients, vs a catch-up timer`, {
      product: emulator.p99.toFixed(2),
      baseline: caught.p99.toFixed(2),
      unit: 'ms (lower is better)',
      ratio: emulator.p99 / caught.p99,
    }),
  ];
  return { name: 'scenario-timing', figures, baseline, caught, emulator };
}

module.exports = { name: 'scenario-timing', main };
