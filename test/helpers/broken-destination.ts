/**
 * A deliberately broken Swift-ish content destination for the conformance tests: a
 * small node:http proxy in front of a reference destination that breaks the
 * interface in the ways it is told (answers without ETag, other status codes, no
 * X-Storage-Url, recordings accepted that must be refused...). Requests and answers
 * are buffered whole (test-sized bodies); the client's Host is passed on, so the
 * destination's X-Storage-Url points at the proxy.
 */
import { createHash } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectionFile, DestinationHandle } from '../../src';

/** How to break the interface; every flag is off by default. */
export interface Breakage {
  /** Auth answers without X-Storage-Url. */
  dropStorageUrl?: boolean;
  /** Auth answers without X-Storage-Token and X-Auth-Token-Expires (advisory headers). */
  dropAdvisoryAuthHeaders?: boolean;
  /** Object PUT answers without ETag. */
  noPutEtag?: boolean;
  /** GET/HEAD of System objects answered 404 (as a stock Swift without them does). */
  noSystemObjects?: boolean;
  /** GET/HEAD of System objects without ETag. */
  noSystemEtag?: boolean;
  /** Status instead of 201 for a stored object. */
  objectPutStatus?: number;
  /** Status instead of 201/202 for a container PUT. */
  containerPutStatus?: number;
  /** Status instead of 204 for a container POST. */
  containerPostStatus?: number;
  /** Status instead of 202 for an object POST. */
  objectPostStatus?: number;
  /** Object POSTs are answered 202 but not applied. */
  ignoreObjectPost?: boolean;
  /** HEAD/GET metadata values URL-decoded (the same values, in the other form). */
  decodeMetadata?: boolean;
  /** HEAD/GET metadata values URL-decoded and sent as raw UTF-8 bytes (as a Go server does). */
  rawUtf8Metadata?: boolean;
  /** HEAD/GET metadata values changed (`-changed` appended): not the values sent. */
  changeMetadata?: boolean;
  /** DELETE answered 403, or this status (the vendor example: 400), and nothing deleted. */
  refuseDelete?: boolean | number;
  /** Recordings of unknown users accepted (201/204, content discarded) instead of 400. */
  acceptUnknownUser?: boolean;
  /** Recordings of unknown cameras accepted instead of 400. */
  acceptUnknownDevice?: boolean;
  /** Clips without duration accepted instead of 400. */
  acceptNoDuration?: boolean;
  /** Requests without X-Auth-Token get the last token issued instead of a 401. */
  acceptMissingToken?: boolean;
}

