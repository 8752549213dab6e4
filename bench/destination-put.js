'use strict';
/**
 * Content destination upload throughput and memory: MB/s of object PUTs and the
 * peak resident set size of the server, for the emulator's content destination
 * against a bare node:http server doing the same work for each body.
 *
 * Servers (each run in its own child process, bench/destination-put-server.js, so
 * the RSS measured is the server's alone; a fresh process for every run):
 *  - emu:  startDestination({ port: 0, dataDir: <temp> }) from dist/, the whole
 *          Swift path: auth token check, body worn rules, MD5 of the body, part
 *          file, fsync, rename, JSON record. The client logs in first
 *          (GET /auth/v1.0 with X-Auth-User / X-Auth-Key) and creates the container
 *          (PUT /v1/AUTH_bws/bench), both outside the measured time.
 *  - bare: node:http doing the same work for each body, and nothing else: MD5 of the
 *          body on the way (on the destination's own MD5 worker pool, the fastest way
 *          measured here; BENCH_BARE_MD5=inline hashes on the main thread instead),
 *          written to a hidden temporary file in the destination's batches (its
 *          PART_WRITE_BATCH, a flush started every EARLY_SYNC_BYTES, both from dist/),
 *          fsync, rename into place, an fsync of the directory (shared by the
 *          commits of the moment, as the destination's), 201 with the ETag. No auth, no
 *          record file, no logging, no router. The strongest such server found: inline MD5
 *          and a write stream (a write per 64 KiB chunk), as the destination's own writing
 *          was before, made a clearly slower baseline.
 *
 * Workloads (the client is this process; bodies are generated from one reused
 * 1 MiB buffer of random bytes, written with back-pressure, so no body is ever
 * held in memory whole):
 *  - stream:     one PUT of 1 GiB with Content-Length (64 MiB with BENCH_QUICK=1);
 *  - concurrent: 200 PUTs of 5 MiB each, all at once, one connection each
 *                (20 with BENCH_QUICK=1).
 * One unmeasured 1 MiB PUT warms each server up before its measured workload.
 *
 * Measured: wall time from the first request until every response has arrived
 * (all must be 201 with the body's MD5 as ETag), MB/s = bytes sent / time, and the
 * server's peak RSS sampled every 50 ms (from just before the workload, so it includes
 * the idle RSS, which is also reported); each run also prints the server's CPU time and
 * that of its main thread (the event loop; Linux). MB = 2^20 bytes. Sides alternate (bare, emu, then emu, bare, ...)
 * for BENCH_ROUNDS rounds (5); the table shows medians, and the ratios emu / bare: of
 * the medians, and the spread of the ratios of each round's pair.
 * Temporary data is removed after each run and the directory at the end.
 *
 * Bounds (emu / bare, per workload): MB/s at least 0.9, peak RSS at most 1.5.
 *
 * Knobs (environment): BENCH_QUICK=1, BENCH_ROUNDS (5), BENCH_STREAM_MB (1024),
 * BENCH_CONCURRENT (200), BENCH_OBJECT_MB (5), BENCH_BARE_MD5 (workers or inline),
 * BENCH_WORKLOADS (some of stream, concurrent: the workloads to run), BENCH_SERVER_NODE_ARGS
 * (node options for the server processes, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
const { choiceEnv, intEnv, listEnv, rotated } = require('./env');
const { forkChild } = require('./child');
const { figure, fmt, median, printAligned } = require('./figures');
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const MiB = 1024 * 1024;
const QUICK = process.env.BENCH_QUICK === '1';
const CONFIG = {
  rounds: intEnv('BENCH_ROUNDS', 5),
  streamBytes: intEnv('BENCH_STREAM_MB', QUICK ? 64 : 1024) * MiB,
  concurrent: intEnv('BENCH_CONCURRENT', QUICK ? 20 : 200),
  objectBytes: intEnv('BENCH_OBJECT_MB', 5) * MiB,
  bareMd5: choiceEnv('BENCH_BARE_MD5', 'workers', ['workers', 'inline']),
  workloads: listEnv('BENCH_WORKLOADS', ['stream', 'concurrent'], ['stream', 'concurrent']),
};
const SERVER_SCRIPT = path.join(__dirname, 'destination-put-server.js');
const CHUNK = randomBytes(MiB);
const USER = 'bws';
const KEY = 'secret';
const CONTAINER = 'bench';

/** A child server process (bench/child.js), once it listens: its url, `ask` and `close`. */
async function startServer(kind, dataDir) {
  const server = forkChild(SERVER_SCRIPT, [kind, dataDir], {
    name: `${kind} server`,
    // A diagnostic: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the servers.
    execArgv: [...process.execArgv, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
  });
  const { url } = await server.next('ready');
  return {
    url,
    ask: (cmd, type) => server.ask({ cmd }, type),
    close: () => server.close({ cmd: 'close' }, 'closed'),
  };
}

/** The MD5 hex of the body {@link put} sends for `bytes` (memoised: a handful of sizes). */
const bodyMd5 = (() => {
  const known = new Map();
  return (bytes) => {
    if (!known.has(bytes)) {
      const hash = createHash('md5');
      for (let left = bytes; left > 0; left -= CHUNK.length)
        hash.update(CHUNK.subarray(0, Math.min(left, CHUNK.length)));
      known.set(bytes, hash.digest('hex'));
    }
    return known.get(bytes);
  };
})();

/** One HTTP request with a generated body of `bytes`; resolves with status, ETag and body text. */
function put(agent, url, headers, bytes) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'PUT',
        agent,
        headers: { ...headers, 'Content-Length': String(bytes), 'Content-Type': 'application/octet-stream' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag, bytes, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    let left = bytes;
    const write = () => {
      while (left > 0) {
        const n = Math.min(left, CHUNK.length);
        left -= n;
        const more = req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
        if (!more && left > 0) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

/** GET / PUT without a body; resolves with status and headers. */
function simple(agent, url, method, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Where objects go on `server` and with which headers: login and container for emu. */
async function prepare(kind, server, agent) {
  if (kind === 'bare') return { base: `${server.url}/upload`, headers: {} };
  const login = await simple(agent, `${server.url}/auth/v1.0`, 'GET', { 'X-Auth-User': USER, 'X-Auth-Key': KEY });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const headers = { 'X-Auth-Token': login.headers['x-auth-token'] };
  const storage = login.headers['x-storage-url'];
  const created = await simple(agent, `${storage}/${CONTAINER}`, 'PUT', headers);
  if (created.status !== 201 && created.status !== 202) throw new Error(`container PUT failed: ${created.status}`);
  return { base: `${storage}/${CONTAINER}`, headers };
}

const ALL_WORKLOADS = [
  {
    name: 'stream',
    label: () => `1 x ${CONFIG.streamBytes / MiB} MiB`,
    bytes: () => CONFIG.streamBytes,
    run: (agent, target) => Promise.all([put(agent, `${target.base}/stream.bin`, target.headers, CONFIG.streamBytes)]),
  },
  {
    name: 'concurrent',
    label: () => `${CONFIG.concurrent} x ${CONFIG.objectBytes / MiB} MiB`,
    bytes: () => CONFIG.concurrent * CONFIG.objectBytes,
    run: (agent, target) =>
      Promise.all(
        Array.from({ length: CONFIG.concurrent }, (_, i) =>
          put(agent, `${target.base}/clip-${String(i).padStart(4, '0')}.bin`, target.headers, CONFIG.objectBytes),
        ),
      ),
  },
];

const WORKLOADS = ALL_WORKLOADS.filter((w) => CONFIG.workloads.includes(w.name));

/** One measured run: a fresh server process, warm-up, the workload, its peak RSS. */
async function runOnce(kind, workload, root, index) {
  const dataDir = fs.mkdtempSync(path.join(root, `${kind}-${workload.name}-${index}-`));
  const server = await startServer(kind, dataDir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const target = await prepare(kind, server, agent);
    const warm = await put(agent, `${target.base}/warm-up.bin`, target.headers, MiB);
    if (warm.status !== 201) throw new Error(`${kind} warm-up PUT answered ${warm.status} ${warm.text}`);
    const { rss: idle } = await server.ask('reset', 'reset');
    const started = performance.now();
    const answers = await workload.run(agent, target);
    const seconds = (performance.now() - started) / 1000;
    const { rss: peak, cpuMs, mainCpuMs } = await server.ask('peak', 'peak');
    const bad = answers.filter((a) => a.status !== 201 || a.etag !== bodyMd5(a.bytes));
    if (bad.length > 0)
      throw new Error(
        `${kind} ${workload.name}: ${bad.length} PUTs failed, e.g. ${bad[0].status} ETag ${bad[0].etag} ${bad[0].text}`,
      );
    const result = {
      kind,
      round: index,
      workload: workload.name,
      mbps: workload.bytes() / MiB / seconds,
      seconds,
      peakMb: peak / MiB,
      idleMb: idle / MiB,
      cpuMs,
      mainCpuMs,
    };
    console.log(
      `  ${kind.padEnd(4)} ${workload.name.padEnd(10)} ${result.mbps.toFixed(0).padStart(6)} MB/s in ${seconds.toFixed(2)} s, peak RSS ${result.peakMb.toFixed(0)} MB (idle ${result.idleMb.toFixed(0)} MB), server CPU ${(cpuMs / 1000).toFixed(2)} s${mainCpuMs === null ? '' : ` (main thread ${(mainCpuMs / 1000).toFixed(2)} s)`}`,
    );
    return result;
  } finally {
    agent.destroy();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures for bench/README.md: MB/s (at least 0.9 of the baseline's) and peak RSS (at most 1.5 times) per workload. */
function figuresOf(summary) {
  return WORKLOADS.flatMap((workload) => {
    const emu = summary.find((s) => s.kind === 'emu' && s.workload === workload.name);
    const bare = summary.find((s) => s.kind === 'bare' && s.workload === workload.name);
    const what = `destination PUT ${workload.label()}`;
    return [
      figure(`${what}, MB/s vs bare node:http doing the same MD5 + fsync work`, {
        product: fmt(emu.mbps),
        baseline: fmt(bare.mbps),
        unit: 'MB/s',
        ratio: emu.mbps / bare.mbps,
        bound: '>= 0.9',
      }),
      figure(`${what}, peak RSS vs the same`, {
        product: fmt(emu.peakMb),
        baseline: fmt(bare.peakMb),
        unit: 'MB (lower is better)',
        ratio: emu.peakMb / bare.peakMb,
        bound: '<= 1.5',
      }),
    ];
  });
}

function printTable(summary, results) {
  const rows = [['server', 'workload', 'MB/s', 'peak RSS MB', 'idle RSS MB']];
  for (const s of summary) rows.push([s.kind, s.label, s.mbps.toFixed(0), s.peakMb.toFixed(0), s.idleMb.toFixed(0)]);
  console.log(`\nmedians of ${CONFIG.rounds} runs (MB = 2^20 bytes):`);
  printAligned(rows, 2);
  console.log('');
  for (const workload of WORKLOADS) {
    const emu = summary.find((s) => s.kind === 'emu' && s.workload === workload.name);
    const bare = summary.find((s) => s.kind === 'bare' && s.workload === workload.name);
    // Each round's pair (the two runs next to each other in time), for the spread.
    const pairs = [];
    for (let round = 0; round < CONFIG.rounds; round++) {
      const of = (kind) => results.find((r) => r.kind === kind && r.workload === workload.name && r.round === round);
      pairs.push({ mbps: of('emu').mbps / of('bare').mbps, peak: of('emu').peakMb / of('bare').peakMb });
    }
    const spread = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
    console.log(
      `${workload.name} (${workload.label()}): emu/bare MB/s ratio ${(emu.mbps / bare.mbps).toFixed(2)} (pairs ${spread(pairs.map((p) => p.mbps))}), peak RSS ratio ${(emu.peakMb / bare.peakMb).toFixed(2)} (pairs ${spread(pairs.map((p) => p.peak))})`,
    );
  }
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bwc-bench-put-'));
  console.log(
    `destination PUT: stream 1 x ${CONFIG.streamBytes / MiB} MiB, concurrent ${CONFIG.concurrent} x ${CONFIG.objectBytes / MiB} MiB, ${CONFIG.rounds} rounds${QUICK ? ' (BENCH_QUICK)' : ''}; bare server MD5 ${CONFIG.bareMd5}; data in ${root}`,
  );
  try {
    const results = [];
    for (let round = 0; round < CONFIG.rounds; round++) {
      for (const workload of WORKLOADS) {
        for (const kind of rotated(['bare', 'emu'], round)) results.push(await runOnce(kind, workload, root, round));
      }
    }
    const summary = [];
    for (const workload of WORKLOADS) {
      for (const kind of ['emu', 'bare']) {
        const runs = results.filter((r) => r.kind === kind && r.workload === workload.name);
        summary.push({
          kind,
          workload: workload.name,
          label: workload.label(),
          mbps: median(runs.map((r) => r.mbps)),
          peakMb: median(runs.map((r) => r.peakMb)),
          idleMb: median(runs.map((r) => r.idleMb)),
        });
      }
    }
    printTable(summary, results);
    return { name: 'destination-put', figures: figuresOf(summary), summary };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

module.exports = { name: 'destination-put', main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
