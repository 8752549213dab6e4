'use strict';
/**
 * One side of the fleet benchmark (bench/fleet.js), in its own process so that its memory
 * and its event loop are its own. Not a benchmark on its own.
 *
 *   node --expose-gc bench/fleet-server.js bare|address|ports COUNT
 * address: startEmulator({ devices: COUNT, addressRange: ADDRESS_START }) from dist/, every
 *          device on one free port, device i at ADDRESS_START + i;
 * ports:   startEmulator({ devices: COUNT }) from dist/, each device on a free port of its own
 *          (consecutive where free); both with a quiet scenario, auth none, the control API on,
 *          logs silent;
 * bare:    COUNT node:http servers on 127.0.0.1, a free port each, taken as the emulator takes
 *          them, each with a ws WebSocketServer in noServer mode (the device's settings: no
 *          permessage-deflate, no client tracking) that accepts every upgrade on the stream
 *          path, answers every message as the device answers a configure, and keeps its
 *          sockets for a publish (what a device must at least be).
 * Messages (bench/child.js): -> { type: 'ready', startMs } once every server listens (from the
 * start call);
 * { cmd: 'targets' } -> { type: 'targets', targets: [host, port][] }, each device's address;
 * { cmd: 'memory' } -> { type: 'memory', usage } (process.memoryUsage() after two forced GCs);
 * { cmd: 'publish' } -> { type: 'published', ms }: EVENT published on every device (emulator:
 * device.publish; bare: each server builds the events:notify frame once, one JSON.stringify,
 * and sends it to each of its sockets, corked until the end of the tick as the device's are),
 * `ms` the time the publishing loop took.
 * BENCH_FLEET_DIST: another build's dist/ (bench/shared-caches.js runs copies with a cache off).
 */
const http = require('node:http');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const DIST = process.env.BENCH_FLEET_DIST || path.join(__dirname, '..', 'dist');
const STREAM_PATH = '/svc/ws-data-stream';
/** The first device's address in address mode. */
const ADDRESS_START = '127.1.0.1';
/** The event published to every device: a topic no initial state has, so a session hears it alone. */
const EVENT = {
  topic: 'tns1:Device/Trigger/DigitalInput',
  message: { source: { port: '1' }, data: { active: 'true' } },
};

/** Sends `message` to the parent while it is there. */
function send(message) {
  if (process.connected) process.send(message);
}

/** One bare server's upgrades: the handshake, configure answers, and its open sockets in `clients`. */
function acceptUpgrades(server, wss, clients) {
  server.on('upgrade', (req, socket, head) => {
    if (!req.url.startsWith(STREAM_PATH)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ws.on('error', () => undefined);
      ws.on('close', () => clients.delete(ws));
      ws.on('message', (data) => {
        const request = JSON.parse(data.toString());
        ws.send(
          JSON.stringify({
            apiVersion: request.apiVersion,
            context: request.context,
            method: request.method,
            data: {},
          }),
        );
      });
    });
  });
}

/** How many taken ports in a row a bare server tries past before it asks the kernel for a free one (as the emulator). */
const MAX_TRIES = 16;

/** Listens on `port` on 127.0.0.1; rejects with the listen error (EADDRINUSE). */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    const failed = (err) => reject(err);
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', failed);
      resolve();
    });
  });
}

/**
 * Listens at `next` or the free ports after it, else on a free port the kernel picks; resolves
 * with the port to try next. The ports the emulator's free-port fleet takes (consecutive where
 * free), as binding a given port is quick while the kernel's search for a free one slows with
 * every port taken: the baseline is spared that slowness too.
 */
async function listenNear(server, next) {
  for (let tries = 0; next > 0 && next <= 65535 && tries < MAX_TRIES; tries++) {
    try {
      await listen(server, next++);
      return next;
    } catch (err) {
      if (err.code !== 'EADDRINUSE') throw err;
    }
  }
  await listen(server, 0);
  return server.address().port + 1;
}

