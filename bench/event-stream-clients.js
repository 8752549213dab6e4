'use strict';
/**
 * Client side of bench/event-stream.js, run as a child process (fork, IPC) so that
 * receiving and parsing frames does not compete with the server for its event loop.
 * It holds one set of WebSocket clients per server under test ("raw" and "emu"),
 * counts the frames each client receives and tells the parent when the expected
 * total has arrived. Not a benchmark on its own: bench/run.js does not list it.
 *
 * Messages from the parent:
 *   { cmd: 'open', side, urls: string[], configures: (object|null)[] }
 *       -> { type: 'opened', side }          every client connected (and configured)
 *   { cmd: 'arm', side, expected: number }   resets the counters of that side
 *       -> { type: 'armed', side }
 *       -> { type: 'done', side, cpu }       when `expected` frames have arrived
 *   { cmd: 'report', side }
 *       -> { type: 'report', side, counts: number[], bytes: number[] }
 *   { cmd: 'close' }
 *       -> { type: 'closed' }, then the process exits by itself
 */
const WebSocket = require('ws');

/** side -> { sockets, counts, bytes, received, expected, armed, cpuStart } */
const sides = new Map();

function send(message) {
  if (process.connected) process.send(message);
}

function fail(err) {
  send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
}

async function open(side, urls, configures) {
  const state = {
    side,
    sockets: [],
    counts: new Array(urls.length).fill(0),
    bytes: new Array(urls.length).fill(0),
    received: 0,
    expected: Infinity,
    armed: false,
    cpuStart: undefined,
  };
  sides.set(side, state);
  await Promise.all(
    urls.map(
      (url, index) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          state.sockets[index] = ws;
          const configure = configures[index];
          ws.once('error', reject);
          ws.once('open', () => {
            if (!configure) {
              attach(state, ws, index);
              resolve();
              return;
            }
            ws.once('message', (data) => {
              // The configure answer; everything after it is a notification.
              const answer = JSON.parse(data.toString());
              if (answer.error)
                return reject(new Error(`configure refused for client ${index}: ${JSON.stringify(answer.error)}`));
              attach(state, ws, index);
              resolve();
            });
            ws.send(JSON.stringify(configure));
          });
        }),
    ),
  );
  for (const ws of state.sockets) {
    ws.removeAllListeners('error');
    ws.on('error', (err) => fail(err));
  }
  send({ type: 'opened', side });
}

/** The hot path of the client side: count and sum lengths, nothing else. */
function attach(state, ws, index) {
  ws.on('message', (data) => {
    state.counts[index]++;
    state.bytes[index] += data.length;
    if (++state.received === state.expected && state.armed) {
      state.armed = false;
      const cpu = process.cpuUsage(state.cpuStart);
      send({ type: 'done', side: state.side, cpu });
    }
  });
}

function arm(side, expected) {
  const state = sides.get(side);
  state.counts.fill(0);
  state.bytes.fill(0);
  state.received = 0;
  state.expected = expected;
  state.armed = true;
  state.cpuStart = process.cpuUsage();
  send({ type: 'armed', side });
}

async function closeAll() {
  const closing = [];
  for (const state of sides.values()) {
    for (const ws of state.sockets) {
      if (ws.readyState === WebSocket.CLOSED) continue;
      closing.push(new Promise((resolve) => ws.once('close', resolve)));
      ws.close(1000, 'bench done');
    }
  }
  // A server that does not answer the close handshake in time is cut off.
  const cut = setTimeout(() => {
    for (const state of sides.values()) for (const ws of state.sockets) ws.terminate();
  }, 2000);
  await Promise.all(closing);
  clearTimeout(cut);
  send({ type: 'closed' });
  process.disconnect();
}

process.on('message', (msg) => {
  try {
    switch (msg.cmd) {
      case 'open':
        open(msg.side, msg.urls, msg.configures).catch(fail);
        break;
      case 'arm':
        arm(msg.side, msg.expected);
        break;
      case 'report': {
        const state = sides.get(msg.side);
        send({ type: 'report', side: msg.side, counts: state.counts, bytes: state.bytes });
        break;
      }
      case 'close':
        closeAll().catch(fail);
        break;
      default:
        fail(new Error(`unknown command ${msg.cmd}`));
    }
  } catch (err) {
    fail(err);
  }
});

// If the parent dies, do not linger.
process.on('disconnect', () => {
  for (const state of sides.values())
    for (const ws of state.sockets) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
});
