/**
 * `bwc-emu record`: records a device's event stream into a scenario, so behaviour
 * captured from hardware can be replayed in CI.
 *
 * {@link recordEvents} connects (digest on the handshake: first without credentials,
 * then answering the 401's challenges for uri = path and query; or with a session
 * token fetched with digest from the device's `wssession.cgi`), sends one
 * `events:configure` with the filters, and keeps every notification with its time.
 *
 * Decisions:
 * - Time zero is the configure answer: `atMs` of an event is the time since the
 *   device accepted the subscription, so a quiet start is kept. {@link toScenarioYaml}
 *   can drop it (`fromFirstEvent`).
 * - Initial states: the notifications carry no "stateful" mark, so the rule is about
 *   timing. A device sends the current states of stateful topics right after the
 *   configure answer, in the same write (this emulator corks them together). A
 *   notification that arrives in the same I/O batch as the configure answer (before
 *   a `setImmediate` queued when the answer arrives has run) is marked
 *   `initial: true`; {@link toScenarioYaml} writes those as `states:`, which the
 *   replaying device keeps and sends to every subscriber, and all others as
 *   `timeline:` emits at their times. Pass `initialStates: 'timeline'` to
 *   toScenarioYaml to put everything in the timeline instead.
 * - The recording ends at `durationMs` (from the configure answer), after
 *   `maxEvents`, or when `signal` aborts; it resolves with what was received. A
 *   connection lost before that rejects with a {@link RecordError} of code
 *   `CONNECTION_LOST` whose `events` holds what was received, so a caller may still
 *   save it. Without `durationMs`, `maxEvents` or `signal` it records until the
 *   connection ends, which is then an error too.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import WebSocket, { type ClientOptions, type RawData } from 'ws';
import { digestAuthorization } from '../auth/digest-client';
import { EmulatorError } from '../base/errors';

/** What {@link recordEvents} is told. */
export interface RecordOptions {
  /** The event stream: `ws(s)://host:port/svc/ws-data-stream?sources=events`. */
  url: string;
  /** Digest user name; `root` by default. */
  user?: string;
  /** Digest password; `pass` by default. */
  password?: string;
  /**
   * Fetch a session token (GET `{http(s)://host:port}{cgiPrefix}/wssession.cgi`, digest
   * after a 401) and connect with `wssession=<token>` instead of digest on the handshake.
   */
  token?: boolean;
  /** Where `wssession.cgi` lives; `/svc-cgi` by default. */
  cgiPrefix?: string;
  /** Topic filters; `[""]` (everything) when absent or empty. */
  filters?: string[];
  /** Stop this long after the configure answer (ms). */
  durationMs?: number;
  /** Stop after this many notifications (initial states included). */
  maxEvents?: number;
  /** wss/https: PEM certificate(s) to trust, e.g. the device's self-signed one. */
  ca?: string;
  /** wss/https: accept any certificate. */
  insecure?: boolean;
  /** Stops the recording early (e.g. Ctrl+C); resolves with what was received. */
  signal?: AbortSignal;
  /** How long to wait for the handshake, the token and the configure answer; 10 s by default. */
  timeoutMs?: number;
  /** The clock for `atMs`; `Date.now` by default. */
  now?: () => number;
  /**
   * Called once the device has accepted the subscription (before the initial states of
   * that same batch are read); e.g. to print "recording..." or, in tests, to start publishing.
   */
  onConfigured?: () => void;
}

/** One received notification. */
export interface RecordedEvent {
  /** Milliseconds since the configure answer. */
  atMs: number;
  topic: string;
  source: Record<string, string>;
  key: Record<string, string>;
  data: Record<string, string>;
  /** Arrived with the configure answer: the current state of a stateful topic. */
  initial?: boolean;
}

/** Why a recording failed. */
export type RecordErrorCode =
  'CONNECT_FAILED' | 'HANDSHAKE_REFUSED' | 'TOKEN_REFUSED' | 'CONFIGURE_REFUSED' | 'CONNECTION_LOST' | 'TIMEOUT';

