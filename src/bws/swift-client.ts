/**
 * The body worn system's Swift client: authenticates at the first
 * `AuthenticationTokenURI` that answers (sending `X-Auth-User`, `Auth-Key` and `X-Auth-Key`), uses
 * `X-Storage-Url` exactly as given, authenticates again once on a 401, and retries
 * 503s, 429s and network errors as the {@link RetryPolicy} says (back-off with full
 * jitter, `Retry-After` obeyed, a time budget per request). Every exchange is reported
 * to `onExchange`, with what came next (the wait and why, or giving up), for the
 * report, the log and the conformance check.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Readable } from 'node:stream';
import { type Clock, systemClock } from '../base/clock';
import { EmulatorError } from '../base/errors';
import { type ConnectionFile, trustedCertificates } from '../protocol/connection-file';
import { parseRetryAfter } from './retry-after';
import { decideRetry, RETRIED_STATUSES, type RetryDecision, type RetryPolicy, retryPolicy } from './retry-policy';

export { DEFAULT_RETRY, RETRIED_STATUSES, type RetryDecision, type RetryPolicy } from './retry-policy';

/** One HTTP exchange, as the report and the conformance check see it. */
export interface Exchange {
  method: string;
  /** The full URL. */
  url: string;
  /** The path under the storage URL (`/Users/officer_1`), or the auth URL's path. */
  path: string;
  requestHeaders: Record<string, string>;
  status?: number;
  responseHeaders?: IncomingHttpHeaders;
  /** Network error text, when there was no answer. */
  error?: string;
  /** The try's number (the round, for auth requests); 1 for the first. */
  attempt: number;
  ms: number;
  /** After a busy answer or a network error: the wait before the next try and why, or why the client gave up. */
  next?: RetryDecision;
}

/** An answer. */
export interface SwiftResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Set when this is a retried answer (503, 500, 429) the client stopped retrying: why it gave up. */
  gaveUp?: string;
}

/** A request body: made afresh for each try, so a retry re-sends the whole thing. */
export type BodySource = () => Readable | Buffer;

/** Options of a {@link SwiftClient}. */
export interface SwiftClientOptions {
  connection: ConnectionFile;
  retry?: Partial<RetryPolicy>;
  /** Waits between retries; tests pass one that does not sleep (and moves their clock). */
  sleep?: (ms: number) => Promise<void>;
  /** 0..1 for the jitter; tests pass a seeded one. */
  random?: () => number;
  /** Measures the retry budget, `Retry-After` dates and each exchange's `ms` (default: the wall clock). */
  clock?: Clock;
  /** Per-request timeout in ms without any progress (default 60 000). */
  timeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
}

/** Why the client gave up (code `UPLOAD_FAILED`); `exchange` is the last request, if one was answered or tried. */
export class SwiftClientError extends EmulatorError {
  constructor(
    message: string,
    readonly exchange: Exchange | undefined,
  ) {
    super('UPLOAD_FAILED', message);
    this.name = 'SwiftClientError';
  }
}

/** A logged-in Swift client. */
export class SwiftClient {
  private token: string | undefined;
  private storage: URL | undefined;
  private readonly retry: RetryPolicy;
  private readonly ca: string[] | undefined;
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent: HttpsAgent;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly clock: Clock;

