/**
 * Fault injection of the reference content destination over real sockets: rules
 * from the options (share, path prefix, methods, times, latency), the `/_emu/faults`
 * control endpoint and the handle's `faults` API, and a faulted upload whose body
 * is drained so the client reads its answer. Latency goes through an injected
 * sleep that records what it was asked for: no real waiting.
 */
import { Agent } from 'node:http';
import { destinationStarter, login } from '../helpers/destinations';
import { basicAuthorization, type HttpResult, sendRequest } from '../helpers/http';
import type { DestinationHandle, FaultRule } from '../../src';

// Basic asked for on plain HTTP: the control endpoint is called with it.
const start = destinationStarter({ basicOverHttp: true });

/** A sleep that records each wait and resolves at once. */
function recordingSleep(): { sleep: (ms: number) => Promise<void>; calls: number[] } {
  const calls: number[] = [];
  return { calls, sleep: (ms) => (calls.push(ms), Promise.resolve()) };
}

/** Sends to the control endpoint; parses the JSON answer when there is one. */
async function control(
  destination: DestinationHandle,
  method: string,
  body?: string,
  credentials: Record<string, string> = { Authorization: basicAuthorization('bws', 'secret') },
): Promise<HttpResult & { json: unknown }> {
  const answer = await sendRequest(destination.url, {
    method,
    path: '/_emu/faults',
    body,
    headers: { ...credentials, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
  });
  const isJson = /json/.test(String(answer.headers['content-type'] ?? ''));
  return { ...answer, json: answer.body && isJson ? (JSON.parse(answer.body) as unknown) : undefined };
}

/** Waits (without timers) until `done()` holds, turning the event loop meanwhile. */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('condition never held');
}

