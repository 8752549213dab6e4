/**
 * A `ws` client for event stream tests: every message is queued so a test awaits
 * them in order (`next()`), with a timeout that fails the test instead of a sleep.
 * Also the handshakes real clients do: digest after a 401, or a session token.
 */
import type { IncomingHttpHeaders } from 'node:http';
import WebSocket, { type ClientOptions } from 'ws';
import { digestRequest } from './digest-request';
import { type DeviceHandle, type DigestAlgorithm, digestAuthorization, type RpcResponse } from '../../src';
import type { Notification } from '../../src/events/notification-message';

/** How long a test waits for a message, a close or a handshake before failing. */
export const WAIT_MS = 5000;

/** One message as received. */
export interface Frame {
  text: string;
  isBinary: boolean;
}

/** The `params` of an `events:notify` notification, as the device serialises it. */
export interface NotifyParams {
  notification: Notification;
}

/**
 * A message the device sends on the stream: an answer (`data` or `error`) or an
 * `events:notify` notification (`params`).
 */
export interface StreamMessage extends RpcResponse {
  params?: NotifyParams;
}

/** The notification of an `events:notify` message; throws for any other message. */
export function notificationOf(message: StreamMessage): NotifyParams['notification'] {
  if (message.params === undefined) throw new Error(`expected a notification, got: ${JSON.stringify(message)}`);
  return message.params.notification;
}

/** How a connection ended. */
export interface CloseInfo {
  code: number;
  reason: string;
}

interface Waiter {
  ready: () => boolean;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  what: string;
  /** False: a close before `ready()` fails the wait. */
  closeIsReady: boolean;
}

/** Wraps an open WebSocket and queues what it receives. */
export class StreamClient {
  /** Every message received, in order. */
  readonly frames: Frame[] = [];
  /** Set once the connection is closed. */
  closeInfo: CloseInfo | undefined;
  private cursor = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      this.frames.push({ text: rawToString(data), isBinary });
      this.check();
    });
    ws.on('error', () => undefined);
    ws.once('close', (code: number, reason: Buffer) => {
      this.closeInfo = { code, reason: reason.toString() };
      this.check();
    });
  }

  /** Messages received so far. */
  get received(): number {
    return this.frames.length;
  }

  /** Messages received but not yet taken with `next()`. */
  get pending(): number {
    return this.frames.length - this.cursor;
  }

  /** The next message not yet taken, as text and kind. */
  async nextFrame(timeoutMs = WAIT_MS): Promise<Frame> {
    await this.waitUntil(() => this.cursor < this.frames.length, 'the next message', timeoutMs);
    return this.frames[this.cursor++];
  }

  /** The next message, parsed as JSON. */
  async next(timeoutMs = WAIT_MS): Promise<StreamMessage> {
    const frame = await this.nextFrame(timeoutMs);
    try {
      return JSON.parse(frame.text) as StreamMessage;
    } catch {
      throw new Error(`expected a JSON message, got: ${frame.text.slice(0, 200)}`);
    }
  }

  /** The next `n` messages, parsed as JSON. */
  async nextN(n: number, timeoutMs = WAIT_MS): Promise<StreamMessage[]> {
    const out: StreamMessage[] = [];
    for (let i = 0; i < n; i++) out.push(await this.next(timeoutMs));
    return out;
  }

  /** Resolves once `count` messages in all have arrived. */
  waitForCount(count: number, timeoutMs = WAIT_MS): Promise<void> {
    return this.waitUntil(
      () => this.frames.length >= count,
      `${count} messages (have ${this.frames.length})`,
      timeoutMs,
    );
  }

  /** Resolves with the close code and reason once the connection is closed. */
  async waitForClose(timeoutMs = WAIT_MS): Promise<CloseInfo> {
    await this.waitUntil(() => this.closeInfo !== undefined, 'the connection to close', timeoutMs, true);
    return this.closeInfo as CloseInfo;
  }

  /** Sends a value: a string or Buffer as is, anything else as JSON text. */
  send(value: unknown, options: { binary?: boolean } = {}): void {
    if (typeof value === 'string' || Buffer.isBuffer(value))
      this.ws.send(value, { binary: options.binary ?? Buffer.isBuffer(value) });
    else this.ws.send(JSON.stringify(value));
  }

  /** Sends a message and returns the next one (the answer). */
  async request(value: unknown, timeoutMs = WAIT_MS): Promise<StreamMessage> {
    this.send(value);
    return this.next(timeoutMs);
  }

  /** Sends `events:configure` with the filters and returns the answer. */
  configure(eventFilterList: unknown, context?: string): Promise<StreamMessage> {
    return this.request(configureMessage(eventFilterList, context));
  }

  /** Closes the connection and waits until it is closed. */
  async close(): Promise<void> {
    if (this.closeInfo) return;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
    try {
      await this.waitForClose();
    } catch {
      this.ws.terminate();
    }
  }

  private waitUntil(ready: () => boolean, what: string, timeoutMs: number, closeIsReady = false): Promise<void> {
    if (ready()) return Promise.resolve();
    if (this.closeInfo && !closeIsReady) return Promise.reject(this.closedError(what));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        ready,
        resolve,
        reject,
        what,
        closeIsReady,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  private check(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.ready()) {
        this.settle(waiter);
        waiter.resolve();
      } else if (this.closeInfo && !waiter.closeIsReady) {
        this.settle(waiter);
        waiter.reject(this.closedError(waiter.what));
      }
    }
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
  }

  private closedError(what: string): Error {
    return new Error(`connection closed (${this.closeInfo?.code} ${this.closeInfo?.reason}) while waiting for ${what}`);
  }
}

