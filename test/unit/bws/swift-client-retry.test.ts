/**
 * The Swift client's retries over a real socket, with a manual clock that only the
 * injected sleep moves: a minute of 503s (a stock Swift after an object server
 * restart) passes with the default policy; Retry-After (seconds and date) is obeyed;
 * the budget is time, not tries; network errors and 429 retry within it; each
 * exchange says what came next.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../src/base/clock';
import { seededRandom } from '../../../src/base/random';
import { type Exchange, type RetryPolicy, SwiftClient, SwiftClientError } from '../../../src/bws/swift-client';
import { buildConnectionFile } from '../../../src/protocol/connection-file';

/** What the server answers a storage request at `ms` since the test's start. */
type Behaviour = (ms: number) => { status: number; headers?: Record<string, string> };

interface Harness {
  client: SwiftClient;
  clock: ManualClock;
  sleeps: number[];
  exchanges: Exchange[];
  /** ms of the manual clock since the start. */
  elapsed(): number;
}

const servers: Server[] = [];
const clients: SwiftClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    ),
  );
});

/** A server that logs in anyone and answers storage requests as `behaviour` says at the manual clock's time. */
async function harness(
  behaviour: Behaviour,
  retry?: Partial<RetryPolicy>,
  storageUrl?: (port: number) => string,
): Promise<Harness> {
  const clock = new ManualClock();
  const start = clock.now();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { port } = server.address() as AddressInfo;
      if (req.url === '/auth/v1.0') {
        res.writeHead(200, {
          'X-Auth-Token': 'tk',
          'X-Storage-Url': storageUrl?.(port) ?? `http://127.0.0.1:${port}/v1/AUTH_t`,
        });
        res.end();
        return;
      }
      const answer = behaviour(clock.now() - start);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.status >= 500 ? 'Service Unavailable' : '');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  const sleeps: number[] = [];
  const exchanges: Exchange[] = [];
  const client = new SwiftClient({
    connection: buildConnectionFile({ authUrl: `http://127.0.0.1:${port}/auth/v1.0`, user: 'u', key: 'k' }),
    retry,
    clock,
    random: seededRandom(5),
    sleep: (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
      return Promise.resolve();
    },
    onExchange: (e) => exchanges.push(e),
  });
  clients.push(client);
  return { client, clock, sleeps, exchanges, elapsed: () => clock.now() - start };
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

describe('a minute of 503s, then the destination is back', () => {
  const minuteOf503: Behaviour = (ms) => ({ status: ms < 60_000 ? 503 : 201 });

  it('passes with the default policy: retried until it answers, each wait and its reason on the exchange', async () => {
    const h = await harness(minuteOf503);
    const answer = await h.client.request('PUT', '/c/o', {}, () => Buffer.from('x'));
    expect(answer.status).toBe(201);
    expect(answer.gaveUp).toBeUndefined();
    const puts = h.exchanges.filter((e) => e.method === 'PUT');
    expect(puts.at(-1)).toMatchObject({ status: 201 });
    expect(puts.at(-1)?.next).toBeUndefined();
    for (const e of puts.slice(0, -1)) {
      expect(e.status).toBe(503);
      expect(e.next).toEqual({
        action: 'retry',
        waitMs: expect.any(Number) as number,
        reason: expect.stringMatching(/^answered 503; back-off \d+ ms of at most \d+ ms$/) as string,
      });
    }
    expect(puts.map((e) => e.attempt)).toEqual(puts.map((_, i) => i + 1));
    expect(sum(h.sleeps)).toBeGreaterThanOrEqual(60_000);
    expect(h.elapsed()).toBeLessThan(120_000);
    expect(Math.max(...h.sleeps)).toBeLessThanOrEqual(10_000);
  });

  it('the old default (5 tries, about 5 s) gave up: the reason why the budget is time', async () => {
    const h = await harness(minuteOf503, { attempts: 5, baseMs: 500, maxMs: 30_000 });
    const answer = await h.client.request('PUT', '/c/o', {}, () => Buffer.from('x'));
    expect(answer.status).toBe(503);
    expect(answer.gaveUp).toMatch(/^answered 503; 5 tries in \d+\.\d s, the most allowed \(5\)$/);
    expect(h.elapsed()).toBeLessThan(60_000);
  });
});

