'use strict';
/**
 * The same-work baseline of bench/handshake.js: a bare `ws` server that makes the same
 * round trips as the device in each mode and does the same hashing, and nothing else (no
 * log, journal, limits, throttle or replay check). It measures what the device's own code
 * costs on top of the round trips a mode needs, where the bare handshake (one connection,
 * no credentials) measures the mode as a whole.
 *
 *  - An upgrade without credentials gets a 401 with a digest challenge (MD5, qop=auth); the
 *    connection is kept for the next request when HTTP allows it, and closed otherwise, as
 *    the device does, with the device's own helper (dist/base/upgrade-keep-alive.js).
 *  - Nonces are `<hex time>.<HMAC-SHA256 of it, truncated>` and verified by recomputing the
 *    HMAC; HA1 is computed once (one account); each digest costs the HA2 and response MD5s,
 *    hashed with the device's own one-shot hashing (dist/auth/quick-hash.js: `crypto.hash`
 *    where Node has it, 20.12 and later, `createHash` before), so both sides hash alike.
 *  - `GET /token` answers 401 with a challenge, and with digest credentials 200 and a token
 *    of 16 random bytes (drawn 4 KiB at a time), which an upgrade with `?wssession=` spends.
 *  - An accepted upgrade answers a configure as the bare server does.
 */
const { createHmac, randomBytes } = require('node:crypto');
const http = require('node:http');
const { once } = require('node:events');
const path = require('node:path');
const { URLSearchParams } = require('node:url');
const { WebSocketServer } = require('ws');
const { acceptBareSession } = require('./bare-session');

const DIST = process.env.BENCH_DIST || path.join(__dirname, '..', 'dist');
const { hashHex } = require(path.join(DIST, 'auth', 'quick-hash.js'));
const { keepableUpgrade, keepUpgradeConnection } = require(path.join(DIST, 'base', 'upgrade-keep-alive.js'));

const REALM = 'bench';
const PARAM = /(\w+)=(?:"([^"]*)"|([^\s,]*))/g;

function md5(text) {
  return hashHex('md5', text);
}

/** Starts the server for `user`/`password`; resolves with its URLs and `close()`. */
async function startSameWorkServer(user, password) {
  const secret = randomBytes(32);
  const ha1 = md5(`${user}:${REALM}:${password}`);
  const tokens = new Set();
  let pool = Buffer.alloc(0);

  const stamp = (time) => createHmac('sha256', secret).update(time).digest('hex').slice(0, 32);
  const challenge = () => {
    const time = Date.now().toString(16);
    return `Digest realm="${REALM}", nonce="${time}.${stamp(time)}", algorithm=MD5, qop="auth"`;
  };
  /** True when `header` is a digest answer for a nonce of ours, with the right response. */
  const verified = (header, method, uri) => {
    if (!header || !header.startsWith('Digest ')) return false;
    const p = {};
    for (const m of header.matchAll(PARAM)) p[m[1]] = m[2] ?? m[3];
    const [time, mac] = String(p.nonce).split('.');
    if (p.username !== user || p.uri !== uri || mac !== stamp(time)) return false;
    const ha2 = md5(`${method}:${uri}`);
    return p.response === md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:auth:${ha2}`);
  };
  const newToken = () => {
    if (pool.length < 16) pool = randomBytes(4096);
    const token = pool.subarray(0, 16).toString('hex');
    pool = pool.subarray(16);
    tokens.add(token);
    return token;
  };

  const server = http.createServer((req, res) => {
    if (req.url !== '/token') {
      res.writeHead(404).end();
    } else if (!verified(req.headers.authorization, req.method, req.url)) {
      res.writeHead(401, { 'WWW-Authenticate': challenge(), 'Content-Length': '0' }).end();
    } else {
      const token = newToken();
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(token.length) }).end(token);
    }
  });
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => {});
    const query = req.url.indexOf('?');
    const token = query < 0 ? null : new URLSearchParams(req.url.slice(query)).get('wssession');
    const allowed = token !== null ? tokens.delete(token) : verified(req.headers.authorization, 'GET', req.url);
    if (!allowed) {
      const answer = `WWW-Authenticate: ${challenge()}\r\nContent-Length: 0\r\n\r\n`;
      const keepable = keepableUpgrade(req, head);
      if (keepable) {
        socket.write(`HTTP/1.1 401 Unauthorized\r\n${answer}`);
        keepUpgradeConnection(keepable, socket);
      } else {
        socket.end(`HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n${answer}`);
        socket.once('finish', () => socket.destroy());
      }
      return;
    }
    acceptBareSession(wss, req, socket, head);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `127.0.0.1:${server.address().port}`;
  return {
    wsUrl: `ws://${base}/same-work?sources=events`,
    tokenUrl: `http://${base}/token`,
    async close() {
      wss.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

module.exports = { startSameWorkServer };
