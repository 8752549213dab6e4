'use strict';
/**
 * Client side of bench/handshake.js, run as a child process (fork, IPC) so that the
 * clients do not compete with the server for its core. The clients speak HTTP/1.1 and
 * WebSocket on raw sockets with pre-built bytes (a fixed Sec-WebSocket-Key, one masked
 * configure frame): a `ws` client costs about as much as the server it talks to, and would
 * make the bare side's rate a measure of the client. Not a benchmark on its own:
 * bench/run.js does not list it.
 *
 * Messages from the parent:
 *   { cmd: 'run', side, mode, count, concurrency, target }
 *       -> { type: 'done', side, seconds, cpu }
 *     target: { wsUrl, configure, reply, user?, password?, tokenUrl? }
 *     mode (what one connection does; the bare server ignores credentials, so its runs use 'bare'):
 *       bare          upgrade -> 101 -> configure -> reply -> close
 *       digest-401    upgrade without credentials -> 401; digest credentials from that challenge
 *                     on the same connection when the server keeps it (no Connection: close),
 *                     as an HTTP/1.1 client sends them, else on a new one -> 101 -> configure
 *                     -> reply -> close
 *       digest-401-new-connection
 *                     the same, always on a new connection (a client that closes after a 401)
 *       token         GET wssession.cgi with digest credentials for the client's last challenge
 *                     (the next nc; a 401 only on its first request or a stale nonce) -> 200
 *                     token, on one keep-alive connection per client; then the upgrade with
 *                     ?wssession=token -> ... -> close
 *       token-401     the same, with a 401 before every token (a client that keeps no challenge)
 *       reused-nonce  one challenge fetched up front; each upgrade answers it with the next nc
 *   { cmd: 'close' } -> the process exits
 */
const net = require('node:net');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');

const DIST = process.env.BENCH_DIST || path.join(__dirname, '..', 'dist');
const { digestAuthorization } = require(path.join(DIST, 'auth', 'digest-client.js'));

function send(message) {
  if (process.connected) process.send(message);
}

function fail(err) {
  send({ type: 'error', message: err && err.stack ? err.stack : String(err) });
}

// ---- a socket with buffered reads ----------------------------------------------

/** A TCP connection whose reads wait for whole HTTP heads, bodies or frames. */
class Conn {
  constructor(port) {
    this.socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
    this.buffer = Buffer.alloc(0);
    this.ended = false;
    this.wanted = undefined;
    this.socket.on('data', (chunk) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.poll();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.poll();
    });
    this.socket.on('error', (err) => {
      this.error = err;
      this.poll();
    });
  }

  /** Resolves with `take(buffer)`'s value once it returns one ([value, bytesUsed], else undefined); rejects when it throws. */
  read(take) {
    return new Promise((resolve, reject) => {
      this.wanted = { take, resolve, reject };
      this.poll();
    });
  }

  poll() {
    const wanted = this.wanted;
    if (!wanted) return;
    let got;
    try {
      got = wanted.take(this.buffer, this.ended);
    } catch (err) {
      // Bytes `take` refuses to read (see takeFrame): the read fails instead of the process.
      this.wanted = undefined;
      wanted.reject(err);
      return;
    }
    if (got) {
      this.wanted = undefined;
      this.buffer = this.buffer.subarray(got[1]);
      wanted.resolve(got[0]);
    } else if (this.error || this.ended) {
      this.wanted = undefined;
      wanted.reject(this.error ?? new Error('connection closed early'));
    }
  }

  /** An HTTP response: status, headers (lower-case names; repeated ones joined by ", "), body. */
  async response() {
    const head = await this.read(takeHead);
    const length = Number(head.headers['content-length'] ?? 0);
    head.body = (
      await this.read((buf) => (buf.length >= length ? [buf.subarray(0, length), length] : undefined))
    ).toString();
    return head;
  }

  /** Resolves when the peer has closed the connection. */
  closed() {
    return this.read((buf, ended) => (ended ? [undefined, buf.length] : undefined));
  }

  destroy() {
    this.socket.destroy();
  }
}

function takeHead(buf) {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return [{ status, headers }, end + 4];
}