describe('Retry-After', () => {
  it('delay-seconds: every wait is at least that long', async () => {
    const h = await harness((ms) => (ms < 20_000 ? { status: 503, headers: { 'Retry-After': '7' } } : { status: 201 }));
    expect((await h.client.request('PUT', '/c/o')).status).toBe(201);
    expect(h.sleeps).toEqual([7000, 7000, 7000]);
    expect(h.exchanges.find((e) => e.next)?.next).toEqual({
      action: 'retry',
      waitMs: 7000,
      reason: 'answered 503; Retry-After 7.0 s',
    });
  });

  it('an HTTP date is read against the injected clock', async () => {
    const clockStart = new ManualClock().now();
    const h = await harness((ms) =>
      ms < 1000
        ? { status: 503, headers: { 'Retry-After': new Date(clockStart + 45_000).toUTCString() } }
        : { status: 201 },
    );
    expect((await h.client.request('GET', '/c/o')).status).toBe(201);
    expect(h.sleeps).toEqual([45_000]);
  });

  it('429 is retried the same way', async () => {
    const h = await harness((ms) => (ms < 1 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 }));
    expect((await h.client.request('GET', '/c')).status).toBe(200);
    expect(h.sleeps).toEqual([2000]);
  });

  it('a wait longer than the budget left is cut: the last try starts when the budget ends', async () => {
    const h = await harness(() => ({ status: 503, headers: { 'Retry-After': '600' } }), { budgetMs: 90_000 });
    const answer = await h.client.request('PUT', '/c/o');
    expect(answer.status).toBe(503);
    expect(h.sleeps).toEqual([90_000]);
    expect(answer.gaveUp).toBe('answered 503; 2 tries in 90.0 s: the retry budget of 90.0 s is spent');
    expect(h.exchanges.at(-1)?.next).toEqual({ action: 'give up', reason: answer.gaveUp });
  });
});

describe('the budget is a total time per request', () => {
  it('503 for ever: gives up exactly at the budget, whatever the number of tries', async () => {
    const h = await harness(() => ({ status: 503 }), { budgetMs: 30_000 });
    const answer = await h.client.request('POST', '/c');
    expect(answer.status).toBe(503);
    expect(h.elapsed()).toBe(30_000);
    expect(answer.gaveUp).toMatch(/^answered 503; \d+ tries in 30\.0 s: the retry budget of 30\.0 s is spent$/);
    // Another request starts a budget of its own.
    const second = await h.client.request('POST', '/c');
    expect(second.status).toBe(503);
    expect(h.elapsed()).toBe(60_000);
  });

  it('network errors are retried within it too, then thrown with the reason', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const h = await harness(
      () => ({ status: 201 }),
      { budgetMs: 20_000 },
      () => `http://127.0.0.1:${deadPort}/v1/a`,
    );
    const failure = await h.client.request('PUT', '/c/o').catch((err: Error) => err);
    expect(failure).toBeInstanceOf(SwiftClientError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^PUT http://127\\.0\\.0\\.1:${deadPort}/v1/a/c/o: connect ECONNREFUSED .*; \\d+ tries in 20\\.0 s: the retry budget of 20\\.0 s is spent$`,
      ),
    );
    expect(h.elapsed()).toBe(20_000);
    const puts = h.exchanges.filter((e) => e.method === 'PUT');
    expect(puts.length).toBeGreaterThan(3);
    expect(puts.every((e) => e.error !== undefined && e.next !== undefined)).toBe(true);
  });

  it('any other answer is final at once', async () => {
    const h = await harness(() => ({ status: 507 }));
    expect((await h.client.request('PUT', '/c/o')).status).toBe(507);
    expect(h.sleeps).toEqual([]);
  });
});