/** A running broken destination. */
export interface BrokenDestination {
  readonly url: string;
  readonly authUrl: string;
  /** The backend's connection file, pointed at the proxy. */
  connectionFile(): ConnectionFile;
  /** Requests seen (method and path), in order. */
  readonly seen: { method: string; path: string }[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Starts a proxy with `breakage` in front of `backend` (plain HTTP only). */
export async function startBrokenDestination(
  backend: DestinationHandle,
  breakage: Breakage,
): Promise<BrokenDestination> {
  const target = new URL(backend.url);
  const faked = new Set<string>();
  const seen: { method: string; path: string }[] = [];
  let lastToken: string | undefined;

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0];
      seen.push({ method, path });
      const [, v1, , container, ...rest] = path.split('/');
      const kind =
        path === '/auth/v1.0'
          ? 'auth'
          : v1 !== 'v1' || !container
            ? 'other'
            : rest.length && rest.join('/') !== ''
              ? 'object'
              : 'container';
      const write = method === 'PUT' || method === 'POST';
      let answer: Answer;
      if (write && kind !== 'auth' && faked.has(container)) answer = fakeSuccess(method, kind, body);
      else if (breakage.refuseDelete && method === 'DELETE')
        answer = {
          status: breakage.refuseDelete === true ? 403 : breakage.refuseDelete,
          headers: { 'content-type': 'text/plain' },
          body: Buffer.from('Refused'),
        };
      else if (breakage.ignoreObjectPost && method === 'POST' && kind === 'object')
        answer = { status: 202, headers: {}, body: Buffer.alloc(0) };
      else {
        const headers: OutgoingHttpHeaders = { ...req.headers };
        if (breakage.acceptMissingToken && kind !== 'auth' && headers['x-auth-token'] === undefined && lastToken)
          headers['x-auth-token'] = lastToken;
        if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) {
          delete headers['transfer-encoding'];
          headers['content-length'] = String(body.length);
        }
        answer = await forward(target, method, req.url ?? '/', headers, body);
        if (answer.status === 400 && write && acceptable(breakage, answer.body.toString('utf8'))) {
          if (kind === 'container') faked.add(container);
          answer = fakeSuccess(method, kind, body);
        }
      }
      answer = breakAnswer(breakage, method, kind, container, answer);
      if (kind === 'auth') lastToken = single(answer.headers['x-auth-token']) ?? lastToken;
      const headers = { ...answer.headers };
      for (const hop of ['connection', 'keep-alive', 'transfer-encoding']) delete headers[hop];
      if (method !== 'HEAD') headers['content-length'] = String(answer.body.length);
      res.writeHead(answer.status, headers);
      res.end(method === 'HEAD' ? undefined : answer.body);
    })().catch((err: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy error: ${err.message}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    authUrl: `${url}/auth/v1.0`,
    connectionFile: () => ({ ...backend.connectionFile(), AuthenticationTokenURI: [`${url}/auth/v1.0`] }),
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether a 400 of the backend is one the breakage turns into a success. */
function acceptable(breakage: Breakage, message: string): boolean {
  return (
    (!!breakage.acceptUnknownUser && /\buser "[^"]*" is not registered/.test(message)) ||
    (!!breakage.acceptUnknownDevice && /\bcamera "[^"]*" is not registered/.test(message)) ||
    (!!breakage.acceptNoDuration && /has no duration/.test(message))
  );
}

/** What a server that stores anything would answer (the content is discarded). */
function fakeSuccess(method: string, kind: string, body: Buffer): Answer {
  if (method === 'POST') return { status: kind === 'object' ? 202 : 204, headers: {}, body: Buffer.alloc(0) };
  return {
    status: 201,
    headers: kind === 'object' ? { etag: createHash('md5').update(body).digest('hex') } : {},
    body: Buffer.alloc(0),
  };
}

/** Applies the answer-side breakages. */
function breakAnswer(
  breakage: Breakage,
  method: string,
  kind: string,
  container: string | undefined,
  answer: Answer,
): Answer {
  const headers = { ...answer.headers };
  let status = answer.status;
  if (kind === 'auth' && breakage.dropStorageUrl) delete headers['x-storage-url'];
  if (kind === 'auth' && breakage.dropAdvisoryAuthHeaders) {
    delete headers['x-storage-token'];
    delete headers['x-auth-token-expires'];
  }
  if (kind === 'object' && method === 'PUT' && breakage.noPutEtag) delete headers.etag;
  if (kind === 'object' && container === 'System' && (method === 'GET' || method === 'HEAD') && breakage.noSystemEtag)
    delete headers.etag;
  if (
    kind === 'object' &&
    container === 'System' &&
    (method === 'GET' || method === 'HEAD') &&
    status === 200 &&
    breakage.noSystemObjects
  )
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Not Found') };
  if (kind === 'object' && method === 'PUT' && status === 201 && breakage.objectPutStatus !== undefined)
    status = breakage.objectPutStatus;
  if (
    kind === 'container' &&
    method === 'PUT' &&
    (status === 201 || status === 202) &&
    breakage.containerPutStatus !== undefined
  )
    status = breakage.containerPutStatus;
  if (kind === 'container' && method === 'POST' && status === 204 && breakage.containerPostStatus !== undefined)
    status = breakage.containerPostStatus;
  if (kind === 'object' && method === 'POST' && status === 202 && breakage.objectPostStatus !== undefined)
    status = breakage.objectPostStatus;
  if (
    (breakage.decodeMetadata || breakage.changeMetadata || breakage.rawUtf8Metadata) &&
    (method === 'HEAD' || method === 'GET')
  ) {
    for (const [name, value] of Object.entries(headers)) {
      if (!/^x-(container|object)-meta-/.test(name) || typeof value !== 'string') continue;
      if (breakage.changeMetadata) headers[name] = `${value}-changed`;
      // node writes header strings as latin1: the UTF-8 bytes, one character each, go out as they are.
      else if (breakage.rawUtf8Metadata) headers[name] = Buffer.from(safeDecode(value), 'utf8').toString('latin1');
      else headers[name] = safeDecode(value);
    }
  }
  return { status, headers, body: answer.body };
}

function forward(
  target: URL,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers, agent: false },
      (res) => {
        readAll(res).then(
          (data) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: data }),
          reject,
        );
      },
    );
    req.on('error', reject);
    req.end(body.length ? body : undefined);
  });
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
