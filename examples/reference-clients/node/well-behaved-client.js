#!/usr/bin/env node
/**
 * A well-behaved event stream client, written as client teams write one with Node 20's
 * libraries: `ws` for the event stream, node:http(s) for the CGIs. The same behaviour,
 * options and JSON-line output as ../python/well_behaved_client.py (see ../README.md):
 *
 * - a session token from wssession.cgi right before every connect, used once;
 * - `events:configure` (apiVersion 1.0, a context, one filter per topic) on every session;
 * - pings every --ping-interval s (the heartbeat of the ws README), `terminate()` when no
 *   pong comes within --pong-timeout s; pings from the device are answered by ws itself;
 * - a reconnect after any close or error, after a back-off from --backoff-start s doubling
 *   to --backoff-cap s, reset once a session worked;
 * - featureflag.cgi listAll every --poll-interval s; a 503 or a timeout is "busy": the next
 *   try comes later, with back-off;
 * - an event stream answering 404 (firmware without WebSocket events): basicdeviceinfo.cgi
 *   is polled instead, and the stream is tried again with back-off.
 *
 * Digest: urllib's `digestAuth` answers every request's 401 afresh (a fixed nc=00000001, no
 * nonce kept), which pays a 401 round trip per request; so this file does what the
 * `digest-fetch` package and Python's requests.HTTPDigestAuth do: keep the last challenge,
 * answer it with nc counting up, and take the new challenge of a 401 once (RFC 7616, MD5
 * or SHA-256, qop=auth). It needs only `ws` (npm install ws).
 *
 *   node well-behaved-client.js BASE_URL [--user root] [--password pass] [--topic T ...]
 *     [--duration 60] [--backoff-start 2] [--backoff-cap 30] [--ping-interval 10]
 *     [--pong-timeout 5] [--poll-interval 10] [--http-timeout 10] [--ca-file PEM]
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const { parseArgs } = require('node:util');
const WebSocket = require('ws');

/** The topics of bwc-emu's default scenario, one filter each. */
const DEFAULT_TOPICS = [
  'tns1:Device/tnsvendor:Status/SystemReady',
  'tns1:Device/tnsvendor:IO/Port',
  'tns1:VideoSource/MotionAlarm',
];
const CONTEXT = 'well-behaved-node';
const started = performance.now();

/** One JSON line on stdout per thing the client did (never a token or a password). */
function log(event, fields = {}) {
  const t = Math.round(performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ t, client: 'node', event, ...fields })}\n`);
}

/** Waits that start at `start` s and double up to `cap` s; reset() starts over. */
class Backoff {
  constructor(start, cap) {
    this.start = start;
    this.cap = cap;
    this.current = start;
  }
  next() {
    const wait = this.current;
    this.current = Math.min(this.current * 2, this.cap);
    return wait;
  }
  reset() {
    this.current = this.start;
  }
}

/** Digest auth that keeps the last challenge and counts nc up (see the file comment). */
class Digest {
  constructor(user, password) {
    this.user = user;
    this.password = password;
    this.challenge = undefined;
    this.nc = 0;
  }

  /** The Authorization header for the next request, or undefined before the first challenge. */
  authorization(method, uri) {
    const c = this.challenge;
    if (!c) return undefined;
    const hash = (text) => crypto.createHash(c.hash).update(text).digest('hex');
    const nc = (++this.nc).toString(16).padStart(8, '0');
    const cnonce = crypto.randomBytes(8).toString('hex');
    const ha1 = hash(`${this.user}:${c.realm}:${this.password}`);
    const response = hash(`${ha1}:${c.nonce}:${nc}:${cnonce}:auth:${hash(`${method}:${uri}`)}`);
    const opaque = c.opaque === undefined ? '' : `, opaque="${c.opaque}"`;
    return (
      `Digest username="${this.user}", realm="${c.realm}", nonce="${c.nonce}", uri="${uri}", ` +
      `algorithm=${c.algorithm}, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}"${opaque}`
    );
  }

  /** Takes the first digest challenge of a 401 whose algorithm we know; false when there is none. */
  take(values) {
    for (const value of values ?? []) {
      if (!/^digest\s/i.test(value)) continue;
      const params = {};
      for (const [, name, quoted, bare] of value.matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]*))/g))
        params[name.toLowerCase()] = quoted ?? bare;
      const algorithm = (params.algorithm ?? 'MD5').toUpperCase();
      const hash = { MD5: 'md5', 'SHA-256': 'sha256' }[algorithm];
      if (!hash || !params.nonce) continue;
      this.challenge = { realm: params.realm, nonce: params.nonce, opaque: params.opaque, algorithm, hash };
      this.nc = 0;
      return true;
    }
    return false;
  }
}

