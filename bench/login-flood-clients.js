'use strict';
/**
 * Flood side of bench/login-flood.js, run as a child process (fork, IPC) so that the flood
 * does not share the good client's event loop. It sends refused logins (a wrong key for the
 * destination's `bws`, a wrong digest password for the device's `root`) at a paced rate, over
 * keep-alive connections bound to other loopback addresses than the good client's 127.0.0.1
 * (all of 127/8 is loopback on Linux). Raw sockets with pre-built requests: an HTTP client
 * library would cost about as much as the server it floods. Not a benchmark on its own:
 * bench/run.js does not list it.
 *
 * Shapes (where the refused logins come from):
 *   throttled  8 addresses, 127.0.0.2-127.0.0.9: each is past the login throttle after its
 *              first few refusals, so nearly every refusal is a 429, answered unchecked
 *   spread     a fresh address of 127.1.0.0/16 every 9 refusals, below the throttle's 10 per
 *              address and user: every refusal is a 401, its key or password checked (a flood
 *              from many addresses, which no per-address rule can stop)
 * The device's connections first fetch a challenge (a credential-less request, which the
 * throttle does not count) and answer it with the wrong password on every request after.
 *
 * Pacing: a schedule of `rate` requests a second from the start, handed to whichever
 * connection is idle; a schedule more than 100 ms behind (every connection waiting for the
 * server) drops what it missed instead of bursting. The achieved rate is reported.
 *
 * Messages from the parent:
 *   { cmd: 'flood', kind, url, shape, rate, seconds, connections, user? }
 *       -> { type: 'flooded', requests, statuses, errors, seconds, cpuMs }
 *   { cmd: 'close' } -> the process exits
 */
const net = require('node:net');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');

const DIST = process.env.BENCH_DIST || path.join(__dirname, '..', 'dist');
const { digestAuthorization } = require(path.join(DIST, 'auth', 'digest-client.js'));

const THROTTLED_ADDRESSES = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);
/** Refusals per address in the `spread` shape: below 10, the throttle's limit per address and user. */
const SPREAD_PER_ADDRESS = 9;
/** How far behind its schedule the flood may fall before it drops what it missed. */
const MAX_BEHIND_MS = 100;

/** The next address of 127.1.0.0/16 for the `spread` shape (65,536 of them: none comes back within a window). */
let spreadNext = 0;
function spreadAddress() {
  const n = spreadNext++ % 65_536;
  return `127.1.${n >> 8}.${n & 255}`;
}

function send(message) {
  if (process.connected) process.send(message);
}

function fail(err) {
  send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
}

// ---- a keep-alive connection reading whole answers ------------------------------

/** One HTTP/1.1 connection from `localAddress`; `request(bytes)` resolves with the answer's status and headers. */
class Conn {
  constructor(port, localAddress) {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress, noDelay: true });
    this.buffer = Buffer.alloc(0);
    this.closed = false;
    this.pending = undefined;
    this.socket.on('data', (chunk) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.poll();
    });
    const end = (err) => {
      this.closed = true;
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(err ?? new Error('connection closed'));
    };
    this.socket.on('close', () => end());
    this.socket.on('error', (err) => end(err));
  }

  /** Sends `bytes` and resolves with `{ status, close, head }` once the whole answer is in. */
  request(bytes) {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  poll() {
    if (!this.pending) return;
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < headEnd + 4 + length) return;
    this.buffer = this.buffer.subarray(headEnd + 4 + length);
    const pending = this.pending;
    this.pending = undefined;
    pending.resolve({
      status: Number(head.slice(9, 12)),
      close: /\r\nconnection: *close/i.test(head),
      head,
    });
  }

  destroy() {
    this.socket.destroy();
  }
}

// ---- pacing ---------------------------------------------------------------------

