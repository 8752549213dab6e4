/**
 * wssession.cgi's usual request (GET or POST of the exact path) is served without Express
 * (serveSessionToken); every other one goes through the app. Both must answer, log and
 * journal alike (they share the answer itself): the answers are compared header by header, in order.
 */
import { get, type IncomingMessage } from 'node:http';
import { systemClock } from '../../src/base/clock';
import { type AuthRefusedEntry, type HttpEntry, Journal } from '../../src/base/journal';
import { digestAuthorization } from '../../src';
import { LogTap } from '../helpers/event-stream-log';
import { type DeviceHandle, startDevice } from '../../src';

const PATH = '/svc-cgi/wssession.cgi';
/** A target the fast path leaves to Express (a query), answered by the same route. */
const VIA_EXPRESS = `${PATH}?via=express`;

interface Raw {
  status: number;
  /** Header names in the order sent, lower case. */
  names: string[];
  headers: IncomingMessage['headers'];
  body: string;
}

function rawGet(device: DeviceHandle, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: device.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    }).on('error', reject);
  });
}

/** A digest request for `path`: the 401 and the answer to the credentials. */
async function digestGet(device: DeviceHandle, path: string): Promise<{ challenge: Raw; answer: Raw }> {
  const challenge = await rawGet(device, path);
  const authorization = digestAuthorization(challenge.headers['www-authenticate'] ?? '', 'root', 'pass', 'GET', path);
  return { challenge, answer: await rawGet(device, path, { Authorization: authorization }) };
}

let device: DeviceHandle;
afterEach(async () => {
  await device.close();
});

describe('wssession.cgi without Express', () => {
  it('answers the 401 and the token with the headers Express sends, in the same order', async () => {
    device = await startDevice({ port: 0 });
    const fast = await digestGet(device, PATH);
    const slow = await digestGet(device, VIA_EXPRESS);
    expect(fast.challenge.status).toBe(401);
    expect(fast.challenge.names).toEqual(slow.challenge.names);
    expect(fast.answer.status).toBe(200);
    expect(fast.answer.names).toEqual(slow.answer.names);
    for (const name of ['content-type', 'cache-control', 'content-length', 'connection'])
      expect(fast.answer.headers[name]).toBe(slow.answer.headers[name]);
    // A token is new on every request: nothing to validate it against.
    expect(slow.answer.headers.etag).toBeUndefined();
    expect(fast.answer.headers.etag).toBeUndefined();
    expect(fast.answer.body).toMatch(/^\d{19}$/);
    expect(device.consumeToken(fast.answer.body).ok).toBe(true);
  });

  it('answers 429 as Express does once the account holds its share', async () => {
    device = await startDevice({ port: 0, limits: { tokensPerAccount: 1 } });
    expect((await digestGet(device, PATH)).answer.status).toBe(200);
    const fast = (await digestGet(device, PATH)).answer;
    const slow = (await digestGet(device, VIA_EXPRESS)).answer;
    expect(fast.status).toBe(429);
    expect(fast.names).toEqual(slow.names);
    expect(fast.body).toBe(slow.body);
    expect(fast.headers['retry-after']).toBe(slow.headers['retry-after']);
  });

  it('logs and journals the request and the refused first leg as the app does', async () => {
    const log = new LogTap();
    const journal = new Journal(systemClock);
    device = await startDevice({ port: 0, logger: log.logger, journal });
    await digestGet(device, PATH);
    await digestGet(device, VIA_EXPRESS);
    const requests = log.withMessage('request').map(({ method, url, status, user }) => ({ method, url, status, user }));
    expect(requests).toEqual([
      { method: 'GET', url: PATH, status: 401, user: undefined },
      { method: 'GET', url: PATH, status: 200, user: 'root' },
      { method: 'GET', url: VIA_EXPRESS, status: 401, user: undefined },
      { method: 'GET', url: VIA_EXPRESS, status: 200, user: 'root' },
    ]);
    expect(log.withMessage('session token issued')).toHaveLength(2);
    const http = journal.entries({ kind: 'http' }).filter((e): e is HttpEntry => e.kind === 'http');
    // Everything but the time, the duration, the sequence number, the token's number, and the query that chose the path.
    const pick = ({ time: _t, ms: _m, seq: _s, token: _n, ...rest }: (typeof http)[number]): unknown => ({
      ...rest,
      path: rest.path.replace('?via=express', ''),
    });
    expect(http.slice(0, 2).map(pick)).toEqual(http.slice(2).map(pick));
    expect(http[1]).toMatchObject({ method: 'GET', path: PATH, status: 200, auth: 'digest', user: 'root', token: 1 });
    expect(http[3]).toMatchObject({ token: 2 });
    const refused = journal
      .entries({ kind: 'auth-refused' })
      .filter((e): e is AuthRefusedEntry => e.kind === 'auth-refused');
    expect(refused.map((e) => ({ path: e.path, code: e.code }))).toEqual([
      { path: PATH, code: 'NO_CREDENTIALS' },
      { path: VIA_EXPRESS, code: 'NO_CREDENTIALS' },
    ]);
  });

  it('gives a conditional request a new token on both ways, never a 304 without one', async () => {
    device = await startDevice({ port: 0 });
    for (const path of [PATH, VIA_EXPRESS]) {
      const challenge = await rawGet(device, path);
      const authorization = digestAuthorization(
        challenge.headers['www-authenticate'] ?? '',
        'root',
        'pass',
        'GET',
        path,
      );
      const answer = await rawGet(device, path, { Authorization: authorization, 'If-None-Match': '*' });
      expect(answer.status).toBe(200);
      expect(device.consumeToken(answer.body).ok).toBe(true);
    }
  });

  it('leaves the cgi fault switch to the app: 503', async () => {
    device = await startDevice({ port: 0 });
    await device.fault('cgi', { status: 503 });
    expect((await rawGet(device, PATH)).status).toBe(503);
  });
});
