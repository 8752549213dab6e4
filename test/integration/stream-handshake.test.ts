/**
 * The event stream handshake over real sockets: digest (MD5, SHA-256), session
 * tokens, the exact 401 answer, the guard clauses, and permessage-deflate.
 */
import {
  fetchToken,
  handshake,
  openStream,
  openWithDigest,
  openWithToken,
  refusedHandshake,
  type StreamClient,
  streamTarget,
  wsUrl,
} from '../helpers/event-stream-client';
import {
  acceptFor,
  handshakeText,
  newKey,
  RawConnection,
  RawWebSocket,
  rawExchange,
} from '../helpers/event-stream-raw';
import { type DeviceHandle, digestAuthorization, ManualClock, startDevice } from '../../src';

const PORT = 'tns1:Device/tnsvendor:IO/Port';

const open: StreamClient[] = [];
function track(client: StreamClient): StreamClient {
  open.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** A client is really connected when a configure round trip works and an event arrives. */
async function expectWorking(client: StreamClient, device: DeviceHandle): Promise<void> {
  expect(await client.configure([{ topicFilter: PORT }], 'probe')).toEqual({
    apiVersion: '1.0',
    context: 'probe',
    method: 'events:configure',
    data: {},
  });
  device.publish(PORT, { source: { port: '9' }, data: { state: '1' } });
  const note = await client.next();
  expect(note.method).toBe('events:notify');
  expect(note.params?.notification.message.source).toEqual({ port: '9' });
}

describe('digest on the handshake', () => {
  let device: DeviceHandle;
  let sha: DeviceHandle;
  beforeAll(async () => {
    [device, sha] = await Promise.all([
      startDevice({ port: 0, initialStates: [], clock: new ManualClock() }),
      startDevice({ port: 0, initialStates: [], clock: new ManualClock(), digestAlgorithms: ['SHA-256'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([device.close(), sha.close()]);
  });

  it('MD5: 401 with a challenge first, then 101 with Authorization for uri = path and query', async () => {
    const { client, challenge, authorization } = await openWithDigest(device);
    track(client);
    expect(challenge.status).toBe(401);
    const digest = (challenge.headersDistinct['www-authenticate'] ?? []).filter((c) => /^Digest /.test(c));
    expect(digest).toHaveLength(1);
    expect(digest[0]).toContain('algorithm=MD5');
    expect(digest[0]).toContain(`realm="${device.realm}"`);
    expect(authorization).toContain(`uri="${streamTarget(device)}"`);
    expect(authorization).toContain('algorithm=MD5');
    await expectWorking(client, device);
    expect(device.sessions().map((s) => s.user)).toEqual(['root']);
  });

  it('SHA-256 (digestAlgorithms: [SHA-256]): the challenge offers only SHA-256 and the answer works', async () => {
    const { client, challenge, authorization } = await openWithDigest(sha, { algorithm: 'SHA-256' });
    track(client);
    const digest = (challenge.headersDistinct['www-authenticate'] ?? []).filter((c) => /^Digest /.test(c));
    expect(digest).toHaveLength(1);
    expect(digest[0]).toContain('algorithm=SHA-256');
    expect(digest[0]).not.toContain('MD5');
    expect(authorization).toContain('algorithm=SHA-256');
    await expectWorking(client, sha);
  });

  it('an MD5 answer to a SHA-256-only device is refused', async () => {
    const target = streamTarget(sha);
    const first = await refusedHandshake(wsUrl(sha, target));
    const nonce = /nonce="([^"]+)"/.exec((first.headersDistinct['www-authenticate'] ?? [])[0])?.[1];
    const md5Challenge = `Digest realm="${sha.realm}", nonce="${nonce}", algorithm=MD5, qop="auth"`;
    const authorization = digestAuthorization(md5Challenge, 'root', 'pass', 'GET', target);
    expect((await refusedHandshake(wsUrl(sha, target), { headers: { Authorization: authorization } })).status).toBe(
      401,
    );
  });

  it('a query in another order or the path alone as uri is refused: uri must be the request target exactly', async () => {
    const target = streamTarget(device, '?sources=events');
    const first = await refusedHandshake(wsUrl(device, target));
    const challenges = first.headersDistinct['www-authenticate'] ?? [];
    for (const uri of [`${device.options.wsPrefix}/ws-data-stream`, `${target}&x=1`]) {
      const authorization = digestAuthorization(challenges, 'root', 'pass', 'GET', uri);
      expect(
        (await refusedHandshake(wsUrl(device, target), { headers: { Authorization: authorization } })).status,
      ).toBe(401);
    }
  });

  it('a wrong password is refused with a fresh challenge', async () => {
    const target = streamTarget(device);
    const first = await refusedHandshake(wsUrl(device, target));
    const authorization = digestAuthorization(
      first.headersDistinct['www-authenticate'] ?? [],
      'root',
      'wrong',
      'GET',
      target,
    );
    const second = await refusedHandshake(wsUrl(device, target), { headers: { Authorization: authorization } });
    expect(second.status).toBe(401);
    expect((second.headersDistinct['www-authenticate'] ?? []).some((c) => c.startsWith('Digest '))).toBe(true);
  });

  it('digest works with a longer query, answered for that exact target', async () => {
    const { client, authorization } = await openWithDigest(device, { query: '?sources=events,events' });
    track(client);
    expect(authorization).toContain('uri="/svc/ws-data-stream?sources=events,events"');
    await expectWorking(client, device);
  });
});

describe('session tokens', () => {
  const clock = new ManualClock();
  let device: DeviceHandle;
  beforeAll(async () => {
    device = await startDevice({ port: 0, initialStates: [], clock });
  });
  afterAll(async () => {
    await device.close();
  });

  it('a token from wssession.cgi (HTTP digest) opens the stream', async () => {
    const token = await fetchToken(device);
    expect(token).toMatch(/^\d{19}$/);
    const client = track(await openWithToken(device, token));
    await expectWorking(client, device);
  });

  it('a token from device.issueToken() opens the stream, as that user', async () => {
    const client = track(await openWithToken(device, device.issueToken('alice')));
    await expectWorking(client, device);
    expect(device.sessions().map((s) => s.user)).toEqual(['alice']);
  });

  it('wssession may come before sources in the query', async () => {
    const token = device.issueToken();
    const client = track(await openStream(wsUrl(device, streamTarget(device, `?wssession=${token}&sources=events`))));
    await expectWorking(client, device);
  });

  it('a token is valid until just before tokenLifetimeMs', async () => {
    const token = device.issueToken();
    clock.advance(device.options.tokenLifetimeMs - 1);
    track(await openWithToken(device, token));
  });

  it('an expired token (clock advanced by tokenLifetimeMs) gets 401 with a digest challenge', async () => {
    const token = await fetchToken(device);
    clock.advance(device.options.tokenLifetimeMs);
    const refused = await refusedHandshake(wsUrl(device, streamTarget(device, `?sources=events&wssession=${token}`)));
    expect(refused.status).toBe(401);
    expect((refused.headersDistinct['www-authenticate'] ?? []).some((c) => c.startsWith('Digest '))).toBe(true);
  });

  it('a token is used once: the second connect with it gets 401', async () => {
    const token = device.issueToken();
    track(await openWithToken(device, token));
    const again = await refusedHandshake(wsUrl(device, streamTarget(device, `?sources=events&wssession=${token}`)));
    expect(again.status).toBe(401);
  });

  it('a wrong or empty token gets 401, even with a valid one issued', async () => {
    device.issueToken();
    for (const token of ['nope', 'A'.repeat(32), '']) {
      const refused = await refusedHandshake(wsUrl(device, streamTarget(device, `?sources=events&wssession=${token}`)));
      expect(refused.status).toBe(401);
    }
  });

  it('a refused handshake does not use up the token (guards come first)', async () => {
    const token = device.issueToken();
    const bad = await refusedHandshake(wsUrl(device, streamTarget(device, `?sources=video&wssession=${token}`)));
    expect(bad.status).toBe(400);
    track(await openWithToken(device, token));
  });
});

describe('the 401 answer, byte for byte', () => {
  let device: DeviceHandle;
  beforeAll(async () => {
    device = await startDevice({ port: 0, initialStates: [], clock: new ManualClock() });
  });
  afterAll(async () => {
    await device.close();
  });

  const connections: RawConnection[] = [];
  const connection = (): RawConnection => {
    const made = RawConnection.open(device.port);
    connections.push(made);
    return made;
  };
  afterEach(() => connections.splice(0).forEach((c) => c.destroy()));

  it('status 401, a digest challenge with realm, nonce, algorithm=MD5, qop="auth", Content-Type text/html, exact Content-Length', async () => {
    const response = await connection().exchange(handshakeText(streamTarget(device)));
    expect(response.statusLine).toMatch(/^HTTP\/1\.1 401 Unauthorized$/);
    const digest = response.header('www-authenticate').filter((v) => v.startsWith('Digest '));
    expect(digest).toHaveLength(1);
    expect(digest[0]).toMatch(/^Digest realm="[^"]+", nonce="[^"]+", algorithm=MD5, qop="auth"$/);
    expect(digest[0]).toContain(`realm="${device.realm}"`);
    expect(digest[0]).not.toContain('stale');
    expect(response.header('content-type')).toEqual(['text/html']);
    expect(response.header('content-length')).toEqual([String(response.body.length)]);
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.toString('utf8')).toMatch(/401 Unauthorized/);
    expect(response.header('upgrade')).toEqual([]);
    expect(response.header('sec-websocket-accept')).toEqual([]);
    // The connection is kept for the answer to the challenge, as a device's web server keeps it.
    expect(response.header('connection')).toEqual([]);
  });

  it('a fresh nonce per challenge, on one connection', async () => {
    const conn = connection();
    const nonces = [];
    for (let i = 0; i < 2; i++) {
      const response = await conn.exchange(handshakeText(streamTarget(device)));
      expect(response.status).toBe(401);
      nonces.push(/nonce="([^"]+)"/.exec(response.header('www-authenticate')[0])?.[1]);
    }
    expect(nonces[0]).toBeDefined();
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('the answer to the challenge on the same connection opens the stream (101)', async () => {
    const conn = connection();
    const target = streamTarget(device);
    const challenge = await conn.exchange(handshakeText(target));
    expect(challenge.status).toBe(401);
    const authorization = digestAuthorization(challenge.header('www-authenticate')[0], 'root', 'pass', 'GET', target);
    const key = newKey();
    const upgraded = await conn.exchange(
      handshakeText(target, { headers: { Authorization: authorization, 'Sec-WebSocket-Key': key } }),
    );
    expect(upgraded.status).toBe(101);
    expect(upgraded.header('sec-websocket-accept')).toEqual([acceptFor(key)]);
    expect(device.sessions().map((s) => s.user)).toEqual(['root']);
  });

  it('a wrong answer on the kept connection gets another 401 there; ordinary requests are served on it too', async () => {
    const conn = connection();
    const target = streamTarget(device);
    const challenge = await conn.exchange(handshakeText(target));
    const wrong = digestAuthorization(challenge.header('www-authenticate')[0], 'root', 'nope', 'GET', target);
    const again = await conn.exchange(handshakeText(target, { headers: { Authorization: wrong } }));
    expect(again.status).toBe(401);
    const plain = await conn.exchange('GET /svc-cgi/wssession.cgi HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(plain.status).toBe(401);
    expect(conn.isClosed).toBe(false);
  });

  it.each([
    ['Connection: Upgrade, close', (t: string) => handshakeText(t, { headers: { Connection: 'Upgrade, close' } })],
    ['HTTP/1.0', (t: string) => handshakeText(t).replace(' HTTP/1.1\r\n', ' HTTP/1.0\r\n')],
    ['bytes sent after the request', (t: string) => `${handshakeText(t)}\x81\x80\0\0\0\0`],
  ])('a request with %s gets Connection: close and the connection closed', async (_name, text) => {
    const response = await rawExchange(device.port, text(streamTarget(device)));
    expect(response.status).toBe(401);
    expect(response.header('connection')).toEqual(['close']);
  });
});

describe('handshake guards (raw socket)', () => {
  let device: DeviceHandle;
  beforeAll(async () => {
    device = await startDevice({ port: 0, initialStates: [], clock: new ManualClock() });
  });
  afterAll(async () => {
    await device.close();
  });

  const target = (): string => streamTarget(device);

  it.each([
    ['another path', '/svc/ws-data-streamX?sources=events'],
    ['the vendor path of real devices', '/vapix/ws-data-stream?sources=events'],
    ['a trailing slash', '/svc/ws-data-stream/?sources=events'],
  ])('404 for %s', async (_name, path) => {
    const response = await rawExchange(device.port, handshakeText(path));
    expect(response.status).toBe(404);
  });

  it('400 for POST', async () => {
    const response = await rawExchange(
      device.port,
      handshakeText(target(), { method: 'POST', headers: { 'Content-Length': '0' } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.toString()).toMatch(/GET/);
  });

  it('400 for an Upgrade other than websocket', async () => {
    const response = await rawExchange(device.port, handshakeText(target(), { headers: { Upgrade: 'h2c' } }));
    expect(response.status).toBe(400);
    expect(response.body.toString()).toMatch(/Upgrade/);
  });

  it('no Upgrade header is not a WebSocket handshake: refused, never 101', async () => {
    const response = await rawExchange(
      device.port,
      handshakeText(target(), { headers: { Upgrade: null, Connection: 'close' } }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it.each([
    ['missing', null],
    ['too short', 'c2hvcnQ='],
    ['not base64', '!!!!!!!!!!!!!!!!!!!!!!=='],
  ])('400 for a Sec-WebSocket-Key that is %s', async (_name, key) => {
    const response = await rawExchange(device.port, handshakeText(target(), { headers: { 'Sec-WebSocket-Key': key } }));
    expect(response.status).toBe(400);
    expect(response.body.toString()).toMatch(/Sec-WebSocket-Key/);
  });

  it('426 with Sec-WebSocket-Version: 13 for version 8', async () => {
    const response = await rawExchange(
      device.port,
      handshakeText(target(), { headers: { 'Sec-WebSocket-Version': '8' } }),
    );
    expect(response.status).toBe(426);
    expect(response.header('sec-websocket-version')).toEqual(['13']);
  });

  it('400 without Sec-WebSocket-Version', async () => {
    const response = await rawExchange(
      device.port,
      handshakeText(target(), { headers: { 'Sec-WebSocket-Version': null } }),
    );
    expect(response.status).toBe(400);
  });

  it.each([
    ['no query', ''],
    ['no sources', '?wssession=abc'],
    ['empty sources', '?sources='],
  ])('400 for %s', async (_name, query) => {
    const response = await rawExchange(device.port, handshakeText(streamTarget(device, query)));
    expect(response.status).toBe(400);
    expect(response.body.toString()).toMatch(/sources/);
  });

  it.each([
    ['an unknown source', '?sources=video', 'video'],
    ['an unknown source next to events', '?sources=events,metadata', 'metadata'],
    ['an empty item', '?sources=events,', 'Unknown'],
  ])('400 for %s, naming it', async (_name, query, named) => {
    const response = await rawExchange(device.port, handshakeText(streamTarget(device, query)));
    expect(response.status).toBe(400);
    expect(response.body.toString()).toContain(named);
  });

  it('guards answer before authentication: no credentials, still 400 not 401', async () => {
    const response = await rawExchange(device.port, handshakeText(streamTarget(device, '?sources=video')));
    expect(response.status).toBe(400);
    expect(response.header('www-authenticate')).toEqual([]);
  });

  it('sources=events,events is accepted, as one source', async () => {
    const client = track(await openWithToken(device, device.issueToken(), '?sources=events,events'));
    await expectWorking(client, device);
    expect(device.sessions()[0].sources).toEqual(['events']);
  });

  it('a hand-made handshake with a token gets 101 with the right accept value', async () => {
    const key = 'dGhlIHNhbXBsZSBub25jZQ==';
    const raw = await RawWebSocket.open(
      device.port,
      streamTarget(device, `?sources=events&wssession=${device.issueToken()}`),
      { 'Sec-WebSocket-Key': key },
    );
    try {
      expect(raw.response.status).toBe(101);
      expect(raw.response.header('upgrade').map((v) => v.toLowerCase())).toEqual(['websocket']);
      expect(raw.response.header('connection').map((v) => v.toLowerCase())).toEqual(['upgrade']);
      expect(raw.response.header('sec-websocket-accept')).toEqual([acceptFor(key)]);
      expect(acceptFor(key)).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    } finally {
      raw.destroy();
    }
  });
});

describe('permessage-deflate', () => {
  let plain: DeviceHandle;
  let deflate: DeviceHandle;
  beforeAll(async () => {
    [plain, deflate] = await Promise.all([
      startDevice({ port: 0, initialStates: [], clock: new ManualClock() }),
      startDevice({ port: 0, initialStates: [], clock: new ManualClock(), wsDeflate: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), deflate.close()]);
  });

  it('wsDeflate: true negotiates it with a client that offers it, and big messages arrive intact', async () => {
    const client = track(
      await openWithToken(deflate, deflate.issueToken(), '?sources=events', { perMessageDeflate: true }),
    );
    expect(client.ws.extensions).toContain('permessage-deflate');
    await client.configure([{ topicFilter: PORT }]);
    const data = { blob: 'abcdefgh'.repeat(2000) };
    deflate.publish(PORT, { data });
    expect((await client.next()).params?.notification.message.data).toEqual(data);
  });

  it('wsDeflate: true still serves a client that does not offer it', async () => {
    const client = track(
      await openWithToken(deflate, deflate.issueToken(), '?sources=events', { perMessageDeflate: false }),
    );
    expect(client.ws.extensions).toBe('');
    await expectWorking(client, deflate);
  });

  it('off by default: not negotiated even when the client offers it', async () => {
    const client = track(
      await openWithToken(plain, plain.issueToken(), '?sources=events', { perMessageDeflate: true }),
    );
    expect(client.ws.extensions).toBe('');
    await expectWorking(client, plain);
  });

  it('off by default: the 101 carries no Sec-WebSocket-Extensions; on: it does', async () => {
    const offer = { 'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits' };
    const off = await RawWebSocket.open(
      plain.port,
      streamTarget(plain, `?sources=events&wssession=${plain.issueToken()}`),
      offer,
    );
    const on = await RawWebSocket.open(
      deflate.port,
      streamTarget(deflate, `?sources=events&wssession=${deflate.issueToken()}`),
      offer,
    );
    try {
      expect(off.response.header('sec-websocket-extensions')).toEqual([]);
      expect(on.response.header('sec-websocket-extensions')[0]).toMatch(/^permessage-deflate/);
    } finally {
      off.destroy();
      on.destroy();
    }
  });

  it('handshake() reports a refusal instead of throwing', async () => {
    const outcome = await handshake(wsUrl(plain, streamTarget(plain, '?sources=nope')));
    expect(outcome.ok).toBe(false);
  });
});
