'use strict';
/**
 * Idle memory of each server: the resident set size (and V8 heap used) of a process
 * that has started one server and nothing else, against a bare node:http server.
 *
 * Servers (each in a fresh child process, this file run with `serve <kind>`, forked
 * with --expose-gc; the package loaded from dist/index.js, as a user's code does):
 *  - bare:        node:http, answering every request 200 "ok";
 *  - express:     the same with an Express app, and pino loaded: what the chosen
 *                 dependencies cost before any of the emulator's code (for reference);
 *  - destination: startDestination({ port: 0, dataDir: <temp> });
 *  - device:      startDevice({ port: 0 }).
 *
 * Measured in the child, at three points: right after the server listens (`start`);
 * after it has served one request sent by this process, so that no client code
 * counts (`request`: bare and express GET /; destination GET /info, its capabilities; device a
 * digest-authenticated JSON-RPC `listAll` POST to featureflag.cgi, two
 * requests with the challenge); and after a forced full GC (`gc`). RSS is
 * process.memoryUsage().rss, heap is heapUsed; MB = 2^20 bytes. The kinds alternate
 * (their order rotates every round) for BENCH_ROUNDS rounds (3); the table shows
 * medians and the ratio of each server to bare.
 *
 * Knobs (environment): BENCH_ROUNDS (3).
 */
const { intEnv, rotated } = require('./env');
const { forkChild } = require('./child');
const { figure, median, printAligned } = require('./figures');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { URL } = require('node:url');

const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const KINDS = ['bare', 'express', 'destination', 'device'];
const PHASES = ['start', 'request', 'gc'];
const MiB = 1024 * 1024;
const DIST = path.join(__dirname, '..', 'dist', 'index.js');

/** Memory now, in MB. */
function memory() {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / MiB, heap: heapUsed / MiB };
}

/** Child side: starts one server of `kind`, then answers the parent's `measure` and `gc` asks. */
async function serve(kind) {
  let close;
  let url;
  let dataDir;
  let flagsPath;
  if (kind === 'bare') {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
    close = () => new Promise((resolve) => server.close(resolve));
  } else if (kind === 'express') {
    require('pino');
    const app = require('express')();
    app.get('/', (_req, res) => res.send('ok'));
    const server = http.createServer(app);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}`;
    close = () => new Promise((resolve) => server.close(resolve));
  } else if (kind === 'destination') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bwc-bench-idle-'));
    const destination = await require(DIST).startDestination({ port: 0, dataDir });
    url = destination.url;
    close = () => destination.close();
  } else if (kind === 'device') {
    const device = await require(DIST).startDevice({ port: 0 });
    url = device.url;
    flagsPath = new URL(device.urls.featureFlags).pathname;
    close = () => device.close();
  } else {
    throw new Error(`kind must be one of ${KINDS.join(', ')}, not "${kind}"`);
  }
  const start = memory();
  process.on('message', async (message) => {
    if (message.cmd === 'measure') process.send({ type: 'measured', memory: memory() });
    else if (message.cmd === 'gc') {
      global.gc();
      // A second collection after a tick: what the first one left for finalizers.
      await new Promise((resolve) => setImmediate(resolve));
      global.gc();
      process.send({ type: 'measured', memory: memory() });
    } else if (message.cmd === 'close') {
      await close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      process.disconnect();
    }
  });
  process.send({ type: 'ready', url, flagsPath, memory: start });
}

/** A child running `kind` (bench/child.js), once it listens: where, its memory then, `ask(cmd)` and `close`. */
async function spawn(kind) {
  const server = forkChild(path.join(__dirname, 'idle-rss.js'), ['serve', kind], {
    name: `${kind} server`,
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await server.next('ready');
  return {
    url: ready.url,
    flagsPath: ready.flagsPath,
    start: ready.memory,
    ask: (cmd) => server.ask({ cmd }, 'measured'),
    close: () => server.close({ cmd: 'close' }),
  };
}

/** One HTTP request from this process; resolves with status, headers and body. */
function request(url, options = {}, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The one request each kind serves (the device's: a digest challenge, then the authorized request). */
async function serveOne(kind, { url, flagsPath: target }) {
  if (kind === 'bare' || kind === 'express') return expectStatus(await request(`${url}/`), 200, kind);
  if (kind === 'destination') return expectStatus(await request(`${url}/info`), 200, kind);
  const { digestAuthorization } = require(DIST);
  const body = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });
  const post = (headers) =>
    request(`${url}${target}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, body);
  const challenge = await post({});
  if (challenge.status !== 401) throw new Error(`device: expected a 401 challenge, got ${challenge.status}`);
  const authorization = digestAuthorization(challenge.headers['www-authenticate'], 'root', 'pass', 'POST', target);
  const answer = await post({ Authorization: authorization });
  expectStatus(answer, 200, kind);
  if (JSON.parse(answer.text).error) throw new Error(`device: featureflag.cgi answered ${answer.text}`);
}

function expectStatus(answer, status, kind) {
  if (answer.status !== status) throw new Error(`${kind}: expected ${status}, got ${answer.status} ${answer.text}`);
}

/** One round's measurement of `kind`: start, after one request, after GC. */
async function measure(kind) {
  const server = await spawn(kind);
  try {
    const start = server.start;
    await serveOne(kind, server);
    const { memory: afterRequest } = await server.ask('measure');
    const { memory: afterGc } = await server.ask('gc');
    return { start, request: afterRequest, gc: afterGc };
  } finally {
    await server.close();
  }
}

async function main() {
  if (!fs.existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run build` first');
  console.log(`idle memory: ${KINDS.join(', ')}, ${ROUNDS} rounds, each in a fresh process (MB = 2^20 bytes)`);
  const runs = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of rotated(KINDS, round)) {
      const run = await measure(kind);
      runs[kind].push(run);
      console.log(
        `  ${kind.padEnd(11)} ${PHASES.map((p) => `${p} RSS ${run[p].rss.toFixed(1)} heap ${run[p].heap.toFixed(1)}`).join(' | ')}`,
      );
    }
  }
  const summary = {};
  for (const kind of KINDS)
    summary[kind] = Object.fromEntries(
      PHASES.map((p) => [
        p,
        { rss: median(runs[kind].map((r) => r[p].rss)), heap: median(runs[kind].map((r) => r[p].heap)) },
      ]),
    );
  const rows = [['server', ...PHASES.flatMap((p) => [`${p} RSS`, `${p} heap`]), 'RSS / bare (start, request, gc)']];
  for (const kind of KINDS) {
    const s = summary[kind];
    const ratios = PHASES.map((p) => (s[p].rss / summary.bare[p].rss).toFixed(2)).join(', ');
    rows.push([kind, ...PHASES.flatMap((p) => [s[p].rss.toFixed(1), s[p].heap.toFixed(1)]), ratios]);
  }
  console.log(`\nmedians of ${ROUNDS} rounds, MB:`);
  printAligned(rows);
  const figures = ['destination', 'device'].map((kind) =>
    figure(`idle RSS of a ${kind} after one request, vs a bare node:http server`, {
      product: summary[kind].request.rss.toFixed(1),
      baseline: summary.bare.request.rss.toFixed(1),
      unit: 'MB (lower is better)',
      ratio: summary[kind].request.rss / summary.bare.request.rss,
    }),
  );
  return { name: 'idle-rss', figures, summary };
}

module.exports = { name: 'idle-rss', main };

if (require.main === module) {
  const run = process.argv[2] === 'serve' ? serve(process.argv[3]) : main();
  run.catch((err) => {
    console.error(err);
    process.exitCode = 1;
    if (process.connected) process.disconnect();
  });
}