  /** Throws `BAD_OPTION` for a retry policy value out of range. */
  constructor(private readonly options: SwiftClientOptions) {
    this.retry = retryPolicy(options.retry);
    const trusted = trustedCertificates(options.connection);
    this.ca = trusted.length ? [...rootCertificates, ...trusted] : undefined;
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64, ...(this.ca ? { ca: this.ca } : {}) });
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? systemClock;
  }

  /** `X-Storage-Url` as the destination gave it (after {@link authenticate}). */
  get storageUrl(): string | undefined {
    return this.storage?.href.replace(/\/$/, '');
  }

  /**
   * Authenticates at the first `AuthenticationTokenURI` that answers; a refusal (401)
   * is final; a network error or a busy answer moves on to the next URI at once. Only
   * a round in which none answered waits (as the retry policy says) before the next
   * round. Returns the auth answer.
   */
  async authenticate(): Promise<SwiftResponse> {
    const { connection } = this.options;
    const headers = {
      'X-Auth-User': connection.BlobAPIUserName,
      'Auth-Key': connection.BlobAPIKey,
      'X-Auth-Key': connection.BlobAPIKey,
    };
    const started = this.clock.now();
    const uris = connection.AuthenticationTokenURI;
    for (let round = 1; ; round++) {
      const failures: string[] = [];
      const retryAfters: number[] = [];
      for (const [index, uri] of uris.entries()) {
        const tried = await this.tryOnce('GET', new URL(uri), headers, undefined, round);
        const { answer, exchange } = tried;
        if (answer && !RETRIED_STATUSES.includes(answer.status)) {
          this.report(exchange);
          return this.takeToken(uri, answer);
        }
        failures.push(`${uri}: ${answer ? `${answer.status} busy` : exchange.error}`);
        const retryAfter = answer && parseRetryAfter(header(answer.headers, 'retry-after'), this.clock.now());
        if (retryAfter !== undefined) retryAfters.push(retryAfter);
        if (index < uris.length - 1) {
          this.report(exchange);
          continue;
        }
        const failure = `no AuthenticationTokenURI answered in round ${round}`;
        // The soonest any URI said it would be back.
        const retryAfterMs = retryAfters.length ? Math.min(...retryAfters) : undefined;
        const elapsedMs = this.clock.now() - started;
        exchange.next = decideRetry(this.retry, { attempt: round, elapsedMs, failure, retryAfterMs }, this.random);
        this.report(exchange);
        if (exchange.next.action === 'give up')
          throw new SwiftClientError(
            `no AuthenticationTokenURI answered (${round} round${round === 1 ? '' : 's'} in ${(elapsedMs / 1000).toFixed(1)} s): ${failures.join('; ')}`,
            undefined,
          );
        await this.sleep(exchange.next.waitMs);
      }
    }
  }

  /** Keeps the token and storage URL of a 2xx auth answer; anything else is final. */
  private takeToken(uri: string, answer: SwiftResponse): SwiftResponse {
    if (answer.status < 200 || answer.status > 299)
      throw new SwiftClientError(
        `authentication at ${uri} answered ${answer.status}: ${answer.body.toString('utf8').trim().slice(0, 200)}`,
        undefined,
      );
    const token = header(answer.headers, 'x-auth-token') ?? header(answer.headers, 'x-storage-token');
    const storage = header(answer.headers, 'x-storage-url');
    if (!token)
      throw new SwiftClientError(`authentication at ${uri} answered ${answer.status} without X-Auth-Token`, undefined);
    if (!storage || !URL.canParse(storage))
      throw new SwiftClientError(
        `authentication at ${uri} answered ${answer.status} without a usable X-Storage-Url`,
        undefined,
      );
    this.token = token;
    this.storage = new URL(storage.replace(/\/?$/, '/'));
    return answer;
  }

  /**
   * Sends `method` to `{storage}{path}` (path already encoded, starting with `/`), with
   * the token. A 401 authenticates again once and repeats; 503 and network errors
   * are retried per the policy. Any other answer is returned as it is.
   */
  async request(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: BodySource,
  ): Promise<SwiftResponse> {
    if (!this.storage) await this.authenticate();
    let answer = await this.withRetries(
      method,
      this.urlFor(path),
      { ...headers, 'X-Auth-Token': this.token as string },
      body,
    );
    if (answer.status === 401) {
      await this.authenticate();
      answer = await this.withRetries(
        method,
        this.urlFor(path),
        { ...headers, 'X-Auth-Token': this.token as string },
        body,
      );
    }
    return answer;
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private urlFor(path: string): URL {
    const base = this.storage as URL;
    return new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base);
  }

  /**
   * Tries until an answer that is not busy, or until the policy gives up: then a busy
   * answer is returned (with `gaveUp`), and a network error is thrown.
   */
  private async withRetries(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: BodySource | undefined,
  ): Promise<SwiftResponse> {
    const started = this.clock.now();
    for (let attempt = 1; ; attempt++) {
      const { answer, exchange } = await this.tryOnce(method, url, headers, body, attempt);
      if (answer && !RETRIED_STATUSES.includes(answer.status)) {
        this.report(exchange);
        return answer;
      }
      const now = this.clock.now();
      const next = decideRetry(
        this.retry,
        {
          attempt,
          elapsedMs: now - started,
          failure: answer ? `answered ${answer.status}` : (exchange.error ?? 'no answer'),
          retryAfterMs: answer && parseRetryAfter(header(answer.headers, 'retry-after'), now),
        },
        this.random,
      );
      exchange.next = next;
      this.report(exchange);
      if (next.action === 'give up') {
        if (answer) return { ...answer, gaveUp: next.reason };
        throw new SwiftClientError(`${method} ${url.href}: ${next.reason}`, exchange);
      }
      await this.sleep(next.waitMs);
    }
  }

  /** One try: the answer, or none (the exchange then holds the network error); the exchange is not reported yet. */
  private async tryOnce(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: BodySource | undefined,
    attempt: number,
  ): Promise<{ answer?: SwiftResponse; exchange: Exchange }> {
    const exchange: Exchange = {
      method,
      url: url.href,
      path: this.relative(url),
      requestHeaders: redact(headers),
      attempt,
      ms: 0,
    };
    const started = this.clock.now();
    try {
      const answer = await this.send(method, url, headers, body);
      exchange.status = answer.status;
      exchange.responseHeaders = answer.headers;
      return { answer, exchange };
    } catch (err) {
      exchange.error = (err as Error).message;
      return { exchange };
    } finally {
      exchange.ms = this.clock.now() - started;
    }
  }

  private report(exchange: Exchange): void {
    this.options.onExchange?.(exchange);
  }

  private relative(url: URL): string {
    const base = this.storage?.pathname.replace(/\/$/, '');
    return base && url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
  }

  private send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: BodySource | undefined,
  ): Promise<SwiftResponse> {
    return new Promise((resolve, reject) => {
      const source = body?.();
      const outgoing: Record<string, string> = { ...headers };
      if (Buffer.isBuffer(source)) outgoing['Content-Length'] = String(source.length);
      else if (source === undefined && (method === 'PUT' || method === 'POST')) outgoing['Content-Length'] = '0';
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method,
        headers: outgoing,
        agent: secure ? this.httpsAgent : this.httpAgent,
        timeout: this.options.timeoutMs ?? 60_000,
      });
      request.on('timeout', () => request.destroy(new Error('no progress within the timeout')));
      request.on('error', (err) => {
        if (source && !Buffer.isBuffer(source)) source.destroy();
        reject(err);
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          // An early answer (a refusal before the body was sent) ends the upload.
          if (source && !Buffer.isBuffer(source)) source.destroy();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
        });
      });
      if (source === undefined) request.end();
      else if (Buffer.isBuffer(source)) request.end(source);
      else {
        source.on('error', (err) => request.destroy(err));
        source.pipe(request);
      }
    });
  }
}

/** A response header as one string. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = /^(x-auth-token|x-auth-key|auth-key)$/i.test(name) ? '[redacted]' : value;
  return out;
}
