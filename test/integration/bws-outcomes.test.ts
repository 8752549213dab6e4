/**
 * What becomes of recordings when the content destination misbehaves or differs,
 * over real sockets: 503 retried with capped full-jitter back-off, 503 forever, 507,
 * 402 licences, 401 re-authentication, a connection dropped mid-clip (through a TCP
 * proxy), auth URI failover, 400 with and without StoreRejectedContent, each
 * capability, corrupt/missing/malformed capabilities (through an HTTP proxy), HTTPS
 * with and without the certificate, and mp4 clips. The body worn system gets a
 * `sleep` that records the wait and returns at once, and a seeded `random`.
 */
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { type AddressInfo, createConnection, createServer as createTcpServer, type Socket } from 'node:net';
import {
  type ConnectionFile,
  type DestinationHandle,
  type Exchange,
  type FailedRequest,
  parseConnectionFile,
  type Plan,
  type PlanInput,
  PlanSchema,
  type Progress,
  recordingContainerName,
  type RetryPolicy,
  runBodyWornSystem,
  SwiftClientError,
  type UploadReport,
} from '../../src';
import { seededRandom } from '../../src/base/random';
import { clipMd5 } from '../../src/bws/media';
import { selfSignedCertificate } from '../../src/base/tls';
import { type ByteAnswer as Answer, destinationStarter, fetchBytes, login } from '../helpers/destinations';

const start = destinationStarter();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

// ---------------------------------------------------------------------------
// The body worn system's side: a plan with one known container, recorded waits,
// a seeded random, every exchange kept.

/** An hour ago, whole seconds: well inside the destination's time bounds. */
const TRIGGER_MS = Math.floor(Date.now() / 1000) * 1000 - 3600_000;
const TRIGGER = new Date(TRIGGER_MS).toISOString().replace('.000Z', 'Z');
const CONTAINER = recordingContainerName('u1', 'CAM1', TRIGGER_MS);
const ACCOUNT_PATH = '/v1/AUTH_bws';

/** One user, one camera, one recording of `clips` clips into {@link CONTAINER}. */
function onePlan(
  recording: Partial<NonNullable<PlanInput['recordings']>[number]> = {},
  extra: Partial<PlanInput> = {},
): Plan {
  return PlanSchema.parse({
    system: { id: 'sys-1', name: 'Body Worn System Ö' },
    users: [{ id: 'u1', name: 'User One' }],
    devices: [{ serial: 'CAM1', name: 'Camera 1' }],
    recordings: [
      {
        user: 'u1',
        device: 'CAM1',
        'trigger-on': TRIGGER,
        clips: 1,
        'clip-duration': '10s',
        'clip-size': '16KB',
        ...recording,
      },
    ],
    ...extra,
  });
}

interface Run {
  report: UploadReport;
  sleeps: number[];
  exchanges: Exchange[];
}

interface RunOptions {
  connection: ConnectionFile;
  plan?: Plan;
  retry?: Partial<RetryPolicy>;
  seed?: number;
  onExchange?: (exchange: Exchange) => void;
}

/** Sleeps recorded, never waited. */
function recorder(seed: number) {
  const sleeps: number[] = [];
  const exchanges: Exchange[] = [];
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  return { sleeps, exchanges, sleep, random: seededRandom(seed) };
}

async function run(options: RunOptions): Promise<Run> {
  const { sleeps, exchanges, sleep, random } = recorder(options.seed ?? 7);
  const report = await runBodyWornSystem({
    connection: options.connection,
    plan: options.plan ?? onePlan(),
    concurrency: 1,
    retry: options.retry ?? { attempts: 5, baseMs: 100, maxMs: 1000 },
    sleep,
    random,
    onExchange: (exchange) => {
      exchanges.push(exchange);
      options.onExchange?.(exchange);
    },
  });
  return { report, sleeps, exchanges };
}

/** The waits full jitter gives for retries 1..n with this seed: round(random * min(maxMs, baseMs * 2^(n-1))). */
function expectedSleeps(seed: number, retry: RetryPolicy, retries: number): { caps: number[]; waits: number[] } {
  const random = seededRandom(seed);
  const caps = Array.from({ length: retries }, (_, i) => Math.min(retry.maxMs, retry.baseMs * 2 ** i));
  return { caps, waits: caps.map((cap) => Math.round(random() * cap)) };
}

// ---------------------------------------------------------------------------
// The destination's side: listings and objects read back directly.

interface ListedObject {
  name: string;
  bytes: number;
  hash: string;
  content_type: string;
}

async function listObjects(destination: DestinationHandle, container: string): Promise<ListedObject[]> {
  const session = await login(destination);
  const answer = await fetchBytes(destination, session, 'GET', `/${encodeURIComponent(container)}?format=json`);
  if (answer.status === 204) return [];
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body.toString('utf8')) as ListedObject[];
}

async function listContainers(destination: DestinationHandle): Promise<string[]> {
  const session = await login(destination);
  const answer = await fetchBytes(destination, session, 'GET', '?format=json');
  if (answer.status === 204) return [];
  return (JSON.parse(answer.body.toString('utf8')) as { name: string }[]).map((c) => c.name);
}

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

/** The single recording's report, checked to exist. */
function only(report: UploadReport) {
  expect(report.recordings).toHaveLength(1);
  return report.recordings[0];
}

// ---------------------------------------------------------------------------
// Proxies.

/** A port nothing listens on (listened on, then closed). */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

interface DroppingProxy {
  authUrl: string;
  /** Connections dropped so far. */
  drops: number;
}

/**
 * A TCP proxy that passes bytes both ways, except that a connection carrying
 * `marker` (e.g. `PUT /v1/.../clip.mkv`) is destroyed once `afterBytes` bytes of
 * that request have gone through, up to `times` times. Host is passed on as sent,
 * so X-Storage-Url points back at the proxy.
 */
