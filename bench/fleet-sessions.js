'use strict';
/**
 * The fleet benchmark's clients (they run in bench/fleet.js's process, apart from the
 * fleet's): a number of event stream sessions to every device, each configured with a topic filter for the event the
 * benchmark publishes, and the time until every session has that event. Not a benchmark
 * on its own.
 */
const { performance } = require('node:perf_hooks');
const { openSession } = require('./stream-session');

/** The topic bench/fleet-server.js publishes on every device. */
const TOPIC = 'tns1:Device/Trigger/DigitalInput';
/** How many sessions are being opened at once. */
const CONCURRENCY = 200;
/** How long an event may take to reach every session before the measurement fails. */
const ARRIVAL_TIMEOUT_MS = 120_000;

/** Opens one session at `url`, configured for TOPIC; resolves with its socket once the configure is answered. */
async function openFleetSession(url, index) {
  const configure = {
    apiVersion: '1.0',
    context: `fleet-${index}`,
    method: 'events:configure',
    params: { eventFilterList: [{ topicFilter: TOPIC }] },
  };
  const { ws, answer } = await openSession(url, undefined, configure);
  if (answer.error) throw new Error(`configure refused: ${JSON.stringify(answer.error)}`);
  return ws;
}

/**
 * Opens `perDevice` configured sessions to each of `targets` ([host, port] pairs),
 * CONCURRENCY at a time. Returns:
 *  - `arrival()`: resolves with the performance.now() at which the last session received
 *    its next message (call it before the publish), once every session has one; the first
 *    of them is checked to be an events:notify of TOPIC;
 *  - `close()`: cuts every socket.
 */
async function openSessions(targets, perDevice) {
  const urls = [];
  for (const [host, port] of targets)
    for (let s = 0; s < perDevice; s++) urls.push(`ws://${host}:${port}/svc/ws-data-stream?sources=events`);
  const sockets = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const index = next++;
      sockets[index] = await openFleetSession(urls[index], index);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
  } catch (err) {
    for (const ws of sockets) ws?.terminate();
    throw err;
  }
  return {
    arrival: () => arrival(sockets),
    close() {
      for (const ws of sockets) ws.terminate();
    },
  };
}

/** Waits for one message on every socket of `sockets`; resolves with when the last came. */
function arrival(sockets) {
  return new Promise((resolve, reject) => {
    const got = new Uint8Array(sockets.length);
    let missing = sockets.length;
    let sample;
    const done = (err, at) => {
      clearTimeout(timer);
      sockets.forEach((ws) => ws.removeAllListeners('message'));
      if (err) return reject(err);
      const message = JSON.parse(sample.toString());
      if (message.method !== 'events:notify' || message.params?.notification?.topic !== TOPIC)
        return reject(new Error(`the sessions received ${sample.toString().slice(0, 200)}, not the event`));
      resolve(at);
    };
    const timer = setTimeout(
      () => done(new Error(`${missing} of ${sockets.length} sessions had no event after ${ARRIVAL_TIMEOUT_MS} ms`)),
      ARRIVAL_TIMEOUT_MS,
    );
    sockets.forEach((ws, index) =>
      ws.on('message', (data) => {
        if (got[index]) return;
        got[index] = 1;
        sample ??= data;
        if (--missing === 0) done(undefined, performance.now());
      }),
    );
  });
}

module.exports = { openSessions, TOPIC };
