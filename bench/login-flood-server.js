'use strict';
/**
 * Server side of bench/login-flood.js, run as a child process (fork, IPC) so that the server
 * has an event loop of its own, as on its own host. Not a benchmark on its own: bench/run.js
 * does not list it.
 *
 * Usage (by the parent): fork(this file, [kind]) with kind
 *   destination  startDestination({ port: 0, dataDir: a fresh temporary directory }): the
 *                default login bws:secret (account AUTH_bws), the default login throttle
 *   device       startDevice({ port: 0, initialStates: [] }): auth `both` on plain HTTP (digest
 *                only), the default account root:pass, the default login throttle
 * Both on 127.0.0.1 (every address of 127/8 reaches it), logging at info as the CLI does, into
 * a counter instead of a terminal: the lines a flood costs are counted, not printed.
 *
 * Messages:
 *   -> { type: 'ready', url }
 *   { cmd: 'lines' } -> { type: 'lines', lines, cpuMs, loopP50Ms, loopP99Ms }  log lines written, CPU time
 *                       and the event loop's delay (p50, p99; perf_hooks' histogram) since the last ask
 *   { cmd: 'close' } -> { type: 'closed' }, then the process exits (the data directory removed)
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const DIST = process.env.BENCH_DIST || path.join(__dirname, '..', 'dist');
const { createLogger, startDestination, startDevice } = require(path.join(DIST, 'index.js'));

const [kind] = process.argv.slice(2);

function send(message) {
  if (process.connected) process.send(message);
}

async function main() {
  let lines = 0;
  let cpu = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const logger = createLogger({ level: 'info', format: 'json', write: () => void lines++ });
  let dataDir;
  let server;
  if (kind === 'destination') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bwc-bench-login-flood-'));
    server = await startDestination({ port: 0, host: '127.0.0.1', dataDir, logger });
  } else if (kind === 'device') {
    server = await startDevice({ port: 0, host: '127.0.0.1', initialStates: [], logger });
  } else {
    throw new Error(`kind must be destination or device, not ${kind}`);
  }
  process.on('message', (message) => {
    if (message.cmd === 'lines') {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const loopP50Ms = loop.percentile(50) / 1e6;
      const loopP99Ms = loop.percentile(99) / 1e6;
      loop.reset();
      send({ type: 'lines', lines, cpuMs: (used.user + used.system) / 1000, loopP50Ms, loopP99Ms });
      lines = 0;
    } else if (message.cmd === 'close') {
      loop.disable();
      server
        .close()
        .then(() => {
          if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
          send({ type: 'closed' });
          process.disconnect();
        })
        .catch(fail);
    }
  });
  // The parent gone (it failed): no server is left behind, nor its data.
  process.on('disconnect', () => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  send({ type: 'ready', url: server.url });
}

function fail(err) {
  send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
}

main().catch(fail);
