'use strict';
/**
 * A good client's logins under a credential flood (issue 29, item 4): how much a flood of
 * refused logins from other addresses slows the real user, on the content destination and on
 * the device. The baseline is the same server in the same run with no flood.
 *
 * Setup
 *  - the server in a child process (bench/login-flood-server.js): a destination (login
 *    bws:secret) or a device (root:pass, digest), defaults otherwise, logging at info into a
 *    counter;
 *  - the flood in a child process (bench/login-flood-clients.js): BENCH_FLOOD_RATE refused
 *    logins a second (3,000, the issue's rate) over BENCH_FLOOD_CONNECTIONS keep-alive
 *    connections from other loopback addresses, for BENCH_PHASE_SECONDS; shaped `throttled`
 *    (8 addresses, past the login throttle at once: 429s) or `spread` (a fresh address every 9
 *    refusals, under the throttle: every refusal a checked 401);
 *  - the good client here, from 127.0.0.1, one operation after another with BENCH_GAP_MS
 *    between them, each on new connections (nothing kept from the last):
 *      destination  login: GET /auth/v1.0 -> 200 and a token; login+PUT: that, then a 1 KiB
 *                   object PUT with the token -> 201 (fsynced, as every PUT)
 *      device       login: GET wssession.cgi -> 401, digest -> 200 and a token (one keep-alive
 *                   connection); login+stream: that, then the event stream opened with the
 *                   token -> 101 (then cut)
 *
 * Measured: per round, a quiet phase and a flood phase per shape, in an order that rotates
 * every round; the good client's latencies from RAMP_MS into a phase to its end, pooled over
 * the rounds per phase; p50 and p95; the flood's achieved rate and answers; the server's CPU
 * time (and per refusal: less what the good client's operations cost it in the quiet phase),
 * its event loop's delay (p99 of the worst round) and its log lines per phase. Figures: each percentile under a flood (product) against the
 * quiet one (baseline); no bound (the issue set none: it asked for the figures).
 *
 * Knobs (environment): BENCH_FLOOD_RATE (3000, at most 20,000), BENCH_PHASE_SECONDS (4, at
 * most 30), BENCH_ROUNDS (3), BENCH_FLOOD_CONNECTIONS (64, at most 1,024), BENCH_GAP_MS (5),
 * BENCH_KINDS (destination,device), BENCH_SHAPES (throttled,spread), BENCH_FLOOD_USER (whom the
 * wrong passwords name; the good client's own user by default: a build that throttles per user
 * then refuses the good client, and the table counts its refused logins), BENCH_DIST (dist/ by
 * default), BENCH_LOGIN_BEFORE_DIST (another build, e.g. of the commit before a change, measured in
 * the same run: its phases take turns with this build's; its table is printed, its figures are
 * not returned), BENCH_CPU_PROF (a directory: the server process runs under
 * node --cpu-prof and writes its profile there). Loopback only; bounded in rate, time and connections.
 */
const http = require('node:http');
const WebSocket = require('ws');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');
const { intEnv, listEnv, rotated } = require('./env');
const { figure, fmt, printAligned } = require('./figures');
const { forkChild } = require('./child');

const DIST = process.env.BENCH_DIST || path.join(__dirname, '..', 'dist');
const { digestAuthorization } = require(path.join(DIST, 'auth', 'digest-client.js'));

