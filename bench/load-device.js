'use strict';
/**
 * Device side of bench/load.js, run as a child process (fork, IPC) so that the
 * device has its own event loop, as it would on its own host. It starts one device
 * (auth none; every other setting, the limits included, at its default) and
 * publishes the shared event mix (bench/event-mix.js) at a given rate, each event
 * stamped with its sequence number and send time in `key`, so the clients can tell
 * what was lost and how late each notification came.
 *
 * Messages from the parent:
 *   { cmd: 'publish', from, count, rate } -> { type: 'published', count, cpu } once all are out
 *   { cmd: 'close' }                      -> { type: 'closed' }, then the process exits
 * At start: -> { type: 'ready', port }
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');
const { DIST, makeEvents } = require('./event-mix');

const { startDevice } = require(path.join(DIST, 'index.js'));

/** Publishes `count` events from `from` on, `rate` per second, in 10 ms slices. */
function publish(device, events, from, count, rate) {
  return new Promise((resolve) => {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    let sent = 0;
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      for (; sent < due; sent++) {
        const seq = from + sent;
        const e = events[seq % events.length];
        const key = { seq: String(seq), sentAt: String(performance.timeOrigin + performance.now()) };
        device.publish(e.topic, { ...e.message, key });
      }
      if (sent < count) setTimeout(tick, 10);
      else resolve(process.cpuUsage(cpuStart));
    };
    tick();
  });
}

async function main() {
  const device = await startDevice({ port: 0, auth: 'none', initialStates: [] });
  const events = makeEvents(10_000);
  process.on('message', (msg) => {
    if (msg.cmd === 'publish') {
      publish(device, events, msg.from, msg.count, msg.rate).then((cpu) =>
        process.send({ type: 'published', count: msg.count, cpu }),
      );
    } else if (msg.cmd === 'close') {
      device.close().then(() => {
        process.send({ type: 'closed' });
        process.disconnect();
      });
    }
  });
  process.send({ type: 'ready', port: new URL(device.url).port });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
