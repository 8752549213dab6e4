/**
 * Content destinations for a test file: each started on a free port with a fresh
 * data directory, closed (and the directory removed) after each test; plus a
 * logged-in Swift session that sends requests with its token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpRequestOptions, type HttpResult, sendRequest } from './http';
import { type DestinationHandle, type DestinationOptions, startDestination } from '../../src';

/** Registers an `afterEach` that closes what the returned `start()` started and removes its data. */
export function destinationStarter(
  defaults: DestinationOptions = {},
): (options?: DestinationOptions) => Promise<DestinationHandle> {
  const started: DestinationHandle[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((d) => d.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return async (options = {}) => {
    let dataDir = options.dataDir ?? defaults.dataDir;
    if (!dataDir) {
      dataDir = mkdtempSync(join(tmpdir(), 'bwc-dest-test-'));
      dirs.push(dataDir);
    }
    const destination = await startDestination({ port: 0, ...defaults, ...options, dataDir });
    started.push(destination);
    return destination;
  };
}

/** A logged-in client: `send()` prefixes the storage path and adds the token. */
export interface SwiftSession {
  token: string;
  /** `X-Storage-Url` as answered. */
  storageUrl: string;
  /** `/v1/{account}` of the storage URL. */
  storagePath: string;
  /** Sends to `{storagePath}{path}` (path starts with `/`, already encoded) with the token. */
  send(method: string, path: string, options?: Omit<HttpRequestOptions, 'path' | 'method'>): Promise<HttpResult>;
}

/** Authenticates at `/auth/v1.0` (X-Auth-User + X-Auth-Key) and returns the session. */
export async function login(destination: DestinationHandle, user = 'bws', key = 'secret'): Promise<SwiftSession> {
  const answer = await sendRequest(destination.url, {
    path: '/auth/v1.0',
    headers: { 'X-Auth-User': user, 'X-Auth-Key': key },
    ca: destination.certificate,
  });
  if (answer.status !== 200) throw new Error(`login as ${user} failed: ${answer.status} ${answer.body}`);
  const token = String(answer.headers['x-auth-token']);
  const storageUrl = String(answer.headers['x-storage-url']);
  const storagePath = new URL(storageUrl).pathname;
  return {
    token,
    storageUrl,
    storagePath,
    send: (method, path, options = {}) =>
      sendRequest(destination.url, {
        ...options,
        method,
        path: `${storagePath}${path}`,
        headers: { 'X-Auth-Token': token, ...(options.headers ?? {}) },
        ca: destination.certificate,
      }),
  };
}

/** An answer whose body is kept as bytes (`send()` decodes UTF-8). */
export interface ByteAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** GET or HEAD of `{storagePath}{path}` with the session's token, the body as bytes. */
export function fetchBytes(
  destination: DestinationHandle,
  session: SwiftSession,
  method: string,
  path: string,
): Promise<ByteAnswer> {
  const url = new URL(`${session.storagePath}${path}`, destination.url);
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method,
        headers: { 'X-Auth-Token': session.token },
        agent: false,
        ...(secure ? { ca: destination.certificate } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