const KINDS = ['destination', 'device'];
const SHAPES = ['throttled', 'spread'];
const CONFIG = {
  rate: bounded('BENCH_FLOOD_RATE', intEnv('BENCH_FLOOD_RATE', 3_000), 20_000),
  seconds: bounded('BENCH_PHASE_SECONDS', intEnv('BENCH_PHASE_SECONDS', 4), 30),
  rounds: intEnv('BENCH_ROUNDS', 3),
  connections: bounded('BENCH_FLOOD_CONNECTIONS', intEnv('BENCH_FLOOD_CONNECTIONS', 64), 1_024),
  gapMs: intEnv('BENCH_GAP_MS', 5, 0),
  kinds: listEnv('BENCH_KINDS', KINDS, KINDS),
  shapes: listEnv('BENCH_SHAPES', SHAPES, SHAPES),
  /** Whom the flood's wrong passwords name: by default the good client's own user (bws, root), as in the issue. */
  floodUser: process.env.BENCH_FLOOD_USER || undefined,
  /** A directory for the server process's CPU profile (node --cpu-prof), when set. */
  cpuProf: process.env.BENCH_CPU_PROF || undefined,
};
/** The build measured (dist/ or BENCH_DIST), and another to compare with (BENCH_LOGIN_BEFORE_DIST). */
const BUILDS = [
  { label: 'this build', dist: DIST },
  ...(process.env.BENCH_LOGIN_BEFORE_DIST ? [{ label: 'before', dist: process.env.BENCH_LOGIN_BEFORE_DIST }] : []),
];
/** Latencies before this far into a phase are not kept: the flood is still starting. */
const RAMP_MS = 500;
/** The issue's figures (ms), to print beside ours. */
const ISSUE = {
  destination: 'login p50 1.2 -> 156 ms, login+PUT p50 10 -> 472 ms at ~3,000 refused/s',
  device: 'other devices p50 46 ms at 5,900 refused/s',
};
const OPERATIONS = { destination: ['login', 'login+PUT'], device: ['login', 'login+stream'] };

function bounded(name, value, max) {
  if (value > max) throw new Error(`${name} must be at most ${max} (the flood is bounded), not ${value}`);
  return value;
}

// ---- the good client -------------------------------------------------------------

/** One HTTP request on `agent` (a new connection when false); resolves with status, headers and body. */
function request(url, { method = 'GET', path: target, headers = {}, body, agent = false }) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, method, path: target, headers, agent, localAddress: '127.0.0.1' },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A login of the good client refused (401 or 429): counted, not a failure of the benchmark. */
class Refused extends Error {}

function expectStatus(answer, status, what) {
  if (answer.status === status) return answer;
  const message = `the good client's ${what} answered ${answer.status}, not ${status}: ${answer.body}`;
  throw answer.status === 401 || answer.status === 429 ? new Refused(message) : new Error(message);
}

const OBJECT = Buffer.alloc(1024, 'b');
let objectCount = 0;

/** The destination's good client: one login, then one PUT; resolves with both latencies (ms). */
async function destinationOperation(url) {
  const started = performance.now();
  const login = expectStatus(
    await request(url, { path: '/auth/v1.0', headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' } }),
    200,
    'login',
  );
  const loggedIn = performance.now();
  const storage = new URL(String(login.headers['x-storage-url']));
  expectStatus(
    await request(url, {
      method: 'PUT',
      path: `${storage.pathname}/bench/object-${objectCount++ % 100}`,
      headers: { 'X-Auth-Token': String(login.headers['x-auth-token']), 'Content-Length': String(OBJECT.length) },
      body: OBJECT,
    }),
    201,
    'PUT',
  );
  return [loggedIn - started, performance.now() - started];
}

/** Creates the container the destination's good client writes into. */
async function prepareDestination(url) {
  const login = expectStatus(
    await request(url, { path: '/auth/v1.0', headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' } }),
    200,
    'login',
  );
  const storage = new URL(String(login.headers['x-storage-url']));
  const created = await request(url, {
    method: 'PUT',
    path: `${storage.pathname}/bench`,
    headers: { 'X-Auth-Token': String(login.headers['x-auth-token']) },
  });
  if (created.status !== 201 && created.status !== 202) expectStatus(created, 201, 'container PUT');
}

const TOKEN_PATH = '/svc-cgi/wssession.cgi';
const STREAM_PATH = '/svc/ws-data-stream?sources=events';

/**
 * The device's good client: a session token with digest (401 first, on one keep-alive
 * connection), then the event stream opened with it (101); resolves with both latencies (ms).
 * The token is used at once, as a client must: unused ones count toward the account's limit.
 */
async function deviceOperation(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const started = performance.now();
    const challenge = expectStatus(await request(url, { path: TOKEN_PATH, agent }), 401, 'challenge');
    const authorization = digestAuthorization(
      [challenge.headers['www-authenticate']].flat(),
      'root',
      'pass',
      'GET',
      TOKEN_PATH,
    );
    const token = expectStatus(
      await request(url, { path: TOKEN_PATH, agent, headers: { Authorization: authorization } }),
      200,
      'token',
    ).body.toString('utf8');
    const loggedIn = performance.now();
    await openStream(`${url.replace(/^http/, 'ws')}${STREAM_PATH}&wssession=${encodeURIComponent(token)}`);
    return [loggedIn - started, performance.now() - started];
  } finally {
    agent.destroy();
  }
}

/** Opens an event stream from 127.0.0.1 and cuts it once open. */
function openStream(wsUrl) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { localAddress: '127.0.0.1', perMessageDeflate: false });
    ws.once('open', () => {
      ws.terminate();
      resolve();
    });
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      const answer = { status: res.statusCode, body: '' };
      try {
        expectStatus(answer, 101, 'stream handshake');
      } catch (err) {
        reject(err);
      }
    });
    ws.once('error', reject);
  });
}

