'use strict';
/**
 * Server side of bench/destination-put.js, run as a child process (fork, IPC) so
 * that its resident set size is its own: the client's buffers and sockets live in
 * the parent. Not a benchmark on its own: bench/run.js does not list it.
 *
 * Usage (by the parent): fork(this file, [kind, dataDir]) with kind
 *   emu   the emulator's content destination (dist/), startDestination({ port: 0, dataDir })
 *   bare  a node:http server doing the same work for each body (see startBare): MD5 on the
 *         way, a temporary file, fsync, rename into place, directory fsync, 201 with the ETag
 *
 * RSS (process.memoryUsage.rss(), the same figure as process.memoryUsage().rss
 * without the heap statistics) is sampled every 50 ms from start.
 *
 * Messages:
 *   -> { type: 'ready', url }                 listening
 *   { cmd: 'reset' }  -> { type: 'reset', rss }   peak := current RSS (the idle RSS, returned)
 *   { cmd: 'peak' }   -> { type: 'peak', rss, cpuMs, mainCpuMs }  highest RSS since the reset (one last
 *                                                      sample taken now), CPU time since the reset of the
 *                                                      process and of its main thread (Linux; else null)
 *   { cmd: 'close' }  -> { type: 'closed' }, then the process exits
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { pipeline, Transform, Writable } = require('node:stream');
const { createHash } = require('node:crypto');
const { choiceEnv } = require('./env');

const DIST = path.join(__dirname, '..', 'dist');
/**
 * How the destination writes its part files, taken from the product itself so the baseline
 * cannot drift from it: bytes gathered per writev, bytes queued before back-pressure, and
 * bytes between the flushes started during a large body (so its final fsync has little left).
 */
const { PART_WRITE_BATCH, PART_WRITE_BUFFER, EARLY_SYNC_BYTES } = require(
  path.join(DIST, 'destination', 'store', 'receive-body.js'),
);

const [kind, dataDir] = process.argv.slice(2);
const SAMPLE_MS = 50;
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

let peak = 0;
let cpuStart = process.cpuUsage();
let mainCpuStart = mainThreadCpuMs();

/**
 * CPU time of this process's main thread (the event loop), in ms: user + system ticks of
 * /proc/self/task/<pid>/stat; null where there is no /proc. It shows the work of the event
 * loop apart from the thread pool and worker threads, and CPU time, unlike the wall time
 * a profiler's samples count, does not grow while the thread waits for a core.
 */
function mainThreadCpuMs() {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line; 12 and 13 after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
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

/**
 * The bare baseline: the same work as the destination's PUT, on node:http alone. The
 * body goes into a hidden temporary file, written in batches as the destination does
 * (batchedFile), its MD5 computed on the way; then fsync, close, rename into place, an
 * fsync of the directory so the rename lasts (shared by the commits of the moment, with
 * the destination's own DirectorySyncs from dist/, as the destination does), and 201 with
 * the ETag: an object is answered 201 only once it would survive a power cut.
 * BENCH_BARE_MD5 picks where the MD5 is computed: `workers` (default: off the event loop,
 * on the destination's own MD5 worker pool from dist/, which made the baseline faster than
 * hashing inline when measured) or `inline` (createHash on the main thread, chunk by chunk:
 * less CPU, but the event loop then does everything).
 */
function startBare() {
  const hashing = choiceEnv('BENCH_BARE_MD5', 'workers', ['workers', 'inline']);
  const pool = hashing === 'workers' ? workerPool() : undefined;
  const { DirectorySyncs } = require(path.join(DIST, 'base', 'atomic-file.js'));
  const directorySyncs = new DirectorySyncs();
  let count = 0;
  const server = http.createServer((req, res) => {
    const id = ++count;
    const temp = path.join(dataDir, `.object-${id}.tmp`);
    const final = path.join(dataDir, `object-${id}.data`);
    const fail = (status) => {
      fs.rm(temp, { force: true }, () => {
        res.writeHead(status, { 'Content-Length': '0', Connection: 'close' });
        res.end();
      });
    };
    fs.open(temp, 'wx', 0o644, (openErr, fd) => {
      if (openErr) return fail(500);
      const file = batchedFile(fd);
      const md5 = pool ? pooledMd5(pool) : inlineMd5();
      const stages = md5.transform ? [req, md5.transform, file] : [req, file];
      if (md5.onData) req.on('data', md5.onData);
      pipeline(...stages, (err) => {
        if (err) return fs.close(fd, () => fail(400));
        Promise.all([md5.digest(), new Promise((resolve, reject) => file.sync((e) => (e ? reject(e) : resolve())))])
          .then(([etag]) => {
            fs.close(fd, (closeErr) => {
              if (closeErr) return fail(500);
              fs.rename(temp, final, (renameErr) => {
                if (renameErr) return fail(500);
                directorySyncs.sync(dataDir).then(
                  () => {
                    res.writeHead(201, { 'Content-Length': '0', ETag: etag });
                    res.end();
                  },
                  () => fail(500),
                );
              });
            });
          })
          .catch(() => fs.close(fd, () => fail(500)));
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
          }).then(() => pool?.close()),
      });
    });
  });
}

