/**
 * A small HTTP(S) client on node:http for tests: sends exactly the headers it is
 * given (including invalid-looking ones) and keeps repeated response headers apart
 * (`headersDistinct`), which a 401 with several challenges needs.
 */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What to send. `path` is the request target as sent (path and query). */
export interface HttpRequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** PEM certificate(s) to trust for HTTPS. */
  ca?: string;
  /** HTTPS: the name the certificate is checked against (and sent as SNI); by default the `Host` header's. */
  servername?: string;
  /** Connection reuse; a fresh connection per request when absent. */
  agent?: Agent;
  /** Send the body with chunked transfer coding (no Content-Length), in chunks of this size. */
  chunkSize?: number;
  /** The client's own address (e.g. `127.0.0.2`: all of 127/8 is loopback on Linux), for tests of per-address rules. */
  localAddress?: string;
}

/** What came back. */
export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every header as a list of its values, in the order received. */
  headersDistinct: Record<string, string[]>;
  body: string;
}

/** Sends one request to `baseUrl` (e.g. `device.url`) and reads the whole answer. */
export function sendRequest(baseUrl: string, options: HttpRequestOptions): Promise<HttpResult> {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const body =
    options.body === undefined
      ? undefined
      : Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(options.body, 'utf8');
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  const chunked = options.chunkSize !== undefined;
  if (body !== undefined && !chunked && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
    headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers,
        agent: options.agent ?? false,
        localAddress: options.localAddress,
        ...(secure ? { ca: options.ca, servername: options.servername } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            headersDistinct: res.headersDistinct as Record<string, string[]>,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (chunked && body !== undefined) {
      for (let at = 0; at < body.length; at += options.chunkSize as number)
        req.write(body.subarray(at, at + (options.chunkSize as number)));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** The `WWW-Authenticate` values of an answer, one per challenge header. */
export function challengesOf(result: HttpResult): string[] {
  return result.headersDistinct['www-authenticate'] ?? [];
}

/** `Authorization: Basic ...` for a user and password. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}