describe('fault rules from the options', () => {
  it('share 0.5 answers exactly every 2nd matching request with 503 and Retry-After', async () => {
    const destination = await start({ faults: [{ status: 503, share: 0.5 }] });
    // The login is the 1st matching request (/auth counts too): not faulted.
    const session = await login(destination);
    const answers: HttpResult[] = [];
    for (let i = 0; i < 10; i++) answers.push(await session.send('GET', '?format=json'));
    // /v1 requests are the 2nd..11th matching ones: the 1st, 3rd, 5th... of them are hit.
    expect(answers.map((a) => a.status)).toEqual([503, 200, 503, 200, 503, 200, 503, 200, 503, 200]);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.body).toMatch(/Service Unavailable.*injected fault/);
    }
    expect(destination.faults.list()).toEqual([{ status: 503, share: 0.5, hits: 5 }]);
  });

  it('share 0.5 on /v1 only: every 2nd /v1 request, the others pass', async () => {
    const destination = await start({ faults: [{ status: 503, share: 0.5, pathPrefix: '/v1' }] });
    const session = await login(destination);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await session.send('GET', '?format=json')).status);
    expect(statuses).toEqual([200, 503, 200, 503, 200, 503, 200, 503]);
  });

  it('share 0.25 hits every 4th request', async () => {
    const destination = await start({ faults: [{ status: 500, share: 0.25, pathPrefix: '/v1' }] });
    const session = await login(destination);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await session.send('HEAD', '')).status);
    expect(statuses).toEqual([204, 204, 204, 500, 204, 204, 204, 500]);
  });

  it('a path prefix limits a rule to that part of the account (507 for Users only)', async () => {
    const destination = await start({ faults: [{ status: 507, pathPrefix: '/v1/AUTH_bws/Users' }] });
    const session = await login(destination);
    const users = await session.send('PUT', '/Users');
    expect(users.status).toBe(507);
    expect(users.body).toMatch(/Insufficient Storage/);
    expect(users.headers['retry-after']).toBeUndefined();
    expect((await session.send('PUT', '/Users/u1', { body: '' })).status).toBe(507);
    expect((await session.send('PUT', '/Devices')).status).toBe(201);
    expect((await session.send('PUT', '/Devices/SN1', { body: '' })).status).toBe(201);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect(destination.faults.list()[0].hits).toBe(2);
  });

  it('a methods filter (any case) limits a rule to those methods', async () => {
    const destination = await start({ faults: [{ status: 500, methods: ['put', 'Delete'] }] });
    const session = await login(destination);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect((await session.send('GET', '/System')).status).toBe(200);
    const put = await session.send('PUT', '/Users');
    expect(put.status).toBe(500);
    expect(put.body).toMatch(/Internal Server Error/);
    expect((await session.send('DELETE', '/System')).status).toBe(500);
    expect((await session.send('POST', '/System', { headers: { 'X-Container-Meta-Note': 'x' } })).status).toBe(204);
    expect(destination.faults.list()).toEqual([{ status: 500, methods: ['PUT', 'DELETE'], hits: 2 }]);
  });

  it('times stops a rule after that many hits', async () => {
    const destination = await start({ faults: [{ status: 503, times: 2, pathPrefix: '/v1/' }] });
    const session = await login(destination);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await session.send('HEAD', '')).status);
    expect(statuses).toEqual([503, 503, 204, 204, 204]);
    expect(destination.faults.list()).toEqual([{ status: 503, times: 2, pathPrefix: '/v1/', hits: 2 }]);
  });

  it('the auth path can be faulted with pathPrefix /auth, leaving storage alone', async () => {
    const destination = await start({ faults: [{ status: 503, pathPrefix: '/auth', times: 1 }] });
    const refused = await sendRequest(destination.url, {
      path: '/auth/v1.0',
      headers: { 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-auth-token']).toBeUndefined();
    const session = await login(destination);
    expect((await session.send('HEAD', '')).status).toBe(204);

    destination.faults.replace([{ status: 500, pathPrefix: '/auth' }]);
    await expect(login(destination)).rejects.toThrow(/login as bws failed: 500/);
    expect((await session.send('HEAD', '')).status).toBe(204);
  });

  it('faults apply to /auth and /v1 only: the page and the control endpoint stay reachable', async () => {
    const destination = await start({ faults: [{ status: 503 }] });
    expect((await sendRequest(destination.url, { path: '/' })).status).toBe(401);
    expect((await control(destination, 'GET')).status).toBe(200);
    expect((await sendRequest(destination.url, { path: '/v1/AUTH_bws' })).status).toBe(503);
  });

  it('latencyMs waits through the injected sleep with that many ms, then serves the request', async () => {
    const { sleep, calls } = recordingSleep();
    const destination = await start({ sleep, faults: [{ latencyMs: 250, pathPrefix: '/v1' }] });
    const session = await login(destination);
    expect(calls).toEqual([]);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    expect(calls).toEqual([250, 250]);
    expect(destination.faults.list()[0].hits).toBe(2);
  });

  it('latency and a status together: the wait first, then the fault answer; latencies of matching rules add up', async () => {
    const { sleep, calls } = recordingSleep();
    const destination = await start({
      sleep,
      faults: [
        { latencyMs: 100, pathPrefix: '/v1' },
        { status: 503, latencyMs: 200, methods: ['PUT'] },
      ],
    });
    const session = await login(destination);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect(calls).toEqual([100]);
    expect((await session.send('PUT', '/Users')).status).toBe(503);
    expect(calls).toEqual([100, 300]);
  });

  it('the answer is sent only when the injected sleep resolves', async () => {
    const calls: number[] = [];
    let release: () => void = () => undefined;
    const sleep = (ms: number) => {
      calls.push(ms);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const destination = await start({ sleep, faults: [{ latencyMs: 5000, pathPrefix: '/v1' }] });
    const session = await login(destination);
    let answered = false;
    const pending = session.send('HEAD', '').then((answer) => {
      answered = true;
      return answer;
    });
    await until(() => calls.length === 1);
    expect(calls).toEqual([5000]);
    // Turn the event loop a good while: nothing is answered until the sleep ends.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(204);
  });
});

describe('/_emu/faults control endpoint', () => {
  it('needs the credentials of a login that may write: none or a wrong key is 401, read-only is 403, nothing changes', async () => {
    const destination = await start({
      users: [
        { user: 'bws', key: 'secret' },
        { user: 'viewer', key: 'look', readOnly: true },
      ],
    });
    const rule = JSON.stringify({ status: 503 });
    const refused = await control(destination, 'POST', rule, {});
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBeDefined();
    expect(
      (await control(destination, 'POST', rule, { Authorization: basicAuthorization('bws', 'wrong') })).status,
    ).toBe(401);
    expect((await control(destination, 'PUT', '[]', { 'X-Auth-Token': 'AUTH_tknotreal' })).status).toBe(401);
    const viewer = { Authorization: basicAuthorization('viewer', 'look') };
    expect((await control(destination, 'POST', rule, viewer)).status).toBe(403);
    expect(destination.faults.list()).toEqual([]);

    // A token from /auth/v1.0 opens it as well as the key does.
    const session = await login(destination);
    const added = await control(destination, 'POST', rule, { 'X-Auth-Token': session.token });
    expect(added.status).toBe(201);
    expect(destination.faults.list()).toEqual([{ status: 503, hits: 0 }]);
  });

  it('GET lists the rules with their hits; PUT replaces, POST adds (201), DELETE clears (204)', async () => {
    const destination = await start({ faults: [{ status: 507, pathPrefix: '/v1/AUTH_bws/Users' }] });
    const listed = await control(destination, 'GET');
    expect(listed.status).toBe(200);
    expect(listed.headers['content-type']).toMatch(/application\/json/);
    expect(listed.json).toEqual([{ status: 507, pathPrefix: '/v1/AUTH_bws/Users', hits: 0 }]);

    const session = await login(destination);
    expect((await session.send('PUT', '/Users')).status).toBe(507);
    expect((await control(destination, 'GET')).json).toEqual([
      { status: 507, pathPrefix: '/v1/AUTH_bws/Users', hits: 1 },
    ]);

    const replaced = await control(
      destination,
      'PUT',
      JSON.stringify([
        { status: 503, methods: ['get'] },
        { latencyMs: 10, times: 3 },
      ]),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.json).toEqual([
      { status: 503, methods: ['GET'], hits: 0 },
      { latencyMs: 10, times: 3, hits: 0 },
    ]);
    expect((await session.send('PUT', '/Users')).status).toBe(201);

    const added = await control(
      destination,
      'POST',
      JSON.stringify({ status: 500, pathPrefix: '/v1/AUTH_bws/Devices', share: 1 }),
    );
    expect(added.status).toBe(201);
    expect(added.json).toEqual([
      { status: 503, methods: ['GET'], hits: 0 },
      { latencyMs: 10, times: 3, hits: 1 },
      { status: 500, pathPrefix: '/v1/AUTH_bws/Devices', share: 1, hits: 0 },
    ]);
    expect(destination.faults.list()).toEqual(added.json);
    expect((await session.send('PUT', '/Devices')).status).toBe(500);

    const cleared = await control(destination, 'DELETE');
    expect(cleared.status).toBe(204);
    expect(cleared.body).toBe('');
    expect((await control(destination, 'GET')).json).toEqual([]);
    expect(destination.faults.list()).toEqual([]);
    expect((await session.send('PUT', '/Devices')).status).toBe(201);
  });

  it.each([
    ['PUT', JSON.stringify([{ status: 404 }]), /fault status must be one of 500, 503, 507/],
    ['POST', JSON.stringify({ status: 404 }), /fault status must be one of 500, 503, 507/],
    ['POST', JSON.stringify({ status: 503, share: 2 }), /fault share must be a number from 0 to 1/],
    ['PUT', JSON.stringify([{ status: 503 }, { status: 503, colour: 'red' }]), /unknown fault rule field\(s\): colour/],
    ['POST', JSON.stringify({ status: 503, colour: 'red' }), /unknown fault rule field\(s\): colour/],
    ['POST', JSON.stringify({ share: 0.5 }), /needs a status, a latencyMs, or both/],
    ['POST', JSON.stringify({ latencyMs: -1 }), /latencyMs/],
    ['POST', JSON.stringify({ status: 503, times: 1.5 }), /times must be a whole number/],
    ['POST', JSON.stringify({ status: 503, methods: 'PUT' }), /methods must be a list of strings/],
    ['POST', JSON.stringify([{ status: 503 }]), /a fault rule is an object/],
    ['PUT', JSON.stringify({ status: 503 }), /PUT a JSON list of fault rules/],
    ['PUT', 'status=503', /the body is not JSON/],
    ['POST', '{"status": 503', /the body is not JSON/],
  ])('%s %s is 400 with a JSON error, and the rules stay as they were', async (method, body, message) => {
    const rules: FaultRule[] = [{ status: 503, pathPrefix: '/v1/AUTH_bws/Users', times: 1 }];
    const destination = await start({ faults: rules });
    const answer = await control(destination, method, body);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(answer.json).toEqual({ error: expect.stringMatching(message) as string });
    expect(destination.faults.list()).toEqual([{ ...rules[0], hits: 0 }]);
  });

  it('the handle API does the same: add, replace, clear, list, and refuses bad rules', async () => {
    const destination = await start();
    expect(destination.faults.list()).toEqual([]);
    destination.faults.add({ status: 507, pathPrefix: '/v1/AUTH_bws/Users' });
    destination.faults.add({ status: 503, methods: ['head'], times: 1 });
    expect((await control(destination, 'GET')).json).toEqual([
      { status: 507, pathPrefix: '/v1/AUTH_bws/Users', hits: 0 },
      { status: 503, methods: ['HEAD'], times: 1, hits: 0 },
    ]);
    const session = await login(destination);
    expect((await session.send('HEAD', '')).status).toBe(503);
    expect((await session.send('HEAD', '')).status).toBe(204);
    expect((await session.send('PUT', '/Users')).status).toBe(507);
    expect(destination.faults.list().map((r) => r.hits)).toEqual([1, 1]);

    expect(() => destination.faults.add({ status: 404 } as unknown as FaultRule)).toThrow(
      /fault status must be one of/,
    );
    expect(() => destination.faults.replace([{ status: 503 }, { share: 3, status: 503 }])).toThrow(/share/);
    expect(destination.faults.list()).toHaveLength(2);

    destination.faults.replace([{ status: 500, pathPrefix: '/v1/AUTH_bws/Devices' }]);
    expect((await control(destination, 'GET')).json).toEqual([
      { status: 500, pathPrefix: '/v1/AUTH_bws/Devices', hits: 0 },
    ]);
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    expect((await session.send('PUT', '/Devices')).status).toBe(500);

    destination.faults.clear();
    expect(destination.faults.list()).toEqual([]);
    expect((await control(destination, 'GET')).json).toEqual([]);
    expect((await session.send('PUT', '/Devices')).status).toBe(201);
  });

  it('rules added through the endpoint show up in the handle and the other way round', async () => {
    const destination = await start();
    expect((await control(destination, 'POST', JSON.stringify({ status: 503, pathPrefix: '/auth' }))).status).toBe(201);
    expect(destination.faults.list()).toEqual([{ status: 503, pathPrefix: '/auth', hits: 0 }]);
    await expect(login(destination)).rejects.toThrow(/503/);
    destination.faults.clear();
    expect((await control(destination, 'GET')).json).toEqual([]);
    await expect(login(destination)).resolves.toMatchObject({ storagePath: '/v1/AUTH_bws' });
  });
});

describe('a faulted upload', () => {
  let agent: Agent | undefined;
  afterEach(() => agent?.destroy());

  it('a faulted PUT with a 1 MiB body gets its 503 read by the client, and the connection stays usable', async () => {
    const destination = await start({ faults: [{ status: 503, methods: ['PUT'], pathPrefix: '/v1/AUTH_bws/Users/' }] });
    const session = await login(destination);
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.alloc(1024 * 1024, 0x61);
    const put = await session.send('PUT', '/Users/big', { body, agent });
    expect(put.status).toBe(503);
    expect(put.headers['retry-after']).toBe('1');
    expect(put.body).toMatch(/Service Unavailable/);
    expect(put.headers.connection).not.toBe('close');
    // The same connection carries the next request: the body was drained, not left in the way.
    const head = await session.send('HEAD', '/Users', { agent });
    expect(head.status).toBe(204);
    expect((await session.send('HEAD', '/Users/big')).status).toBe(404);
  });

  it('a faulted chunked PUT gets its 507 answer', async () => {
    const destination = await start({ faults: [{ status: 507, methods: ['PUT'], pathPrefix: '/v1/AUTH_bws/Users/' }] });
    const session = await login(destination);
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    const put = await session.send('PUT', '/Users/chunked', {
      body: Buffer.alloc(256 * 1024, 0x62),
      chunkSize: 16 * 1024,
    });
    expect(put.status).toBe(507);
    expect(put.body).toMatch(/Insufficient Storage/);
  });

  it('a PUT delayed by a latency fault and then faulted still gets its answer', async () => {
    const { sleep, calls } = recordingSleep();
    const destination = await start({
      sleep,
      faults: [{ status: 500, latencyMs: 1500, methods: ['PUT'], pathPrefix: '/v1/AUTH_bws/Users/' }],
    });
    const session = await login(destination);
    expect((await session.send('PUT', '/Users')).status).toBe(201);
    const put = await session.send('PUT', '/Users/slow', { body: Buffer.alloc(200 * 1024, 0x63) });
    expect(put.status).toBe(500);
    expect(calls).toEqual([1500]);
  });
});
