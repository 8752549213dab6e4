/**
 * The body worn system's Swift client: authenticates at the first
 * `AuthenticationTokenURI` that answers (sending `X-Auth-User`, `Auth-Key` and `X-Auth-Key`), uses
 * `X-Storage-Url` exactly as given, authenticates again once on a 401, and retries
 * 503s and network errors with exponential back-off and full jitter. Every exchange
 * is reported to `onExchange`, for the report and the conformance check.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Readable } from 'node:stream';
import { EmulatorError } from '../base/errors';
import { type ConnectionFile, trustedCertificates } from '../protocol/connection-file';

/** How failed requests are retried. */
export interface RetryPolicy {
  /** Tries in all, the first included (default 5). */
  attempts: number;
  /** Back-off before the first retry in ms (default 500), doubled each time. */
  baseMs: number;
  /** Longest back-off in ms (default 30 000). */
  maxMs: number;
}

/** The default retry policy. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 500, maxMs: 30_000 };

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
  attempt: number;
  ms: number;
}

/** An answer. */
export interface SwiftResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request body: made afresh for each try, so a retry re-sends the whole thing. */
export type BodySource = () => Readable | Buffer;

/** Options of a {@link SwiftClient}. */
export interface SwiftClientOptions {
  connection: ConnectionFile;
  retry?: Partial<RetryPolicy>;
  /** Waits between retries; tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** 0..1 for the jitter; tests pass a seeded one. */
  random?: () => number;
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

  constructor(private readonly options: SwiftClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const trusted = trustedCertificates(options.connection);
    this.ca = trusted.length ? [...rootCertificates, ...trusted] : undefined;
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64, ...(this.ca ? { ca: this.ca } : {}) });
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
    this.random = options.random ?? Math.random;
  }

  /** `X-Storage-Url` as the destination gave it (after {@link authenticate}). */
  get storageUrl(): string | undefined {
    return this.storage?.href.replace(/\/$/, '');
  }

  /**
   * Authenticates at the first `AuthenticationTokenURI` that answers; a refusal (401)
   * is final; a network error or a 503 moves on to the next URI at once. Returns the auth answer.
   */
  async authenticate(): Promise<SwiftResponse> {
    const { connection } = this.options;
    const headers = {
      'X-Auth-User': connection.BlobAPIUserName,
      'Auth-Key': connection.BlobAPIKey,
      'X-Auth-Key': connection.BlobAPIKey,
    };
    // Rounds over the URIs, one try each: an unreachable or busy one moves on to the
    // next at once; only a round where none answered waits (back-off) before the next.
    for (let round = 1; ; round++) {
      const failures: string[] = [];
      for (const uri of connection.AuthenticationTokenURI) {
        let answer: SwiftResponse;
        try {
          answer = await this.withRetries('GET', new URL(uri), headers, undefined, 1);
        } catch (err) {
          failures.push(`${uri}: ${(err as SwiftClientError).exchange?.error ?? (err as Error).message}`);
          continue;
        }
        if (answer.status === 503) {
          failures.push(`${uri}: 503 busy`);
          continue;
        }
        return this.takeToken(uri, answer);
      }
      if (round >= this.retry.attempts)
        throw new SwiftClientError(
          `no AuthenticationTokenURI answered (${round} round${round === 1 ? '' : 's'}): ${failures.join('; ')}`,
          undefined,
        );
      await this.sleep(this.backoff(round));
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

  private async withRetries(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: BodySource | undefined,
    attempts = this.retry.attempts,
  ): Promise<SwiftResponse> {
    for (let attempt = 1; ; attempt++) {
      const exchange: Exchange = {
        method,
        url: url.href,
        path: this.relative(url),
        requestHeaders: redact(headers),
        attempt,
        ms: 0,
      };
      const started = Date.now();
      try {
        const answer = await this.send(method, url, headers, body);
        exchange.status = answer.status;
        exchange.responseHeaders = answer.headers;
        exchange.ms = Date.now() - started;
        this.options.onExchange?.(exchange);
        if (answer.status !== 503 || attempt >= attempts) return answer;
      } catch (err) {
        exchange.error = (err as Error).message;
        exchange.ms = Date.now() - started;
        this.options.onExchange?.(exchange);
        if (attempt >= attempts)
          throw new SwiftClientError(`${method} ${url.href}: ${exchange.error} (after ${attempt} tries)`, exchange);
      }
      await this.sleep(this.backoff(attempt));
    }
  }

  /** The wait after the `attempt`-th try: full jitter, a random share of the exponential cap, which spreads clients apart. */
  private backoff(attempt: number): number {
    return Math.round(this.random() * Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempt - 1)));
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
