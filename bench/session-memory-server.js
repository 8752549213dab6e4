'use strict';
/**
 * Server side of bench/session-memory.js, in its own process (fork, IPC, --expose-gc)
 * so that its heap holds the sessions of one side only. Not a benchmark on its own.
 *
 *   node --expose-gc bench/session-memory-server.js bare|emu SESSIONS
 * bare: a node:http server with a ws WebSocketServer (noServer, no client tracking,
 *       the device's settings: no permessage-deflate) that answers every message with
 *       the configure answer the device sends (bench/bare-session.js, as the handshake
 *       benchmark's bare server);
 * emu:  startDevice({ port: 0, auth: 'none' }) from dist/ (its logger silent, the default), its session
 *       limits raised to SESSIONS.
 * Messages: -> { type: 'ready', url }; { cmd: 'memory' } -> { type: 'memory', usage }
 * (process.memoryUsage() after two forced GCs); { cmd: 'snapshot', file } -> { type: 'snapshot' }
 * once a heap snapshot is written into `file` (BENCH_HEAP_SNAPSHOT).
 */
const path = require('node:path');
const v8 = require('node:v8');
const { startBareServer } = require('./bare-session');

const DIST = path.join(__dirname, '..', 'dist');
const STREAM_PATH = '/svc/ws-data-stream';

async function startEmu(sessions) {
  const { startDevice } = require(path.join(DIST, 'index.js'));
  const device = await startDevice({
    port: 0,
    auth: 'none',
    limits: {
      maxSessions: sessions,
      maxSessionsPerAccount: sessions,
      maxAccountTerms: sessions * 16,
      maxDeviceTerms: sessions * 16,
    },
  });
  return `ws://127.0.0.1:${device.port}${device.options.wsPrefix}/ws-data-stream?sources=events`;
}

async function run() {
  const [side, sessions] = process.argv.slice(2);
  const url =
    side === 'emu' ? await startEmu(Number(sessions)) : (await startBareServer(`${STREAM_PATH}?sources=events`)).url;
  process.send({ type: 'ready', url });
  process.on('message', (message) => {
    if (message.cmd === 'snapshot') {
      v8.writeHeapSnapshot(message.file);
      process.send({ type: 'snapshot' });
    } else if (message.cmd === 'memory') {
      global.gc();
      global.gc();
      process.send({ type: 'memory', usage: process.memoryUsage() });
    }
  });
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