/**
 * One server frame: [{ opcode, payload }, bytes], or undefined until it is whole. Reads only
 * what the benchmark's servers send (unmasked frames under 64 KiB: a configure answer, a
 * close) and throws on anything else, a masked frame or a 64-bit length, instead of
 * misreading it. test/helpers/event-stream-raw.ts reads frames the same way for the tests;
 * it is TypeScript run by Jest, this plain JavaScript against dist/, so the two cannot share.
 */
function takeFrame(buf) {
  if (buf.length < 2) return undefined;
  if (buf[1] & 0x80) throw new Error('the server sent a masked frame (RFC 6455 forbids it)');
  let length = buf[1] & 0x7f;
  let offset = 2;
  if (length === 127) throw new Error('the server sent a frame of 64 KiB or more, which the bench never expects');
  if (length === 126) {
    if (buf.length < 4) return undefined;
    length = buf.readUInt16BE(2);
    offset = 4;
  }
  if (buf.length < offset + length) return undefined;
  return [{ opcode: buf[0] & 0x0f, payload: buf.subarray(offset, offset + length) }, offset + length];
}

/** A client frame (masked with a zero mask: the payload goes as is). */
function clientFrame(opcode, payload) {
  if (payload.length > 0xffff) throw new Error('bench frames stay below 64 KiB');
  const length =
    payload.length < 126 ? [0x80 | payload.length] : [0x80 | 126, payload.length >> 8, payload.length & 0xff];
  return Buffer.concat([Buffer.from([0x80 | opcode, ...length, 0, 0, 0, 0]), payload]);
}

const CLOSE_FRAME = clientFrame(0x8, Buffer.from([0x03, 0xe8])); // 1000

// ---- what one connection does --------------------------------------------------

/** The parts of a target every connection reuses, computed once per run. */
function prepare(target) {
  const ws = new URL(target.wsUrl);
  const wsPath = ws.pathname + ws.search;
  const token = target.tokenUrl && new URL(target.tokenUrl);
  return {
    ...target,
    port: Number(ws.port),
    wsPath,
    host: ws.host,
    configureFrame: clientFrame(0x1, Buffer.from(target.configure)),
    tokenPath: token && token.pathname,
  };
}