/** Hands out `rate` turns a second, from now, to the connections waiting for one. */
class Pacer {
  constructor(rate) {
    this.rate = rate;
    this.started = performance.now();
    this.issued = 0;
    this.waiting = [];
    this.stopped = false;
    this.timer = setInterval(() => this.release(), 1);
  }

  /** Resolves with true at this connection's turn, or false once the flood is over. */
  take() {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.release();
    });
  }

  release() {
    const due = Math.floor(((performance.now() - this.started) * this.rate) / 1000);
    const floor = due - Math.floor((MAX_BEHIND_MS * this.rate) / 1000);
    if (this.issued < floor) this.issued = floor;
    while (this.issued < due && this.waiting.length > 0) {
      this.issued++;
      this.waiting.shift()(true);
    }
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    for (const resolve of this.waiting.splice(0)) resolve(false);
  }
}

// ---- the flood ------------------------------------------------------------------

/**
 * The requests of one kind of server: the refused login naming `user` (answering a challenge, on
 * the device) and the challenge fetch.
 */
function requestsFor(kind, url, user) {
  const { host, port } = new URL(url);
  if (kind === 'destination') {
    const refused = Buffer.from(
      `GET /auth/v1.0 HTTP/1.1\r\nHost: ${host}\r\nX-Auth-User: ${user ?? 'bws'}\r\nX-Auth-Key: not-the-key\r\n\r\n`,
      'latin1',
    );
    return { port: Number(port), challenge: undefined, refused: () => refused };
  }
  const target = '/svc-cgi/wssession.cgi';
  const challenge = Buffer.from(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 'latin1');
  const refused = (challenges) =>
    Buffer.from(
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${digestAuthorization(challenges, user ?? 'root', 'not-the-password', 'GET', target)}\r\n\r\n`,
      'latin1',
    );
  return { port: Number(port), challenge, refused };
}

/** The `WWW-Authenticate` values of an answer's head. */
function challengesOf(head) {
  return [...head.matchAll(/\r\nwww-authenticate: *([^\r]*)/gi)].map((m) => m[1]);
}

/** Floods for `seconds` and resolves with what came back. */
async function flood({ kind, url, shape, rate, seconds, connections, user }) {
  const requests = requestsFor(kind, url, user);
  const pacer = new Pacer(rate);
  const statuses = {};
  let sent = 0;
  let errors = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stopTimer = setTimeout(() => pacer.stop(), seconds * 1000);

  /** One connection after another from the shape's addresses, each used while it may be. */
  const worker = async (w) => {
    while (!pacer.stopped) {
      const address = shape === 'spread' ? spreadAddress() : THROTTLED_ADDRESSES[w % THROTTLED_ADDRESSES.length];
      const perAddress = shape === 'spread' ? SPREAD_PER_ADDRESS : Infinity;
      const conn = new Conn(requests.port, address);
      try {
        let bytes;
        if (requests.challenge) {
          const first = await conn.request(requests.challenge);
          if (first.status !== 401) throw new Error(`a challenge fetch answered ${first.status}`);
          bytes = requests.refused(challengesOf(first.head));
        } else {
          bytes = requests.refused();
        }
        for (let used = 0; used < perAddress && (await pacer.take()); used++) {
          sent++;
          const answer = await conn.request(bytes);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.close) break;
        }
      } catch (err) {
        if (errors++ === 0) console.error(`login-flood: a flood connection failed: ${err.message}`);
        if (!pacer.stopped) await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        conn.destroy();
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w)));
  clearTimeout(stopTimer);
  const used = process.cpuUsage(cpu);
  return {
    requests: sent,
    statuses,
    errors,
    seconds: (performance.now() - started) / 1000,
    cpuMs: (used.user + used.system) / 1000,
  };
}

process.on('message', (message) => {
  if (message.cmd === 'flood')
    flood(message)
      .then((result) => send({ type: 'flooded', ...result }))
      .catch(fail);
  else if (message.cmd === 'close') process.exit(0);
});
// The parent gone (it failed): so is the flood.
process.on('disconnect', () => process.exit(0));