/** A failed recording; `events` holds what was received before (for CONNECTION_LOST). */
export class RecordError extends EmulatorError {
  constructor(
    override readonly code: RecordErrorCode,
    message: string,
    readonly events: RecordedEvent[] = [],
    /** HTTP status (HANDSHAKE_REFUSED, TOKEN_REFUSED) or RPC error code (CONFIGURE_REFUSED). */
    readonly status?: number,
  ) {
    super(code, message);
    this.name = 'RecordError';
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** Records until `durationMs`, `maxEvents` or the signal; see the module comment. */
export async function recordEvents(options: RecordOptions): Promise<RecordedEvent[]> {
  const url = new URL(options.url);
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new RecordError('CONNECT_FAILED', `the stream URL must be ws:// or wss://, got ${options.url}`);
  const user = options.user ?? 'root';
  const password = options.password ?? 'pass';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tls = {
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
  if (options.token) {
    const token = await fetchToken(url, options.cgiPrefix ?? '/svc-cgi', user, password, tls, timeoutMs);
    url.searchParams.set('wssession', token);
  }
  const ws = await connect(url, options.token ? undefined : { user, password }, tls, timeoutMs);
  return record(ws, options, timeoutMs);
}

function record(ws: WebSocket, options: RecordOptions, timeoutMs: number): Promise<RecordedEvent[]> {
  const now = options.now ?? Date.now;
  return new Promise((resolve, reject) => {
    const events: RecordedEvent[] = [];
    let configuredAt: number | undefined;
    let sameBatch = false;
    let done = false;
    let timer: NodeJS.Timeout | undefined = setTimeout(
      () => end(new RecordError('TIMEOUT', `no answer to events:configure within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const end = (error?: Error): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, 'recording done');
      if (error) reject(error);
      else resolve(events);
    };
    const onAbort = (): void => end();
    if (options.signal?.aborted) return end();
    options.signal?.addEventListener('abort', onAbort);
    ws.on('error', () => undefined); // the close that follows says it
    ws.on('close', (code, reason) => {
      const why = `${code}${reason.length > 0 ? ` ${reason.toString()}` : ''}`;
      const what =
        configuredAt === undefined
          ? 'before answering events:configure'
          : `after ${events.length} event${events.length === 1 ? '' : 's'}`;
      end(new RecordError('CONNECTION_LOST', `connection lost (${why}) ${what}`, events));
    });
    ws.on('message', (raw, isBinary) => {
      if (done || isBinary) return;
      let message: {
        method?: string;
        error?: { code?: number; message?: string };
        params?: { notification?: Notification };
      };
      try {
        message = JSON.parse(textOf(raw)) as typeof message;
      } catch {
        return; // not JSON: nothing a scenario can hold
      }
      if (configuredAt === undefined) {
        if (message.method === 'events:notify') return; // not ours: nothing is subscribed yet
        if (message.error) {
          const { code, message: text } = message.error;
          return end(
            new RecordError(
              'CONFIGURE_REFUSED',
              `the device refused events:configure: error ${code ?? '?'}: ${text ?? '(no message)'}`,
              [],
              code,
            ),
          );
        }
        configuredAt = now();
        sameBatch = true;
        setImmediate(() => (sameBatch = false));
        if (timer) clearTimeout(timer);
        timer = options.durationMs !== undefined ? setTimeout(() => end(), options.durationMs) : undefined;
        options.onConfigured?.();
        return;
      }
      const n = message.params?.notification;
      if (message.method !== 'events:notify' || !n || typeof n.topic !== 'string') return;
      events.push({
        atMs: Math.max(0, now() - configuredAt),
        topic: n.topic,
        source: strings(n.message?.source),
        key: strings(n.message?.key),
        data: strings(n.message?.data),
        ...(sameBatch ? { initial: true } : {}),
      });
      if (options.maxEvents !== undefined && events.length >= options.maxEvents) end();
    });
    const filters = options.filters && options.filters.length > 0 ? options.filters : [''];
    const eventFilterList = filters.map((topicFilter) => ({ topicFilter }));
    ws.send(
      JSON.stringify({
        apiVersion: '1.0',
        context: 'bwc-emu record',
        method: 'events:configure',
        params: { eventFilterList },
      }),
    );
  });
}

interface Notification {
  topic?: unknown;
  message?: { source?: unknown; key?: unknown; data?: unknown };
}

/** A message part as a map of strings (values are strings on the wire; anything else is stringified). */
function strings(part: unknown): Record<string, string> {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return {};
  return Object.fromEntries(Object.entries(part).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

type TlsOptions = { ca?: string; rejectUnauthorized?: boolean };

/** Opens the stream; with `digest`, first without credentials, then answering the 401's challenges. */
async function connect(
  url: URL,
  digest: { user: string; password: string } | undefined,
  tls: TlsOptions,
  timeoutMs: number,
): Promise<WebSocket> {
  const first = await attempt(url, undefined, tls, timeoutMs);
  if (first.ws) return first.ws;
  if (first.status !== 401 || !digest || first.challenges.length === 0)
    throw refused('HANDSHAKE_REFUSED', 'the device refused the stream handshake', first.status, first.body);
  const target = `${url.pathname}${url.search}`;
  let authorization: string;
  try {
    authorization = digestAuthorization(first.challenges, digest.user, digest.password, 'GET', target);
  } catch (error) {
    throw new RecordError(
      'HANDSHAKE_REFUSED',
      `the device asked for authentication the recorder cannot answer: ${(error as Error).message}`,
      [],
      401,
    );
  }
  const second = await attempt(url, authorization, tls, timeoutMs);
  if (second.ws) return second.ws;
  throw refused('HANDSHAKE_REFUSED', 'the device refused the stream handshake', second.status, second.body);
}

function refused(code: 'HANDSHAKE_REFUSED' | 'TOKEN_REFUSED', what: string, status: number, body: string): RecordError {
  const hint = status === 401 ? ' (wrong user or password?)' : status === 403 ? ' (the user may not read events?)' : '';
  const detail = body.trim().slice(0, 200);
  return new RecordError(code, `${what}: HTTP ${status}${hint}${detail ? `: ${detail}` : ''}`, [], status);
}

interface Attempt {
  ws?: WebSocket;
  status: number;
  challenges: string[];
  body: string;
}

function attempt(url: URL, authorization: string | undefined, tls: TlsOptions, timeoutMs: number): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const options: ClientOptions = {
      ...tls,
      handshakeTimeout: timeoutMs,
      headers: authorization ? { Authorization: authorization } : {},
    };
    const ws = new WebSocket(url, options);
    let settled = false;
    ws.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(new RecordError('CONNECT_FAILED', `cannot connect to ${url.host}: ${err.message}`));
    });
    ws.once('open', () => {
      settled = true;
      resolve({ ws, status: 101, challenges: [], body: '' });
    });
    ws.once('unexpected-response', (req, res) => {
      readBody(res).then((body) => {
        settled = true;
        req.destroy();
        resolve({ status: res.statusCode ?? 0, challenges: res.headersDistinct['www-authenticate'] ?? [], body });
      }, reject);
    });
  });
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** GETs a session token from the device's wssession.cgi, with digest after a 401. */
async function fetchToken(
  streamUrl: URL,
  cgiPrefix: string,
  user: string,
  password: string,
  tls: TlsOptions,
  timeoutMs: number,
): Promise<string> {
  const base = new URL(`${streamUrl.protocol === 'wss:' ? 'https' : 'http'}://${streamUrl.host}`);
  const path = `${cgiPrefix.replace(/\/+$/, '')}/wssession.cgi`;
  const first = await get(base, path, undefined, tls, timeoutMs);
  let answer = first;
  if (first.status === 401 && first.challenges.length > 0) {
    let authorization: string;
    try {
      authorization = digestAuthorization(first.challenges, user, password, 'GET', path);
    } catch (error) {
      throw new RecordError(
        'TOKEN_REFUSED',
        `${path} asked for authentication the recorder cannot answer: ${(error as Error).message}`,
        [],
        401,
      );
    }
    answer = await get(base, path, authorization, tls, timeoutMs);
  }
  if (answer.status !== 200)
    throw refused('TOKEN_REFUSED', `${path} refused a session token`, answer.status, answer.body);
  const token = answer.body.trim();
  if (token === '') throw new RecordError('TOKEN_REFUSED', `${path} answered 200 with an empty token`, [], 200);
  return token;
}

function get(
  base: URL,
  path: string,
  authorization: string | undefined,
  tls: TlsOptions,
  timeoutMs: number,
): Promise<{ status: number; challenges: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      {
        host: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port,
        path,
        method: 'GET',
        headers: authorization ? { Authorization: authorization } : {},
        timeout: timeoutMs,
        ...tls,
      },
      (res) => {
        readBody(res).then(
          (body) =>
            resolve({ status: res.statusCode ?? 0, challenges: res.headersDistinct['www-authenticate'] ?? [], body }),
          reject,
        );
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once('error', (err) =>
      reject(new RecordError('CONNECT_FAILED', `cannot get a session token from ${base.host}${path}: ${err.message}`)),
    );
    req.end();
  });
}

/** The text of a WebSocket message, whichever form ws hands it in. */
function textOf(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}