function upgradeRequest(t, pathAndQuery, authorization) {
  return (
    `GET ${pathAndQuery} HTTP/1.1\r\nHost: ${t.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    '\r\n'
  );
}

/**
 * Upgrade (101 expected), configure, check the answer, close handshake; resolves once the
 * server closed. On `conn` when given (a connection kept after a 401), else a new one.
 */
async function session(t, pathAndQuery, authorization, conn = new Conn(t.port)) {
  try {
    conn.socket.write(upgradeRequest(t, pathAndQuery, authorization));
    const head = await conn.read(takeHead);
    if (head.status !== 101) throw new Error(`upgrade answered ${head.status} (${pathAndQuery})`);
    conn.socket.write(t.configureFrame);
    const answer = await conn.read(takeFrame);
    const text = answer.payload.toString();
    if (answer.opcode !== 1 || text !== t.reply) throw new Error(`unexpected configure answer: ${text}`);
    conn.socket.write(CLOSE_FRAME);
    const close = await conn.read(takeFrame);
    if (close.opcode !== 8) throw new Error(`expected a close frame, got opcode ${close.opcode}`);
    await conn.closed();
  } finally {
    conn.destroy();
  }
}

/**
 * An upgrade without credentials: the 401's `WWW-Authenticate` challenges, and the connection
 * when the server keeps it (no `Connection: close`) and `keep` is set, else undefined.
 */
async function upgradeChallenge(t, keep = false) {
  const conn = new Conn(t.port);
  let kept = false;
  try {
    conn.socket.write(upgradeRequest(t, t.wsPath));
    const res = await conn.response();
    if (res.status !== 401) throw new Error(`upgrade without credentials answered ${res.status}`);
    kept = keep && !/\bclose\b/i.test(res.headers.connection ?? '');
    return { challenge: res.headers['www-authenticate'], conn: kept ? conn : undefined };
  } finally {
    if (!kept) conn.destroy();
  }
}

/**
 * A session token on the client's keep-alive connection `state.conn`. With `state.challenge`
 * (kept from an earlier 401) the request carries digest credentials for it with the next nc,
 * as Python requests' HTTPDigestAuth and curl send them; without, it is sent bare, answered
 * 401, and sent again with credentials. A 401 to credentials for a kept challenge (expired)
 * starts over once from a fresh challenge; a 401 to those fails the run.
 */
async function fetchToken(t, state, reuse) {
  if (!state.conn || state.conn.ended) state.conn = new Conn(t.port);
  const conn = state.conn;
  const request = (authorization) =>
    `GET ${t.tokenPath} HTTP/1.1\r\nHost: ${t.host}\r\nConnection: keep-alive\r\n` +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    '\r\n';
  const credentials = () => {
    const options = { nc: ++state.nc, cnonce: state.cnonce };
    return digestAuthorization(state.challenge, t.user, t.password, 'GET', t.tokenPath, options);
  };
  const kept = reuse && state.challenge !== undefined;
  if (!kept) {
    conn.socket.write(request());
    const first = await conn.response();
    if (first.status !== 401) throw new Error(`wssession.cgi without credentials answered ${first.status}`);
    state.challenge = first.headers['www-authenticate'];
    state.nc = 0;
  }
  conn.socket.write(request(credentials()));
  const second = await conn.response();
  if (second.status === 401 && kept) {
    state.challenge = undefined; // expired: start over from a fresh challenge
    return fetchToken(t, state, reuse);
  }
  if (second.status !== 200) throw new Error(`wssession.cgi with digest answered ${second.status}: ${second.body}`);
  return second.body;
}

/** An upgrade after a 401: the answer on the kept connection when `keep` and the server keeps it. */
async function answeredChallenge(t, keep) {
  const { challenge, conn } = await upgradeChallenge(t, keep);
  let authorization;
  try {
    authorization = digestAuthorization(challenge, t.user, t.password, 'GET', t.wsPath);
  } catch (err) {
    conn?.destroy();
    throw err;
  }
  return session(t, t.wsPath, authorization, conn);
}

/** Upgrade with a token from wssession.cgi; `reuse`: the token request reuses the client's last challenge. */
async function tokenSession(t, state, reuse) {
  const token = await fetchToken(t, state, reuse);
  return session(t, `${t.wsPath}&wssession=${encodeURIComponent(token)}`);
}

/** What one client does per connection in each mode; `state` is the client's own. */
const CONNECT = {
  bare: (t) => session(t, t.wsPath),
  'digest-401': (t) => answeredChallenge(t, true),
  'digest-401-new-connection': (t) => answeredChallenge(t, false),
  token: (t, state) => tokenSession(t, state, true),
  'token-401': (t, state) => tokenSession(t, state, false),
  'reused-nonce': (t, state, shared) => {
    const options = { nc: ++shared.nc, cnonce: state.cnonce };
    return session(t, t.wsPath, digestAuthorization(shared.challenge, t.user, t.password, 'GET', t.wsPath, options));
  },
};

async function run({ side, mode, count, concurrency, target }) {
  const connect = CONNECT[mode];
  if (!connect) throw new Error(`unknown mode ${mode}`);
  const t = prepare(target);
  const shared = { nc: 0, challenge: mode === 'reused-nonce' ? (await upgradeChallenge(t)).challenge : undefined };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let started = 0;
  const client = async (c) => {
    const state = { conn: undefined, challenge: undefined, nc: 0, cnonce: `bench${c.toString(16).padStart(8, '0')}` };
    try {
      while (started < count) {
        started++;
        await connect(t, state, shared);
      }
    } finally {
      state.conn?.destroy();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, (_, c) => client(c)));
  const seconds = (performance.now() - t0) / 1000;
  send({ type: 'done', side, mode, seconds, cpu: process.cpuUsage(cpu0) });
}

process.on('message', (msg) => {
  switch (msg.cmd) {
    case 'run':
      run(msg).catch(fail);
      break;
    case 'close':
      process.disconnect();
      break;
    default:
      fail(new Error(`unknown command ${msg.cmd}`));
  }
});
