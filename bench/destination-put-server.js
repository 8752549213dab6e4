'use strict';
/**
 * Server side of bench/destination-put.js, run as a child process (fork, IPC) so
 * that its resident set size is its own: the client's buffers and sockets live in
 * the parent. Not a benchmark on its own: bench/run.js does not list it.
 *
 * Usage (by the parent): fork(this file, [kind, dataDir]) with kind
 *   emu   the emulator's content destination (dist/), startDestination({ port: 0, dataDir })
 *   bare  a node:http server that pipes each request body into a new file in dataDir
 *         (fs.createWriteStream) and answers 201; with BENCH_BARE_FSYNC=1 it also
 *         fsyncs each file before answering, as the destination does (a diagnostic)
 *
 * RSS (process.memoryUsage.rss(), the same figure as process.memoryUsage().rss
 * without the heap statistics) is sampled every 50 ms from start.
 *
 * Messages:
 *   -> { type: 'ready', url }                 listening
 *   { cmd: 'reset' }  -> { type: 'reset', rss }   peak := current RSS (the idle RSS, returned)
 *   { cmd: 'peak' }   -> { type: 'peak', rss, cpuMs }  highest RSS since the reset (one last sample
 *                                                      taken now), and CPU time since the reset
 *   { cmd: 'close' }  -> { type: 'closed' }, then the process exits
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { pipeline } = require('node:stream');

const [kind, dataDir] = process.argv.slice(2);
const SAMPLE_MS = 50;

let peak = 0;
let cpuStart = process.cpuUsage();
const sample = () => {
  const rss = process.memoryUsage.rss();
  if (rss > peak) peak = rss;
  return rss;
};
const sampler = setInterval(sample, SAMPLE_MS);
sample();

function send(message) {
  if (process.connected) process.send(message);
}

/** The bare baseline: every request body into its own file, then 201. */
function startBare() {
  const fsync = process.env.BENCH_BARE_FSYNC === '1';
  let count = 0;
  const server = http.createServer((req, res) => {
    const file = path.join(dataDir, `object-${++count}.data`);
    const answer = (status) => {
      res.writeHead(status, { 'Content-Length': '0' });
      res.end();
    };
    pipeline(req, fs.createWriteStream(file), (err) => {
      if (err) return answer(500);
      if (!fsync) return answer(201);
      fs.open(file, 'r', (openErr, fd) => {
        if (openErr) return answer(500);
        fs.fsync(fd, (syncErr) => fs.close(fd, () => answer(syncErr ? 500 : 201)));
      });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function startEmu() {
  const { startDestination } = require(path.join(__dirname, '..', 'dist', 'index.js'));
  const destination = await startDestination({ port: 0, dataDir });
  return { url: destination.url, close: () => destination.close() };
}

async function main() {
  if (kind !== 'emu' && kind !== 'bare') throw new Error(`kind must be emu or bare, not "${kind}"`);
  if (!dataDir) throw new Error('the data directory is required');
  const server = kind === 'emu' ? await startEmu() : await startBare();
  process.on('message', async (message) => {
    try {
      if (message.cmd === 'reset') {
        peak = 0;
        cpuStart = process.cpuUsage();
        send({ type: 'reset', rss: sample() });
      } else if (message.cmd === 'peak') {
        sample();
        const cpu = process.cpuUsage(cpuStart);
        send({ type: 'peak', rss: peak, cpuMs: (cpu.user + cpu.system) / 1000 });
      } else if (message.cmd === 'close') {
        clearInterval(sampler);
        await server.close();
        send({ type: 'closed' });
        process.disconnect();
      }
    } catch (err) {
      send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
    }
  });
  send({ type: 'ready', url: server.url });
}

main().catch((err) => {
  send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
  process.exitCode = 1;
  clearInterval(sampler);
  if (process.connected) process.disconnect();
});
