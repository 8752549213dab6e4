'use strict';
/**
 * One side of the fleet benchmark, in its own process so its memory is its own:
 *   node bench/fleet-server.js emu|bare COUNT
 * emu:  startEmulator({ devices: COUNT }) from dist/, a quiet scenario, auth none, the
 *       control API on, logs silent;
 * bare: COUNT node:http servers, each with a ws WebSocketServer in noServer mode that
 *       accepts every upgrade on the stream path (what a device must at least be).
 * Tells the parent over IPC: { ready, startMs, ports } once every server listens, and
 * { memory } when asked (after a forced GC when --expose-gc is on).
 */
const http = require('node:http');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

// BENCH_FLEET_DIST: another build's dist/ (bench/shared-caches.js runs copies with a cache turned off).
const DIST = process.env.BENCH_FLEET_DIST || path.join(__dirname, '..', 'dist');
const STREAM_PATH = '/svc/ws-data-stream';

/** COUNT bare servers; resolves with their ports. */
async function startBare(count) {
  const { WebSocketServer } = require('ws');
  const ports = [];
  for (let i = 0; i < count; i++) {
    const wss = new WebSocketServer({ noServer: true, clientTracking: false });
    const server = http.createServer((req, res) => res.writeHead(404).end());
    server.on('upgrade', (req, socket, head) => {
      if (!req.url.startsWith(STREAM_PATH)) return socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => ws.on('error', () => undefined));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push(server.address().port);
  }
  return ports;
}

/** A fleet of COUNT emulated devices; resolves with their ports. */
async function startEmu(count) {
  const { startEmulator, loadScenario } = require(path.join(DIST, 'index.js'));
  const quiet = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');
  const emulator = await startEmulator({
    scenarios: [{ scenario: quiet.value }],
    devices: count,
    device: { port: 0, auth: 'none' },
  });
  return emulator.devices.map((d) => d.device.port);
}

async function run() {
  const [side, countText] = process.argv.slice(2);
  const count = Number(countText);
  const started = performance.now();
  const ports = side === 'emu' ? await startEmu(count) : await startBare(count);
  const startMs = performance.now() - started;
  process.send({ ready: true, startMs, ports });
  process.on('message', (message) => {
    if (message !== 'memory') return;
    if (global.gc) global.gc();
    process.send({ memory: process.memoryUsage() });
  });
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