class Client {
  constructor(options) {
    this.o = options;
    const base = new URL(options.base);
    this.tls = base.protocol === 'https:';
    this.ca = options.caFile ? fs.readFileSync(options.caFile) : undefined;
    this.agent = new (this.tls ? https : http).Agent({ keepAlive: true, ...(this.ca ? { ca: this.ca } : {}) });
    this.wsBase = `${this.tls ? 'wss' : 'ws'}://${base.host}`;
    this.digest = new Digest(options.user, options.password);
    this.streamBackoff = new Backoff(options.backoffStart, options.backoffCap);
    this.pollBackoff = new Backoff(options.pollInterval, Math.max(options.pollInterval, options.backoffCap));
    this.stopping = false;
    this.fallback = false;
    this.ws = undefined;
    this.sleepers = new Set();
  }

  // --- HTTP ---------------------------------------------------------------------------

  /** One HTTP exchange: { status, headers (arrays), text }; rejects on a network error or the timeout. */
  send(method, path, body, authorization) {
    const headers = { ...(body ? { 'Content-Type': 'application/json' } : {}) };
    if (authorization) headers.Authorization = authorization;
    return new Promise((resolve, reject) => {
      const req = (this.tls ? https : http).request(
        `${this.o.base}${path}`,
        { method, headers, agent: this.agent },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({ status: res.statusCode, headers: res.headersDistinct, text: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.setTimeout(this.o.httpTimeout * 1000, () =>
        req.destroy(Object.assign(new Error('timeout'), { timeout: true })),
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** A request with digest auth: the kept challenge, and the new one of a 401 taken once. */
  async request(method, path, body) {
    let answer = await this.send(method, path, body, this.digest.authorization(method, path));
    if (answer.status === 401 && this.digest.take(answer.headers['www-authenticate']))
      answer = await this.send(method, path, body, this.digest.authorization(method, path));
    return answer;
  }

  /** The answer when it is 200; undefined (logged) when busy, refused or failed. */
  async call(what, method, name, body) {
    const start = performance.now();
    let answer;
    try {
      answer = await this.request(method, `${this.o.cgiPrefix}/${name}`, body);
    } catch (err) {
      if (err.timeout) log('busy', { what, reason: 'timeout' });
      else log('error', { what, type: err.code ?? err.name, message: String(err.message).slice(0, 200) });
      return undefined;
    }
    const ms = Math.round(performance.now() - start);
    if (answer.status === 503) log('busy', { what, status: 503, ms });
    else if (answer.status !== 200) log('http-error', { what, status: answer.status, ms });
    else return { ...answer, ms };
    return undefined;
  }

  /** A JSON-RPC call; its `data`, or undefined (logged). */
  async rpc(what, cgi, method) {
    const answer = await this.call(what, 'POST', cgi, JSON.stringify({ apiVersion: '1.0', context: CONTEXT, method }));
    if (!answer) return undefined;
    const reply = JSON.parse(answer.text);
    if (reply.error) {
      log('rpc-error', { what, code: reply.error.code, ms: answer.ms });
      return undefined;
    }
    log('poll', { what, status: 200, ms: answer.ms });
    return reply.data ?? {};
  }

  /** A fresh session token, fetched now for the connect that follows at once. */
  async token() {
    const answer = await this.call('token', 'GET', 'wssession.cgi');
    if (!answer) return undefined;
    log('token', { status: 200 });
    return answer.text.trim();
  }

  /** listAll at a modest rate (and the fallback poll while the stream is missing). */
  async pollLoop() {
    let wait = this.o.pollInterval;
    while (await this.sleep(wait)) {
      let ok = (await this.rpc('listAll', 'featureflag.cgi', 'listAll')) !== undefined;
      if (ok && this.fallback)
        ok = (await this.rpc('fallback', 'basicdeviceinfo.cgi', 'getAllProperties')) !== undefined;
      if (ok) {
        this.pollBackoff.reset();
        wait = this.o.pollInterval;
      } else {
        wait = this.pollBackoff.next();
        log('backoff', { what: 'poll', ms: Math.round(wait * 1000) });
      }
    }
  }

  // --- event stream -------------------------------------------------------------------

  async streamLoop() {
    while (!this.stopping) {
      if (await this.connectOnce()) this.streamBackoff.reset();
      if (this.stopping) break;
      const wait = this.streamBackoff.next();
      log('backoff', { what: 'stream', ms: Math.round(wait * 1000) });
      await this.sleep(wait);
    }
  }

  /** One session, from a fresh token to its close; resolves true when it was configured. */
  async connectOnce() {
    const token = await this.token();
    if (token === undefined || this.stopping) return false;
    const path = `${this.o.wsPrefix}/ws-data-stream?sources=events`;
    return new Promise((resolve) => {
      const ws = new WebSocket(`${this.wsBase}${path}&wssession=${encodeURIComponent(token)}`, { ca: this.ca });
      this.ws = ws;
      let configured = false;
      let heartbeat;
      let pongTimer;
      log('connect', { path });
      ws.on('open', () => {
        log('open');
        if (this.fallback) {
          this.fallback = false;
          log('fallback-end');
        }
        const filters = this.o.topics.map((topicFilter) => ({ topicFilter }));
        const params = { eventFilterList: filters };
        ws.send(JSON.stringify({ apiVersion: '1.0', context: CONTEXT, method: 'events:configure', params }));
        log('configure', { filters: filters.length });
        heartbeat = setInterval(() => {
          ws.ping();
          pongTimer ??= setTimeout(() => {
            log('ping-timeout', { message: `no pong within ${this.o.pongTimeout} s` });
            ws.terminate();
          }, this.o.pongTimeout * 1000);
        }, this.o.pingInterval * 1000);
      });
      ws.on('pong', () => {
        clearTimeout(pongTimer);
        pongTimer = undefined;
      });
      ws.on('message', (data) => {
        if (this.handle(JSON.parse(data.toString()))) configured = true;
      });
      ws.on('error', (err) => {
        const status = Number(/Unexpected server response: (\d+)/.exec(err.message)?.[1]) || null;
        if (status === 404 && !this.fallback) {
          this.fallback = true;
          log('fallback', { status: 404 });
        }
        log('error', { what: 'stream', type: err.code ?? err.name, status, message: err.message.slice(0, 200) });
      });
      ws.on('close', (code, reason) => {
        clearInterval(heartbeat);
        clearTimeout(pongTimer);
        log('close', { code, reason: reason.toString() });
        this.ws = undefined;
        resolve(configured);
      });
    });
  }

  /** Takes one stream message; true when it is a successful configure answer. */
  handle(message) {
    if (message.method === 'events:notify') {
      const { topic, timestamp } = message.params.notification;
      log('notification', { topic, timestamp: timestamp ?? null });
    } else if (message.method === 'events:configure') {
      if (!message.error) {
        log('configured');
        return true;
      }
      log('configure-error', { code: message.error.code, message: message.error.message });
    } else if (message.error) log('stream-error', { code: message.error.code, message: message.error.message });
    return false;
  }

  // --- life -----------------------------------------------------------------------------

  /** Waits `seconds`; resolves true, or false at once when the client stops. */
  sleep(seconds) {
    if (this.stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (value) => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(value);
      };
      const timer = setTimeout(() => wake(true), seconds * 1000);
      this.sleepers.add(wake);
    });
  }

  async run() {
    log('start', { base: this.o.base, topics: this.o.topics });
    let reason = 'duration';
    const stop = (why) => {
      if (this.stopping) return;
      reason = why;
      this.stopping = true;
      for (const wake of [...this.sleepers]) wake(false);
      this.ws?.close(1000, 'client stopping');
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    const timer = setTimeout(() => stop('duration'), this.o.duration * 1000);
    await Promise.all([this.streamLoop(), this.pollLoop()]);
    clearTimeout(timer);
    this.agent.destroy();
    log('stop', { reason });
  }
}

/** Every option; the timings are seconds (strings, checked by options()). */
const SECONDS = { type: 'string' };
const OPTIONS = {
  user: { type: 'string', default: 'root' },
  password: { type: 'string', default: 'pass' },
  'cgi-prefix': { type: 'string', default: '/svc-cgi' },
  'ws-prefix': { type: 'string', default: '/svc' },
  topic: { type: 'string', multiple: true },
  duration: SECONDS,
  'backoff-start': SECONDS,
  'backoff-cap': SECONDS,
  'ping-interval': SECONDS,
  'pong-timeout': SECONDS,
  'poll-interval': SECONDS,
  'http-timeout': SECONDS,
  'ca-file': { type: 'string' },
};

/** The command line as options; exits 2 with a message when it is wrong. */
function options() {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (err) {
    usage(err.message);
  }
  const { values, positionals } = parsed;
  const seconds = (name, fallback) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!(value > 0)) usage(`--${name} must be a number of seconds above 0`);
    return value;
  };
  if (positionals.length !== 1) usage('give the base URL, e.g. http://127.0.0.1:8080');
  const o = {
    base: positionals[0].replace(/\/+$/, ''),
    user: values.user,
    password: values.password,
    cgiPrefix: values['cgi-prefix'],
    wsPrefix: values['ws-prefix'],
    topics: values.topic ?? DEFAULT_TOPICS,
    duration: seconds('duration', 60),
    backoffStart: seconds('backoff-start', 2),
    backoffCap: seconds('backoff-cap', 30),
    pingInterval: seconds('ping-interval', 10),
    pongTimeout: seconds('pong-timeout', 5),
    pollInterval: seconds('poll-interval', 10),
    httpTimeout: seconds('http-timeout', 10),
    caFile: values['ca-file'],
  };
  if (o.pongTimeout >= o.pingInterval) usage('--pong-timeout must be shorter than --ping-interval');
  return o;
}

function usage(message) {
  process.stderr.write(`well-behaved-client: ${message}\n`);
  process.exit(2);
}

new Client(options()).run().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`well-behaved-client: ${err.stack}\n`);
    process.exit(1);
  },
);