async function startDroppingProxy(
  destination: DestinationHandle,
  marker: string,
  afterBytes: number,
  times: number,
): Promise<DroppingProxy> {
  const target = new URL(destination.url);
  const sockets = new Set<Socket>();
  const state: DroppingProxy = { authUrl: '', drops: 0 };
  const server = createTcpServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    let tail = '';
    let counted = -1; // bytes of the marked request passed on, once it is seen
    client.on('data', (chunk: Buffer) => {
      if (counted < 0 && state.drops < times) {
        const text = tail + chunk.toString('latin1');
        const at = text.indexOf(marker);
        if (at >= 0) counted = text.length - at - chunk.length;
        tail = text.slice(-marker.length);
      }
      if (counted >= 0) {
        counted += chunk.length;
        if (counted >= afterBytes) {
          state.drops += 1;
          client.destroy();
          upstream.destroy();
          return;
        }
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  state.authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/v1.0`;
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((done) => server.close(() => done()));
  });
  return state;
}

/** How an HTTP proxy may change an answer. */
type Rewrite = (method: string, path: string, answer: Answer) => Answer;

/** An HTTP proxy (bodies buffered: test sizes) that lets `rewrite` change answers; returns its auth URL. */
async function startRewritingProxy(destination: DestinationHandle, rewrite: Rewrite): Promise<string> {
  const target = new URL(destination.url);
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: false,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const changed = rewrite(req.method ?? 'GET', (req.url ?? '/').split('?')[0], {
              status: answer.statusCode ?? 0,
              headers: { ...answer.headers },
              body: Buffer.concat(body),
            });
            const headers = { ...changed.headers };
            delete headers['transfer-encoding'];
            delete headers.connection;
            headers['content-length'] = String(
              req.method === 'HEAD' ? (changed.headers['content-length'] ?? 0) : changed.body.length,
            );
            res.writeHead(changed.status, headers as Record<string, string>);
            res.end(req.method === 'HEAD' ? undefined : changed.body);
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/v1.0`;
}

const CAPABILITIES_PATH = `${ACCOUNT_PATH}/System/Capabilities.json`;
const NONE = {
  ReadCategories: false,
  StoreReadSystemID: false,
  StoreUserIDKey: false,
  StoreBookmarks: false,
  StoreSignedVideo: false,
  StoreGNSSTrackRecording: false,
  StoreRejectedContent: false,
};
const ALL = Object.fromEntries(Object.keys(NONE).map((name) => [name, true]));

// ---------------------------------------------------------------------------

/** The destination's connection file through a proxy that drops `Retry-After`, so the waits are the back-off alone. */
async function withoutRetryAfter(destination: DestinationHandle): Promise<ConnectionFile> {
  const authUrl = await startRewritingProxy(destination, (_method, _path, answer) => {
    const headers = { ...answer.headers };
    delete headers['retry-after'];
    return { ...answer, headers };
  });
  return { ...destination.connectionFile(), AuthenticationTokenURI: [authUrl] };
}

describe('503: busy, retried with back-off and full jitter', () => {
  it('two 503s on the container, then success: transferred, two retries, waits within the caps', async () => {
    const destination = await start();
    destination.faults.add({ status: 503, times: 2, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}` });
    const retry = { budgetMs: 60_000, attempts: 5, baseMs: 100, maxMs: 1000 };
    const connection = await withoutRetryAfter(destination);
    const { report, sleeps, exchanges } = await run({ connection, retry, seed: 11 });
    expect(only(report)).toMatchObject({ container: CONTAINER, status: 'transferred', clips: 1 });
    expect(report.retries).toBeGreaterThanOrEqual(2);
    const containerPuts = exchanges.filter((e) => e.method === 'PUT' && e.path === `/${CONTAINER}`);
    expect(containerPuts.map((e) => [e.attempt, e.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 201],
    ]);
    expect(sleeps).toHaveLength(2);
    const { caps, waits } = expectedSleeps(11, retry, 2);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(caps[i]); // base * 2^(n-1)
      expect(ms).toBeLessThanOrEqual(retry.maxMs);
    });
    expect(sleeps).toEqual(waits);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: CONTAINER, status: 'complete', clips: 1 }),
    ]);
  });

  it('many 503s: the cap doubles from baseMs and stops at maxMs; the jitter follows the seeded random', async () => {
    const destination = await start();
    destination.faults.add({ status: 503, times: 6, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}` });
    const retry = { budgetMs: 60_000, attempts: 8, baseMs: 100, maxMs: 250 };
    const { report, sleeps } = await run({ connection: await withoutRetryAfter(destination), retry, seed: 3 });
    expect(only(report).status).toBe('transferred');
    expect(report.retries).toBe(6);
    const { caps, waits } = expectedSleeps(3, retry, 6);
    expect(caps).toEqual([100, 200, 250, 250, 250, 250]);
    expect(sleeps).toEqual(waits);
    sleeps.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(caps[i]));
    // Another seed, other waits: the jitter is the random's.
    const again = await start();
    again.faults.add({ status: 503, times: 6, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}` });
    const other = await run({ connection: await withoutRetryAfter(again), retry, seed: 4 });
    expect(other.sleeps).toEqual(expectedSleeps(4, retry, 6).waits);
    expect(other.sleeps).not.toEqual(sleeps);
  });

  it("the destination's Retry-After (1 s) is a floor under the back-off, and the exchanges say so", async () => {
    const destination = await start();
    destination.faults.add({ status: 503, times: 2, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}` });
    const { report, sleeps, exchanges } = await run({
      connection: destination.connectionFile(),
      retry: { baseMs: 100, maxMs: 1000 },
    });
    expect(only(report).status).toBe('transferred');
    expect(sleeps).toEqual([1000, 1000]);
    expect(report.retryWaitMs).toBe(2000);
    expect(exchanges.filter((e) => e.next).map((e) => e.next)).toEqual([
      { action: 'retry', waitMs: 1000, reason: 'answered 503; Retry-After 1.0 s' },
      { action: 'retry', waitMs: 1000, reason: 'answered 503; Retry-After 1.0 s' },
    ]);
  });

  it('503 forever: failed after `attempts` tries, the request in the report, nothing after', async () => {
    const destination = await start();
    destination.faults.add({ status: 503, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}` });
    const { report, sleeps, exchanges } = await run({
      connection: destination.connectionFile(),
      retry: { attempts: 3, baseMs: 100, maxMs: 1000 },
    });
    const recording = only(report);
    expect(recording).toMatchObject({
      status: 'failed',
      clips: 0,
      bytes: 0,
      request: { method: 'PUT', path: `/${CONTAINER}`, status: 503 },
    });
    expect(recording.request?.message).toMatch(
      /^Service Unavailable.* \(gave up: answered 503; 3 tries in \d+\.\d s, the most allowed \(3\)\)$/,
    );
    expect(report.totals).toMatchObject({ recordings: 1, failed: 1, transferred: 0 });
    const containerRequests = exchanges.filter((e) => e.path.startsWith(`/${CONTAINER}`));
    expect(containerRequests.map((e) => [e.method, e.attempt, e.status])).toEqual([
      ['PUT', 1, 503],
      ['PUT', 2, 503],
      ['PUT', 3, 503],
    ]);
    expect(sleeps).toHaveLength(2); // no wait after the last try
    expect(report.retries).toBe(2);
  });

  it('503 on registration is retried too', async () => {
    const destination = await start();
    destination.faults.add({ status: 503, times: 1, pathPrefix: `${ACCOUNT_PATH}/Users/u1` });
    const { report, exchanges } = await run({ connection: destination.connectionFile() });
    expect(report.registrationFailures).toEqual([]);
    expect(exchanges.filter((e) => e.path === '/Users/u1').map((e) => e.status)).toEqual([503, 201]);
    expect(only(report).status).toBe('transferred');
  });
});

describe('500: a server error, retried within the budget as stock Swift clients do', () => {
  it('one 500 on a registration (PUT Users/u1), then 201: the user is registered and the recording transferred', async () => {
    const destination = await start();
    destination.faults.add({ status: 500, times: 1, pathPrefix: `${ACCOUNT_PATH}/Users/u1` });
    const { report, exchanges } = await run({ connection: destination.connectionFile() });
    expect(report.registrationFailures).toEqual([]);
    expect(exchanges.filter((e) => e.path === '/Users/u1').map((e) => e.status)).toEqual([500, 201]);
    expect(report.registrationRetries).toBe(1);
    expect(only(report).status).toBe('transferred');
    expect(only(report).retries).toBeUndefined();
  });

  it('one 500 on a camera registration (PUT Devices/CAM1) too', async () => {
    const destination = await start();
    destination.faults.add({ status: 500, times: 1, pathPrefix: `${ACCOUNT_PATH}/Devices/CAM1` });
    const { report } = await run({ connection: destination.connectionFile() });
    expect(report.registrationFailures).toEqual([]);
    expect(only(report).status).toBe('transferred');
  });

  it('500 once on a clip PUT, then 201: transferred, and the recording says it was retried', async () => {
    const destination = await start();
    destination.faults.add({ status: 500, times: 1, methods: ['PUT'], pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}/` });
    const { report, exchanges } = await run({ connection: destination.connectionFile() });
    const clipPuts = exchanges.filter((e) => e.method === 'PUT' && e.path.startsWith(`/${CONTAINER}/`));
    expect(clipPuts.map((e) => [e.attempt, e.status])).toEqual([
      [1, 500],
      [2, 201],
    ]);
    expect(only(report)).toMatchObject({ status: 'transferred', retries: 1 });
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: CONTAINER, status: 'complete', clips: 1 }),
    ]);
  });

  it('500 forever: the registration fails after the tries allowed, with the reason', async () => {
    const destination = await start();
    destination.faults.add({ status: 500, pathPrefix: `${ACCOUNT_PATH}/Users/u1` });
    const { report } = await run({ connection: destination.connectionFile(), retry: { attempts: 3, baseMs: 1 } });
    expect(report.registrationFailures).toMatchObject([{ kind: 'user', id: 'u1', request: { status: 500 } }]);
    expect(report.registrationRetries).toBe(2);
  });
});