/**
 * A stream into `fd` that writes PART_WRITE_BATCH bytes at a time with one writev (the
 * destination's way, and faster than a write stream's write per 64 KiB chunk: each write
 * wakes a thread-pool thread, which takes a core from the event loop), and starts a
 * flush (fdatasync) every EARLY_SYNC_BYTES. `file.sync(callback)` fsyncs once the flush
 * running, if any, is done. Leaves `fd` open.
 */
function batchedFile(fd) {
  let held = [];
  let heldBytes = 0;
  let total = 0;
  let flushedAt = 0;
  let flushing = null;
  const startFlush = () => {
    if (flushing) return;
    flushing = [];
    fs.fdatasync(fd, (err) => {
      const waiting = flushing;
      flushing = null;
      for (const callback of waiting) callback(err);
    });
  };
  const writeAll = (buffers, callback) =>
    fs.writev(fd, buffers, (err, written) => {
      if (err) return callback(err);
      let skip = written;
      while (buffers.length > 0 && skip >= buffers[0].length) skip -= buffers.shift().length;
      if (buffers.length === 0) return callback();
      buffers[0] = buffers[0].subarray(skip);
      writeAll(buffers, callback);
    });
  const flush = (callback) => {
    const buffers = held;
    held = [];
    heldBytes = 0;
    if (buffers.length === 0) return callback();
    const bytes = buffers.reduce((sum, b) => sum + b.length, 0);
    writeAll(buffers, (err) => {
      if (err) return callback(err);
      total += bytes;
      if (total - flushedAt >= EARLY_SYNC_BYTES) {
        flushedAt = total;
        startFlush();
      }
      callback();
    });
  };
  const gather = (chunks, callback) => {
    for (const chunk of chunks) {
      held.push(chunk);
      heldBytes += chunk.length;
    }
    if (heldBytes < PART_WRITE_BATCH) return callback();
    flush(callback);
  };
  const file = new Writable({
    highWaterMark: PART_WRITE_BUFFER,
    write: (chunk, _encoding, callback) => gather([chunk], callback),
    writev: (chunks, callback) =>
      gather(
        chunks.map((c) => c.chunk),
        callback,
      ),
    final: flush,
  });
  file.sync = (callback) => {
    const fsync = (flushErr) => (flushErr ? callback(flushErr) : fs.fsync(fd, callback));
    if (flushing) flushing.push(fsync);
    else fsync(null);
  };
  return file;
}

/** MD5 on the main thread: each chunk hashed as it is read (one more 'data' listener beside the pipe). */
function inlineMd5() {
  const hash = createHash('md5');
  return { onData: (chunk) => hash.update(chunk), digest: () => Promise.resolve(hash.digest('hex')) };
}

/** The destination's MD5 worker pool, with its defaults (bodies above 64 KiB hashed on worker threads). */
function workerPool() {
  const { Md5WorkerPool } = require(path.join(DIST, 'destination', 'store', 'md5-pool.js'));
  return new Md5WorkerPool();
}

/** MD5 on `pool`: a Transform that passes each chunk on once the pool has copied it (its flow control). */
function pooledMd5(pool) {
  const job = pool.createJob();
  const transform = new Transform({
    transform(chunk, _encoding, callback) {
      this.push(chunk);
      job.update(chunk, (err) => callback(err));
    },
  });
  return { transform, digest: () => job.digest() };
}

async function startEmu() {
  const { startDestination } = require(path.join(DIST, 'index.js'));
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
        mainCpuStart = mainThreadCpuMs();
        send({ type: 'reset', rss: sample() });
      } else if (message.cmd === 'peak') {
        sample();
        const cpu = process.cpuUsage(cpuStart);
        const main = mainThreadCpuMs();
        const mainCpuMs = main === null || mainCpuStart === null ? null : main - mainCpuStart;
        send({ type: 'peak', rss: peak, cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs });
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