/**
 * Runs the good client until `done()` and keeps what it measured from RAMP_MS on in
 * `result.samples` (one list per operation); a refused login is counted in `result.refused`.
 */
async function goodClient(kind, url, done, result) {
  const operation = kind === 'destination' ? destinationOperation : deviceOperation;
  const from = performance.now() + RAMP_MS;
  while (!done()) {
    const started = performance.now();
    try {
      const latencies = await operation(url);
      result.operations++;
      if (started >= from && !done()) latencies.forEach((ms, i) => result.samples[i].push(ms));
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      if (result.refused++ === 0) console.log(`login-flood: ${err.message.trim()}`);
    }
    if (CONFIG.gapMs > 0) await new Promise((resolve) => setTimeout(resolve, CONFIG.gapMs));
  }
}

// ---- phases --------------------------------------------------------------------

/** One phase: the good client alone (`quiet`), or under the flood of `shape`; adds to `results[phase]`. */
async function phase(kind, url, name, flooder, server, results) {
  const phaseStarted = performance.now();
  const result = (results[name] ??= {
    wallMs: 0,
    samples: [[], []],
    operations: 0,
    refused: 0,
    floods: [],
    cpuMs: 0,
    lines: 0,
    loopP99Ms: [],
  });
  await server.ask({ cmd: 'lines' }, 'lines');
  if (name === 'quiet') {
    const until = performance.now() + CONFIG.seconds * 1000;
    await goodClient(kind, url, () => performance.now() >= until, result);
  } else {
    let over = false;
    const flood = {
      kind,
      url,
      shape: name,
      rate: CONFIG.rate,
      seconds: CONFIG.seconds,
      connections: CONFIG.connections,
    };
    const flooded = flooder.ask({ cmd: 'flood', user: CONFIG.floodUser, ...flood }, 'flooded');
    const client = goodClient(kind, url, () => over, result);
    // Its failure is awaited below; until then it must not count as unhandled.
    client.catch(() => undefined);
    result.floods.push(await flooded);
    over = true;
    await client;
  }
  const used = await server.ask({ cmd: 'lines' }, 'lines');
  result.cpuMs += used.cpuMs;
  result.lines += used.lines;
  result.loopP99Ms.push(used.loopP99Ms);
  result.wallMs += performance.now() - phaseStarted;
}

/**
 * The server's CPU time per refused login (µs): a flood phase's CPU time less what its good
 * client's operations cost in the quiet phase (the quiet CPU time per operation), over its
 * refusals.
 */