describe('progress', () => {
  const plan = () => onePlan({ clips: 2, 'clip-size': '300KB' });

  it('ends at the total when nothing is retried', async () => {
    const destination = await start();
    const seen: Progress[] = [];
    const { sleep, random } = recorder(1);
    await runBodyWornSystem({
      connection: destination.connectionFile(),
      plan: plan(),
      sleep,
      random,
      onProgress: (p) => seen.push(p),
    });
    expect(seen[0]).toEqual({ recordingsDone: 0, recordingsTotal: 1, bytesSent: 0, bytesTotal: 600_000 });
    expect(seen[seen.length - 1]).toEqual({
      recordingsDone: 1,
      recordingsTotal: 1,
      bytesSent: 600_000,
      bytesTotal: 600_000,
    });
    for (let i = 1; i < seen.length; i++) expect(seen[i].bytesSent).toBeGreaterThanOrEqual(seen[i - 1].bytesSent);
  });

  it('does not count a retried clip twice', async () => {
    const destination = await start();
    destination.faults.add({ status: 503, times: 1, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}/`, methods: ['PUT'] });
    const seen: Progress[] = [];
    const { sleep, random } = recorder(1);
    const report = await runBodyWornSystem({
      connection: destination.connectionFile(),
      plan: plan(),
      sleep,
      random,
      onProgress: (p) => seen.push(p),
    });
    expect(report.retries).toBe(1);
    expect(Math.max(...seen.map((p) => p.bytesSent))).toBeLessThanOrEqual(600_000);
    expect(seen[seen.length - 1].bytesSent).toBe(600_000);
  });
});

describe('507 and 402', () => {
  it('507 on the clip PUT: failed with {PUT, 507}, not retried, the recording never completed', async () => {
    const destination = await start();
    destination.faults.add({ status: 507, pathPrefix: `${ACCOUNT_PATH}/${CONTAINER}/`, methods: ['PUT'] });
    const { report, exchanges, sleeps } = await run({
      connection: destination.connectionFile(),
      plan: onePlan({ clips: 2 }),
    });
    const recording = only(report);
    expect(recording).toMatchObject({ status: 'failed', clips: 0, request: { method: 'PUT', status: 507 } });
    expect(recording.request?.path).toMatch(new RegExp(`^/${CONTAINER}/\\d+_[^/]+\\.mkv$`));
    expect(recording.request?.message).toMatch(/Insufficient Storage/);
    expect(exchanges.filter((e) => e.path === recording.request?.path)).toHaveLength(1);
    expect(sleeps).toEqual([]);
    // Neither the second clip nor Status: Complete was sent.
    expect(exchanges.filter((e) => e.path.startsWith(`/${CONTAINER}`)).map((e) => e.method)).toEqual(['PUT', 'PUT']);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: CONTAINER, status: 'transferring', clips: 0 }),
    ]);
  });

  it('507 from a real quota: the first clip is stored, the second refused', async () => {
    const destination = await start({ quotaBytes: 100_000 });
    const { report } = await run({
      connection: destination.connectionFile(),
      plan: onePlan({ clips: 2, 'clip-size': '64KiB' }),
    });
    const recording = only(report);
    expect(recording).toMatchObject({
      status: 'failed',
      clips: 1,
      bytes: 64 * 1024,
      request: { method: 'PUT', status: 507 },
    });
    expect(recording.request?.message).toMatch(/quota/i);
    expect((await listObjects(destination, CONTAINER)).map((o) => o.bytes)).toEqual([64 * 1024]);
  });

  it("402 when the licences run out: a registration failure, and that user's recording is not transferred (400)", async () => {
    const destination = await start({ licences: { users: 1 }, capabilities: { StoreRejectedContent: false } });
    const container2 = recordingContainerName('u2', 'CAM1', TRIGGER_MS);
    const plan = PlanSchema.parse({
      users: [
        { id: 'u1', name: 'User One' },
        { id: 'u2', name: 'User Two' },
      ],
      devices: [{ serial: 'CAM1', name: 'Camera 1' }],
      recordings: [
        { user: 'u1', device: 'CAM1', 'trigger-on': TRIGGER, 'clip-size': '8KB' },
        { user: 'u2', device: 'CAM1', 'trigger-on': TRIGGER, 'clip-size': '8KB' },
      ],
    });
    const { report } = await run({ connection: destination.connectionFile(), plan });
    expect(report.registrationFailures).toEqual([
      {
        kind: 'user',
        id: 'u2',
        request: {
          method: 'PUT',
          path: '/Users/u2',
          status: 402,
          message: expect.stringMatching(/licence/i) as string,
        },
      },
    ]);
    expect(report.usersRegistered).toBe(1);
    expect(report.devicesRegistered).toBe(1);
    expect(report.recordings.map((r) => [r.container, r.status])).toEqual([
      [CONTAINER, 'transferred'],
      [container2, 'not transferred'],
    ]);
    expect(report.recordings[1].request).toMatchObject({
      method: 'PUT',
      path: `/${container2}`,
      status: 400,
      message: expect.stringMatching(/u2.*not registered/) as string,
    });
    expect(report.totals).toMatchObject({ transferred: 1, notTransferred: 1, failed: 0 });
    expect(destination.recordings().find((r) => r.container === container2)).toMatchObject({
      status: 'not transferred',
    });
  });

  it('402 for cameras too', async () => {
    const destination = await start({ licences: { devices: 0 } });
    const { report } = await run({ connection: destination.connectionFile() });
    expect(report.registrationFailures).toEqual([
      { kind: 'device', id: 'CAM1', request: expect.objectContaining({ status: 402 }) as FailedRequest },
    ]);
    expect(only(report)).toMatchObject({ status: 'not transferred', request: { status: 400 } });
  });
});

describe('401: authenticate again', () => {
  it('tokens revoked after registration: the next request gets 401, the system authenticates again and goes on', async () => {
    const destination = await start();
    let revoked = false;
    const { report, exchanges } = await run({
      connection: destination.connectionFile(),
      onExchange: (e) => {
        if (!revoked && e.method === 'PUT' && e.path === '/Devices/CAM1' && e.status === 201) {
          revoked = true;
          destination.revokeTokens();
        }
      },
    });
    expect(revoked).toBe(true);
    expect(only(report)).toMatchObject({ status: 'transferred', clips: 1 });
    const auths = exchanges.filter((e) => e.path === '/auth/v1.0');
    expect(auths.map((e) => e.status)).toEqual([200, 200]);
    const afterRevoke = exchanges.slice(exchanges.findIndex((e) => e.path === '/Devices/CAM1') + 1);
    expect(afterRevoke.slice(0, 3).map((e) => [e.method, e.path, e.status])).toEqual([
      ['PUT', `/${CONTAINER}`, 401],
      ['GET', '/auth/v1.0', 200],
      ['PUT', `/${CONTAINER}`, 201],
    ]);
    expect(destination.recordings()).toEqual([expect.objectContaining({ status: 'complete' })]);
  });

  it('authenticates again only once per request: a second 401 is the answer', async () => {
    const destination = await start();
    let hostile = false;
    const { report, exchanges } = await run({
      connection: destination.connectionFile(),
      onExchange: (e) => {
        if (e.method === 'PUT' && e.path === '/Devices/CAM1') hostile = true;
        if (hostile) destination.revokeTokens();
      },
    });
    expect(only(report)).toMatchObject({
      status: 'failed',
      request: { method: 'PUT', path: `/${CONTAINER}`, status: 401 },
    });
    expect(exchanges.filter((e) => e.path === '/auth/v1.0')).toHaveLength(2);
    expect(exchanges.filter((e) => e.path === `/${CONTAINER}`).map((e) => e.status)).toEqual([401, 401]);
  });

  it('a wrong key is final: rejected with the auth answer, the next URI not tried', async () => {
    const destination = await start();
    const { sleep, random, exchanges } = recorder(1);
    const connection = {
      ...destination.connectionFile(),
      BlobAPIKey: 'wrong',
      AuthenticationTokenURI: [destination.authUrl, destination.authUrl.replace('127.0.0.1', 'localhost')],
    };
    await expect(
      runBodyWornSystem({ connection, sleep, random, onExchange: (e) => exchanges.push(e) }),
    ).rejects.toThrow(/^authentication at http:\/\/127\.0\.0\.1:\d+\/auth\/v1\.0 answered 401: Unauthorized/);
    expect(exchanges).toHaveLength(1);
  });
});

describe('a connection dropped mid-clip', () => {
  const CLIP_BYTES = 512 * 1024;

  it('is retried from the start: transferred, and the destination holds exactly one whole clip with the right MD5', async () => {
    const destination = await start();
    const plan = onePlan({ 'clip-size': '512KiB' });
    const clipName = `${TRIGGER_MS / 1000}_${TRIGGER.replace(/[-:]/g, '')}_0001.mkv`;
    const proxy = await startDroppingProxy(destination, `PUT ${ACCOUNT_PATH}/${CONTAINER}/${clipName}`, 64 * 1024, 1);
    const { report, exchanges, sleeps } = await run({
      connection: { ...destination.connectionFile(), AuthenticationTokenURI: [proxy.authUrl] },
      plan,
    });
    expect(proxy.drops).toBe(1);
    expect(only(report)).toMatchObject({ status: 'transferred', clips: 1, bytes: CLIP_BYTES });
    expect(report.retries).toBeGreaterThanOrEqual(1);
    const clipPuts = exchanges.filter((e) => e.path === `/${CONTAINER}/${clipName}`);
    expect(clipPuts).toHaveLength(2);
    expect(clipPuts[0]).toMatchObject({ attempt: 1, error: expect.any(String) as string });
    expect(clipPuts[0].status).toBeUndefined();
    expect(clipPuts[1]).toMatchObject({ attempt: 2, status: 201 });
    expect(sleeps).toHaveLength(1);

    const expectedMd5 = await clipMd5({ type: 'mkv', bytes: CLIP_BYTES, durationSeconds: 10, seed: `${CONTAINER}/0` });
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: CONTAINER, status: 'complete', clips: 1, bytes: CLIP_BYTES }),
    ]);
    const objects = await listObjects(destination, CONTAINER);
    expect(objects.map((o) => [o.name, o.bytes, o.hash])).toEqual([[clipName, CLIP_BYTES, expectedMd5]]);
    const session = await login(destination);
    const clip = await fetchBytes(destination, session, 'GET', `/${CONTAINER}/${clipName}`);
    expect(clip.status).toBe(200);
    expect(clip.body.length).toBe(CLIP_BYTES);
    expect(md5(clip.body)).toBe(expectedMd5);
    expect(clip.headers.etag).toBe(expectedMd5);
  });

  it('dropped every time: failed after `attempts` tries with the network error, and no partial clip stored', async () => {
    const destination = await start();
    const clipName = `${TRIGGER_MS / 1000}_${TRIGGER.replace(/[-:]/g, '')}_0001.mkv`;
    const proxy = await startDroppingProxy(
      destination,
      `PUT ${ACCOUNT_PATH}/${CONTAINER}/${clipName}`,
      64 * 1024,
      Infinity,
    );
    const { report, sleeps } = await run({
      connection: { ...destination.connectionFile(), AuthenticationTokenURI: [proxy.authUrl] },
      plan: onePlan({ 'clip-size': '512KiB' }),
      retry: { attempts: 3, baseMs: 50, maxMs: 500 },
    });
    expect(proxy.drops).toBe(3);
    const recording = only(report);
    expect(recording).toMatchObject({
      status: 'failed',
      clips: 0,
      request: { method: 'PUT', path: `/${CONTAINER}/${clipName}` },
    });
    expect(recording.request?.status).toBeUndefined();
    expect(recording.request?.message).toMatch(/; 3 tries in \d+\.\d s, the most allowed \(3\)$/);
    expect(sleeps).toHaveLength(2);
    expect(await listObjects(destination, CONTAINER)).toEqual([]);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: CONTAINER, status: 'transferring', clips: 0, bytes: 0 }),
    ]);
  });
});

describe('AuthenticationTokenURI failover', () => {
  it('the first URI unreachable: the second is used at once, without waiting', async () => {
    const destination = await start();
    const closed = await closedPort();
    const first = `http://127.0.0.1:${closed}/auth/v1.0`;
    const { report, exchanges, sleeps } = await run({
      connection: { ...destination.connectionFile(), AuthenticationTokenURI: [first, destination.authUrl] },
      retry: { attempts: 2, baseMs: 100, maxMs: 1000 },
    });
    expect(only(report).status).toBe('transferred');
    expect(report.storageUrl).toBe(destination.storageUrl());
    const auths = exchanges.filter((e) => e.path === '/auth/v1.0');
    expect(auths.map((e) => [e.url, e.status ?? e.error])).toEqual([
      [first, expect.stringMatching(/ECONNREFUSED/)],
      [destination.authUrl, 200],
    ]);
    expect(sleeps).toHaveLength(0);
  });

  it('every URI unreachable: rounds over them with back-off between rounds, then rejects naming each failure', async () => {
    const uris = [
      `http://127.0.0.1:${await closedPort()}/auth/v1.0`,
      `http://127.0.0.1:${await closedPort()}/auth/v1.0`,
    ];
    const destination = await start();
    const { sleep, random, exchanges, sleeps } = recorder(1);
    const running = runBodyWornSystem({
      connection: { ...destination.connectionFile(), AuthenticationTokenURI: uris },
      retry: { attempts: 2 },
      sleep,
      random,
      onExchange: (e) => exchanges.push(e),
    });
    await expect(running).rejects.toThrow(SwiftClientError);
    const escaped = uris.map((u) => u.replace(/[.]/g, '\\.'));
    await expect(running).rejects.toThrow(
      new RegExp(
        `^no AuthenticationTokenURI answered \\(2 rounds in \\d+\\.\\d s\\): ${escaped[0]}: connect ECONNREFUSED [^;]*; ${escaped[1]}: connect ECONNREFUSED`,
      ),
    );
    expect(exchanges.map((e) => e.url)).toEqual([uris[0], uris[1], uris[0], uris[1]]);
    expect(sleeps).toHaveLength(1);
    expect(destination.recordings()).toEqual([]);
  });
});

describe('400: not transferred', () => {
  /** A recording of a user the plan never registers (PlanSchema.parse does not check references). */
  const ghostPlan = () =>
    PlanSchema.parse({
      users: [{ id: 'u1', name: 'U' }],
      devices: [{ serial: 'CAM1', name: 'C' }],
      recordings: [{ user: 'ghost', device: 'CAM1', 'trigger-on': TRIGGER, 'clip-size': '8KB' }],
    });
  const ghostContainer = recordingContainerName('ghost', 'CAM1', TRIGGER_MS);

  it('without StoreRejectedContent: not transferred, nothing re-uploaded', async () => {
    const destination = await start({ capabilities: { StoreRejectedContent: false } });
    const { report, exchanges } = await run({ connection: destination.connectionFile(), plan: ghostPlan() });
    const recording = only(report);
    expect(recording).toMatchObject({
      status: 'not transferred',
      request: {
        method: 'PUT',
        path: `/${ghostContainer}`,
        status: 400,
        message: expect.stringMatching(/ghost.*not registered/) as string,
      },
    });
    expect(recording.rejectedContent).toBeUndefined();
    expect(report.totals).toMatchObject({ notTransferred: 1, transferred: 0, failed: 0 });
    expect(exchanges.some((e) => e.path.startsWith('/RejectedContent_'))).toBe(false);
    expect((await listContainers(destination)).filter((c) => c.startsWith('RejectedContent_'))).toEqual([]);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: ghostContainer, status: 'not transferred' }),
    ]);
  });

  it('with StoreRejectedContent: re-uploaded whole as RejectedContent_{time}_{UUID}', async () => {
    const destination = await start();
    const { report } = await run({ connection: destination.connectionFile(), plan: ghostPlan() });
    const recording = only(report);
    expect(recording.status).toBe('not transferred');
    expect(recording.request).toMatchObject({ status: 400 });
    expect(recording.rejectedContent).toMatch(
      new RegExp(
        `^RejectedContent_${TRIGGER.replace(/[-:]/g, '')}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
      ),
    );
    expect(recording.warnings).toEqual([]);
    const rejected = recording.rejectedContent as string;
    expect(await listContainers(destination)).toContain(rejected);
    const objects = await listObjects(destination, rejected);
    expect(objects.map((o) => [o.bytes, o.hash])).toEqual([
      [8000, await clipMd5({ type: 'mkv', bytes: 8000, durationSeconds: 30, seed: `${ghostContainer}/0` })],
    ]);
    const session = await login(destination);
    const head = await fetchBytes(destination, session, 'HEAD', `/${rejected}`);
    expect(head.headers['x-container-meta-containername']).toBe(rejected);
    expect(head.headers['x-container-meta-status']).toBe('Complete');
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ container: ghostContainer, status: 'not transferred' }),
    ]);
  });
});

describe('capabilities', () => {
  const richPlan = () =>
    onePlan({
      clips: 2,
      bookmarks: [{ at: '2s', category: '2', tags: { plate: 'ABC123', colour: 'red' } }],
      gps: true,
    });
  const names = async (destination: DestinationHandle) =>
    (await listObjects(destination, CONTAINER)).map((o) => o.name);

  it('all offered (the reference default): clips, bookmarks, GNSS trail, system identity, user id key', async () => {
    const destination = await start();
    const { report } = await run({ connection: destination.connectionFile(), plan: richPlan() });
    expect(report.capabilitiesSource).toBe('file');
    expect(report.capabilities).toEqual(ALL);
    expect(report.categories.length).toBeGreaterThan(0);
    const listed = await names(destination);
    expect(listed.filter((n) => n.endsWith('.mkv'))).toHaveLength(2);
    expect(listed.filter((n) => n.startsWith('bookmark_'))).toHaveLength(1);
    expect(listed.filter((n) => n.endsWith('_gpstrail.json'))).toHaveLength(1);
    const session = await login(destination);
    const bookmark = await fetchBytes(
      destination,
      session,
      'HEAD',
      `/${CONTAINER}/${listed.find((n) => n.startsWith('bookmark_'))}`,
    );
    expect(decodeURIComponent(String(bookmark.headers['x-object-meta-tags']))).toBe('plate:ABC123;colour:red');
    expect(bookmark.headers['x-object-meta-categoryid']).toBe('2');
    const user = await fetchBytes(destination, session, 'HEAD', '/Users/u1');
    expect(user.headers['x-object-meta-userid']).toBe('u1');
  });

  it('bookmarks carry the CategoryName of their CategoryID from Categories.json', async () => {
    const destination = await start({
      categories: [
        { Name: 'Traffic stop', Id: '1' },
        { Name: 'Arrest', Id: '2' },
      ],
    });
    const { report } = await run({ connection: destination.connectionFile(), plan: richPlan() });
    expect(report.categories).toEqual([
      { Name: 'Traffic stop', Id: '1' },
      { Name: 'Arrest', Id: '2' },
    ]);
    const bookmark = (await names(destination)).find((n) => n.startsWith('bookmark_'));
    const session = await login(destination);
    const head = await fetchBytes(destination, session, 'HEAD', `/${CONTAINER}/${bookmark}`);
    expect(head.headers['x-object-meta-categoryid']).toBe('2');
    expect(head.headers['x-object-meta-categoryname']).toBe('Arrest');
  });

  it('StoreBookmarks false: no bookmark_ objects (the GNSS trail still goes)', async () => {
    const destination = await start({ capabilities: { StoreBookmarks: false } });
    const { report } = await run({ connection: destination.connectionFile(), plan: richPlan() });
    expect(only(report).status).toBe('transferred');
    const listed = await names(destination);
    expect(listed.some((n) => n.startsWith('bookmark_'))).toBe(false);
    expect(listed.filter((n) => n.endsWith('_gpstrail.json'))).toHaveLength(1);
  });

  it('StoreGNSSTrackRecording true: {start}_{id}_gpstrail.json stored with the track; false: none', async () => {
    const on = await start({ capabilities: { StoreGNSSTrackRecording: true, StoreBookmarks: false } });
    await run({ connection: on.connectionFile(), plan: richPlan() });
    const trail = (await names(on)).filter((n) => n.endsWith('_gpstrail.json'));
    expect(trail).toEqual([`${TRIGGER_MS / 1000}_${TRIGGER.replace(/[-:]/g, '')}_0001_gpstrail.json`]);
    const session = await login(on);
    const body = await fetchBytes(on, session, 'GET', `/${CONTAINER}/${trail[0]}`);
    const track = JSON.parse(body.body.toString('utf8')) as { Points: unknown[] };
    expect(track.Points.length).toBeGreaterThan(1);
    expect(body.headers['content-type']).toMatch(/^application\/json/);

    const off = await start({ capabilities: { StoreGNSSTrackRecording: false } });
    await run({ connection: off.connectionFile(), plan: richPlan() });
    expect((await names(off)).some((n) => n.endsWith('_gpstrail.json'))).toBe(false);
  });

  it('FullStoreAndReadSupport in the connection file: everything used although the file says nothing is', async () => {
    const destination = await start({ capabilities: NONE });
    const { report, exchanges } = await run({
      connection: { ...destination.connectionFile(), FullStoreAndReadSupport: true },
      plan: richPlan(),
    });
    expect(report.capabilitiesSource).toBe('FullStoreAndReadSupport');
    expect(report.capabilities).toEqual(ALL);
    expect(exchanges.some((e) => e.path === '/System/Capabilities.json')).toBe(false);
    const listed = await names(destination);
    expect(listed.some((n) => n.startsWith('bookmark_'))).toBe(true);
    expect(listed.some((n) => n.endsWith('_gpstrail.json'))).toBe(true);
    const session = await login(destination);
    expect((await fetchBytes(destination, session, 'HEAD', '/System/sys-1')).status).toBe(200);
  });

  it('the file says nothing is supported: only clips', async () => {
    const destination = await start({ capabilities: NONE });
    const { report } = await run({ connection: destination.connectionFile(), plan: richPlan() });
    expect(report).toMatchObject({ capabilitiesSource: 'file', capabilities: NONE, categories: [] });
    expect((await names(destination)).every((n) => n.endsWith('.mkv'))).toBe(true);
    const session = await login(destination);
    expect((await fetchBytes(destination, session, 'HEAD', '/System/sys-1')).status).toBe(404);
    expect(
      (await fetchBytes(destination, session, 'HEAD', '/Users/u1')).headers['x-object-meta-userid'],
    ).toBeUndefined();
  });

  it('corrupt Capabilities.json (its ETag is not the MD5 of the body): source corrupt, nothing supported', async () => {
    const destination = await start();
    const proxy = await startRewritingProxy(destination, (method, path, answer) =>
      method === 'GET' && path === CAPABILITIES_PATH
        ? { ...answer, headers: { ...answer.headers, etag: '0123456789abcdef0123456789abcdef' } }
        : answer,
    );
    const { report, exchanges } = await run({
      connection: { ...destination.connectionFile(), AuthenticationTokenURI: [proxy] },
      plan: richPlan(),
    });
    expect(report.capabilitiesSource).toBe('corrupt');
    expect(report.capabilities).toEqual(NONE);
    expect(report.categories).toEqual([]);
    expect(exchanges.some((e) => e.path === '/System/Categories.json')).toBe(false);
    expect(only(report).status).toBe('transferred');
    expect((await names(destination)).every((n) => n.endsWith('.mkv'))).toBe(true);
    const session = await login(destination);
    expect((await fetchBytes(destination, session, 'HEAD', '/System/sys-1')).status).toBe(404);
  });

  it('missing (404) and malformed (not JSON, ETag right) Capabilities.json: nothing supported', async () => {
    const destination = await start();
    const missing = await startRewritingProxy(destination, (method, path, answer) =>
      method === 'GET' && path === CAPABILITIES_PATH
        ? { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Not Found\n') }
        : answer,
    );
    const a = await run({ connection: { ...destination.connectionFile(), AuthenticationTokenURI: [missing] } });
    expect(a.report).toMatchObject({ capabilitiesSource: 'missing', capabilities: NONE });

    const other = await start();
    const body = Buffer.from('{ "Store": { "StoreBookmarks": tru');
    const malformed = await startRewritingProxy(other, (method, path, answer) =>
      method === 'GET' && path === CAPABILITIES_PATH
        ? { ...answer, headers: { ...answer.headers, etag: md5(body) }, body }
        : answer,
    );
    const b = await run({ connection: { ...other.connectionFile(), AuthenticationTokenURI: [malformed] } });
    expect(b.report).toMatchObject({ capabilitiesSource: 'malformed', capabilities: NONE });
    expect(only(b.report).status).toBe('transferred');
  });

  it('StoreReadSystemID: System/{SystemID} with ConnectionId and SystemName (URL-encoded UTF-8)', async () => {
    const destination = await start({ capabilities: { StoreReadSystemID: true } });
    const { report } = await run({ connection: destination.connectionFile() });
    expect(report.registrationFailures).toEqual([]);
    const session = await login(destination);
    const system = await fetchBytes(destination, session, 'HEAD', '/System/sys-1');
    expect(system.status).toBe(200);
    expect(system.headers['x-object-meta-connectionid']).toBe('bws');
    expect(system.headers['x-object-meta-systemname']).toBe(encodeURIComponent('Body Worn System Ö'));
    expect(decodeURIComponent(String(system.headers['x-object-meta-systemname']))).toBe('Body Worn System Ö');

    const without = await start({ capabilities: { StoreReadSystemID: false } });
    await run({ connection: without.connectionFile() });
    const other = await login(without);
    expect((await fetchBytes(without, other, 'HEAD', '/System/sys-1')).status).toBe(404);
  });
});

describe('HTTPS', () => {
  it("with the connection file's HTTPSCertificate: transferred", async () => {
    const destination = await start({ tls: true });
    const file = destination.connectionFile();
    expect(file.AuthenticationTokenURI[0]).toMatch(/^https:/);
    expect(file.HTTPSCertificate).toHaveLength(1);
    const parsed = parseConnectionFile(JSON.stringify(file));
    if (!parsed.ok) throw new Error(parsed.error.errors.join('\n'));
    const { report } = await run({ connection: parsed.value });
    expect(report.storageUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1\/AUTH_bws$/);
    expect(only(report)).toMatchObject({ status: 'transferred', clips: 1 });
    expect(destination.recordings()).toEqual([expect.objectContaining({ status: 'complete' })]);
  });

  it('without the certificate: rejects with a TLS error', async () => {
    const destination = await start({ tls: true });
    const file: ConnectionFile = { ...destination.connectionFile() };
    delete file.HTTPSCertificate;
    const { sleep, random } = recorder(1);
    await expect(runBodyWornSystem({ connection: file, retry: { attempts: 2 }, sleep, random })).rejects.toThrow(
      /self[- ]signed certificate|unable to verify|certificate/i,
    );
    expect(destination.recordings()).toEqual([]);
  });

  it("with another certificate than the server's: rejects with a TLS error", async () => {
    const destination = await start({ tls: true });
    const stranger = await selfSignedCertificate('someone-else', '127.0.0.1');
    const file: ConnectionFile = {
      ...destination.connectionFile(),
      HTTPSCertificate: [Buffer.from(stranger.cert).toString('base64')],
    };
    const { sleep, random } = recorder(1);
    await expect(runBodyWornSystem({ connection: file, retry: { attempts: 1 }, sleep, random })).rejects.toThrow(
      /certificate/i,
    );
  });
});

describe('ContainerType mp4', () => {
  it('clip names end .mp4 and bodies start with an ftyp box, then mdat to the end', async () => {
    const destination = await start();
    const { report } = await run({
      connection: { ...destination.connectionFile(), ContainerType: 'mp4' },
      plan: onePlan({ clips: 2, 'clip-size': '20KB' }),
    });
    expect(only(report)).toMatchObject({ status: 'transferred', clips: 2, bytes: 40_000 });
    const objects = await listObjects(destination, CONTAINER);
    expect(objects).toHaveLength(2);
    const session = await login(destination);
    for (const object of objects) {
      expect(object.name).toMatch(/^\d+_\d{8}T\d{6}Z_0001\.mp4$/);
      expect(object.content_type).toBe('video/mp4');
      const clip = await fetchBytes(destination, session, 'GET', `/${CONTAINER}/${object.name}`);
      expect(clip.body.length).toBe(20_000);
      expect(clip.body.readUInt32BE(0)).toBe(24);
      expect(clip.body.toString('latin1', 4, 8)).toBe('ftyp');
      expect(clip.body.readUInt32BE(24)).toBe(20_000 - 24);
      expect(clip.body.toString('latin1', 28, 32)).toBe('mdat');
      expect(clip.headers['x-object-meta-containertype']).toBe('mp4');
      expect(md5(clip.body)).toBe(object.hash);
    }
  });
});