/** COUNT bare servers: their targets, and a publish that sends EVENT to every socket. */
async function startBare(count) {
  const { WebSocketServer } = require('ws');
  const servers = [];
  let next = 0;
  for (let i = 0; i < count; i++) {
    const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    const clients = new Set();
    acceptUpgrades(server, wss, clients);
    next = await listenNear(server, next);
    servers.push({ port: server.address().port, clients });
  }
  return {
    targets: () => servers.map((s) => ['127.0.0.1', s.port]),
    publish() {
      for (const { clients } of servers) {
        // Each device serialises its own event once (its own timestamp), as the device's bus does.
        const message = { source: EVENT.message.source, key: {}, data: EVENT.message.data };
        const notification = { topic: EVENT.topic, timestamp: Date.now(), message };
        const frame = Buffer.from(
          JSON.stringify({ apiVersion: '1.0', method: 'events:notify', params: { notification } }),
          'utf8',
        );
        // Each socket corked until the end of the tick, as the device's sessions are.
        for (const ws of clients) {
          const socket = ws._socket;
          socket.cork();
          ws.send(frame, { binary: false });
          process.nextTick(() => socket.uncork());
        }
      }
    },
  };
}

/** A fleet of COUNT emulated devices, in address mode or ports mode. */
async function startEmu(count, mode) {
  const { startEmulator, loadScenario } = require(path.join(DIST, 'index.js'));
  const quiet = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');
  const emulator = await startEmulator({
    scenarios: [{ scenario: quiet.value }],
    devices: count,
    device: { port: 0, auth: 'none' },
    ...(mode === 'address' ? { addressRange: ADDRESS_START } : {}),
  });
  return {
    targets: () => emulator.devices.map((d) => [reachable(d.device.host), d.device.port]),
    publish() {
      for (const d of emulator.devices) d.device.publish(EVENT.topic, EVENT.message);
    },
  };
}

/** The address a client dials for a server bound to `host` (a wildcard bind is reached on loopback). */
function reachable(host) {
  return host === '0.0.0.0' || host === '::' || host === undefined ? '127.0.0.1' : host;
}

/** Checks that address mode gave each device its own address on one port, and ports mode a port each. */
function checkTargets(targets, mode) {
  const distinct = (values) => new Set(values).size;
  if (
    mode === 'address' &&
    (distinct(targets.map((t) => t[0])) !== targets.length || distinct(targets.map((t) => t[1])) !== 1)
  )
    throw new Error('address mode: the devices do not each have an address of their own on one port');
  if (mode !== 'address' && distinct(targets.map((t) => `${t[0]}:${t[1]}`)) !== targets.length)
    throw new Error(`${mode}: two devices share an address and port`);
}

async function run() {
  const [side, countText] = process.argv.slice(2);
  if (!['bare', 'address', 'ports'].includes(side)) throw new Error(`unknown side "${side}"`);
  const count = Number(countText);
  const started = performance.now();
  const fleet = side === 'bare' ? await startBare(count) : await startEmu(count, side);
  const startMs = performance.now() - started;
  checkTargets(fleet.targets(), side);
  process.on('message', (message) => {
    try {
      if (message.cmd === 'targets') send({ type: 'targets', targets: fleet.targets() });
      else if (message.cmd === 'memory') {
        global.gc?.();
        global.gc?.();
        send({ type: 'memory', usage: process.memoryUsage() });
      } else if (message.cmd === 'publish') {
        const before = performance.now();
        fleet.publish();
        send({ type: 'published', ms: performance.now() - before });
      }
    } catch (err) {
      send({ type: 'error', message: err.stack ?? String(err) });
    }
  });
  send({ type: 'ready', startMs });
}

run().catch((err) => {
  send({ type: 'error', message: err.stack ?? String(err) });
  process.exitCode = 1;
  setImmediate(() => process.exit(1));
});