function cpuPerRefusal(flood, quiet, requests) {
  const perOperation = quiet && quiet.operations > 0 ? quiet.cpuMs / quiet.operations : 0;
  return (1000 * (flood.cpuMs - perOperation * flood.operations)) / requests;
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A server process of one build, ready and warmed up. */
async function startServer(kind, build) {
  const server = forkChild(path.join(__dirname, 'login-flood-server.js'), [kind], {
    name: `${kind} process (${build.label})`,
    env: { ...process.env, BENCH_DIST: build.dist },
    execArgv: CONFIG.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${CONFIG.cpuProf}`] : [],
  });
  try {
    const { url } = await server.next('ready');
    if (kind === 'destination') await prepareDestination(url);
    // Warm-up: the server's code paths and the client's connections, unreported.
    const warm = Date.now() + 1000;
    while (Date.now() < warm) await (kind === 'destination' ? destinationOperation(url) : deviceOperation(url));
    return { ...server, url, build };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/**
 * Every phase of one kind of server (of each build), rounds rotated so that no phase always
 * follows another; prints a table per build and returns this build's figures.
 */
async function measureKind(kind, flooder) {
  const servers = [];
  try {
    for (const build of BUILDS) servers.push(await startServer(kind, build));
    const phases = servers.flatMap((server) => ['quiet', ...CONFIG.shapes].map((name) => ({ server, name })));
    const results = new Map(servers.map((server) => [server, {}]));
    for (let round = 0; round < CONFIG.rounds; round++)
      for (const { server, name } of rotated(phases, round))
        await phase(kind, server.url, name, flooder, server, results.get(server));
    const figures = [];
    for (const server of servers) {
      const built = report(kind, server.build, ['quiet', ...CONFIG.shapes], results.get(server));
      if (server.build === BUILDS[0]) figures.push(...built);
    }
    return figures;
  } finally {
    for (const server of servers) await server.close({ cmd: 'close' }, 'closed');
  }
}

/** Prints the table of one kind and build, and returns its figures. */
function report(kind, build, phases, results) {
  const ms = (v) => fmt(v, v < 10 ? 2 : 1);
  const rows = [
    [
      'phase',
      'flood/s',
      'answers',
      ...OPERATIONS[kind].flatMap((op) => [`${op} p50`, `${op} p95`]),
      'samples',
      'refused',
      'server CPU',
      'CPU per refusal',
      'loop delay p99',
      'flood CPU',
      'log lines',
    ],
  ];
  for (const name of phases) {
    const r = results[name];
    const seconds = r.floods.reduce((sum, f) => sum + f.seconds, 0);
    const requests = r.floods.reduce((sum, f) => sum + f.requests, 0);
    const answers = {};
    for (const f of r.floods)
      for (const [status, n] of Object.entries(f.statuses)) answers[status] = (answers[status] ?? 0) + n;
    const errors = r.floods.reduce((sum, f) => sum + f.errors, 0);
    const answerText =
      Object.entries(answers)
        .map(([s, n]) => `${s} x ${fmt(n)}`)
        .join(', ') + (errors ? `, ${errors} errors` : '');
    rows.push([
      name,
      seconds > 0 ? fmt(requests / seconds) : '-',
      answerText || '-',
      ...r.samples.flatMap((s) => [ms(percentile(s, 50)), ms(percentile(s, 95))]),
      String(r.samples[0].length),
      String(r.refused),
      `${fmt((100 * r.cpuMs) / r.wallMs)}%`,
      requests > 0 ? `${fmt(cpuPerRefusal(r, results.quiet, requests))} µs` : '-',
      `${ms(Math.max(...r.loopP99Ms))} ms`,
      seconds > 0 ? `${fmt(r.floods.reduce((sum, f) => sum + f.cpuMs, 0) / (seconds * 10))}%` : '-',
      fmt(r.lines),
    ]);
  }
  console.log(`\n${kind}, ${build.label} (latencies in ms; the issue: ${ISSUE[kind]})`);
  printAligned(rows, 3);
  const figures = [];
  for (const shape of CONFIG.shapes)
    OPERATIONS[kind].forEach((op, i) => {
      for (const p of [50, 95]) {
        const product = percentile(results[shape].samples[i], p);
        const baseline = percentile(results.quiet.samples[i], p);
        figures.push(
          figure(`${kind} ${op} p${p} under ${fmt(CONFIG.rate)} refused logins/s (${shape}), vs no flood`, {
            product: ms(product),
            baseline: ms(baseline),
            unit: 'ms (lower is better)',
            ratio: product / baseline,
          }),
        );
      }
    });
  return figures;
}

async function main() {
  console.log(
    `login-flood: ${fmt(CONFIG.rate)} refused logins/s over ${CONFIG.connections} connections, ${CONFIG.seconds} s phases, ${CONFIG.rounds} rounds; shapes ${CONFIG.shapes.join(', ')}`,
  );
  const flooder = forkChild(path.join(__dirname, 'login-flood-clients.js'), [], {
    name: 'flood process',
    env: { ...process.env, BENCH_DIST: DIST },
  });
  const figures = [];
  try {
    for (const kind of CONFIG.kinds) figures.push(...(await measureKind(kind, flooder)));
  } finally {
    await flooder.close({ cmd: 'close' });
  }
  return { figures };
}

module.exports = { name: 'login-flood', main };

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