/** An `events:configure` request. */
export function configureMessage(eventFilterList: unknown, context?: string): Record<string, unknown> {
  return {
    apiVersion: '1.0',
    ...(context === undefined ? {} : { context }),
    method: 'events:configure',
    params: { eventFilterList },
  };
}

/** A refused handshake: the HTTP answer instead of 101. */
export interface HandshakeRefusal {
  status: number;
  headers: IncomingHttpHeaders;
  headersDistinct: Record<string, string[]>;
  body: string;
}

/** Outcome of {@link handshake}. */
export type HandshakeOutcome = { ok: true; client: StreamClient } | ({ ok: false } & HandshakeRefusal);

/** The request target of the event stream: path and query, as the digest `uri` must be. */
export function streamTarget(device: DeviceHandle, query = '?sources=events'): string {
  return `${new URL(device.urls.eventStream).pathname}${query}`;
}

/** The ws:// URL of a request target on the device. */
export function wsUrl(device: DeviceHandle, target: string): string {
  return `${new URL(device.urls.eventStream).origin}${target}`;
}

/**
 * Opens a WebSocket; resolves with the client on 101 or with the HTTP answer
 * (read through ws's `unexpected-response`) on any other status.
 */
export function handshake(url: string, options: ClientOptions = {}, timeoutMs = WAIT_MS): Promise<HandshakeOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for the handshake of ${url}`));
    }, timeoutMs);
    const client = new StreamClient(ws);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve({ ok: true, client });
    });
    ws.once('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => undefined);
      res.once('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({
          ok: false,
          status: res.statusCode ?? 0,
          headers: res.headers,
          headersDistinct: res.headersDistinct as Record<string, string[]>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Opens a WebSocket that must succeed. */
export async function openStream(url: string, options: ClientOptions = {}): Promise<StreamClient> {
  const outcome = await handshake(url, options);
  if (!outcome.ok) throw new Error(`expected 101 from ${url}, got ${outcome.status}: ${outcome.body}`);
  return outcome.client;
}

/** A handshake that must be refused; returns the HTTP answer. */
export async function refusedHandshake(url: string, options: ClientOptions = {}): Promise<HandshakeRefusal> {
  const outcome = await handshake(url, options);
  if (outcome.ok) {
    await outcome.client.close();
    throw new Error(`expected the handshake of ${url} to be refused, but it succeeded`);
  }
  return outcome;
}

/** Digest credentials and knobs for {@link openWithDigest}. */
export interface DigestStreamOptions {
  username?: string;
  password?: string;
  algorithm?: DigestAlgorithm;
  /** The query of the request target, `?sources=events` by default. */
  query?: string;
  ws?: ClientOptions;
}

/**
 * What a digest client does on the handshake: first without credentials (401 with
 * challenges), then with `Authorization` for uri = path and query, exactly.
 */
export async function openWithDigest(
  device: DeviceHandle,
  options: DigestStreamOptions = {},
): Promise<{ client: StreamClient; challenge: HandshakeRefusal; authorization: string }> {
  const target = streamTarget(device, options.query);
  const url = wsUrl(device, target);
  const challenge = await refusedHandshake(url, options.ws);
  if (challenge.status !== 401) throw new Error(`expected a 401 challenge, got ${challenge.status}: ${challenge.body}`);
  const authorization = digestAuthorization(
    challenge.headersDistinct['www-authenticate'] ?? [],
    options.username ?? 'root',
    options.password ?? 'pass',
    'GET',
    target,
    {
      algorithm: options.algorithm,
    },
  );
  const client = await openStream(url, {
    ...options.ws,
    headers: { ...(options.ws?.headers ?? {}), Authorization: authorization },
  });
  return { client, challenge, authorization };
}

/** A session token from `wssession.cgi`, fetched over HTTP with digest (root / pass by default). */
export async function fetchToken(device: DeviceHandle, username = 'root', password = 'pass'): Promise<string> {
  const answer = await digestRequest(device.url, {
    method: 'GET',
    path: new URL(device.urls.sessionToken).pathname,
    username,
    password,
  });
  if (answer.status !== 200) throw new Error(`wssession.cgi answered ${answer.status}: ${answer.body}`);
  return answer.body;
}

/** Opens the stream with a session token (a fresh one from `device.issueToken()` by default). */
export function openWithToken(
  device: DeviceHandle,
  token = device.issueToken(),
  query = '?sources=events',
  ws: ClientOptions = {},
): Promise<StreamClient> {
  return openStream(wsUrl(device, streamTarget(device, `${query}&wssession=${encodeURIComponent(token)}`)), ws);
}

function rawToString(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * Advances a scenario's scheduler by `ms` and returns the topics `client` received
 * meanwhile, in order; a marker event published after the advance ends the wait.
 */
export async function topicsDuring(
  device: { publish(topic: string): unknown },
  client: StreamClient,
  scheduler: { advance(ms: number): void },
  ms: number,
): Promise<string[]> {
  scheduler.advance(ms);
  device.publish('tns1:Test/Marker');
  const topics: string[] = [];
  for (;;) {
    const topic = notificationOf(await client.next()).topic;
    if (topic === 'tns1:Test/Marker') return topics;
    topics.push(topic);
  }
}
