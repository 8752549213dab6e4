/** HTTP authentication of a device's CGIs: the 401 real devices send, the modes, digest variants. */
import { type DeviceHandle, DIGEST_ALGORITHMS, digestAuthorization, ManualClock, type RpcResponse } from '../../src';
import { parseChallenges } from '../../src/auth/auth-params';
import { digestRequest, fetchChallenges } from '../helpers/digest-request';
import { basicAuthorization, challengesOf, sendRequest } from '../helpers/http';
import { callFeatureFlags } from '../helpers/rpc-client';
import { deviceStarter } from '../helpers/devices';
import { openWithToken, refusedHandshake, wsUrl } from '../helpers/event-stream-client';

const FLAGS = '/svc-cgi/featureflag.cgi';
const SESSION = '/svc-cgi/wssession.cgi';
const LIST_ALL = JSON.stringify({ apiVersion: '1.0', context: 'auth', method: 'listAll' });

const start = deviceStarter();

function listAll(device: DeviceHandle, authorization?: string): ReturnType<typeof sendRequest> {
  return sendRequest(device.url, {
    method: 'POST',
    path: FLAGS,
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body: LIST_ALL,
  });
}

describe('the 401 answer', () => {
  it.each([
    ['featureflag.cgi', 'POST', FLAGS],
    ['wssession.cgi', 'GET', SESSION],
  ])(
    '%s without credentials (Basic asked for on plain HTTP): a Digest and a Basic challenge, text/html, exact Content-Length',
    async (_name, method, path) => {
      const device = await start({ basicOverHttp: true });
      const answer = await sendRequest(device.url, { method, path, body: method === 'POST' ? LIST_ALL : undefined });
      expect(answer.status).toBe(401);
      const challenges = challengesOf(answer);
      expect(challenges).toHaveLength(2);
      expect(challenges[0]).toMatch(
        /^Digest realm="SVC_ACCC8E000001", nonce="[0-9a-f]{64}", algorithm=MD5, qop="auth"$/,
      );
      expect(challenges[1]).toBe('Basic realm="SVC_ACCC8E000001"');
      expect(answer.headers['content-type']).toBe('text/html');
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
      expect(answer.body).toContain('401 Unauthorized');
      expect(answer.body).toContain(path);
    },
  );

  it('escapes the path in the HTML body', async () => {
    const device = await start();
    const answer = await sendRequest(device.url, { method: 'GET', path: `${SESSION}?<script>` });
    expect(answer.status).toBe(401);
    expect(answer.body).not.toContain('<script>');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  });

  it('every 401 carries a fresh nonce', async () => {
    const device = await start();
    const first = parseChallenges((await fetchChallenges(device.url, SESSION))[0]);
    const second = parseChallenges((await fetchChallenges(device.url, SESSION))[0]);
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) expect(first.value[0].params.get('nonce')).not.toBe(second.value[0].params.get('nonce'));
  });

  it('a wrong digest password is 401 with new challenges', async () => {
    const device = await start();
    const answer = await digestRequest(device.url, { method: 'GET', path: SESSION, password: 'wrong' });
    expect(answer.status).toBe(401);
    expect(challengesOf(answer)[0]).toMatch(/^Digest /);
    expect(challengesOf(answer)[0]).not.toMatch(/stale/);
  });

  it('an unknown digest user is 401', async () => {
    const device = await start();
    expect((await digestRequest(device.url, { method: 'GET', path: SESSION, username: 'nobody' })).status).toBe(401);
  });
});

describe('auth "both" (the default)', () => {
  it('serves a digest client', async () => {
    const device = await start();
    const answer = await callFeatureFlags(device, JSON.parse(LIST_ALL));
    expect(answer.status).toBe(200);
    expect(answer.json.data).toHaveProperty('flags');
  });

  it('serves a Basic client without a challenge round trip (Basic asked for on plain HTTP)', async () => {
    const device = await start({ basicOverHttp: true });
    expect((await listAll(device, basicAuthorization('root', 'pass'))).status).toBe(200);
  });

  it('refuses a wrong Basic password (Basic asked for on plain HTTP)', async () => {
    const device = await start({ basicOverHttp: true });
    expect((await listAll(device, basicAuthorization('root', 'nope'))).status).toBe(401);
  });

  it('refuses an unknown scheme', async () => {
    const device = await start();
    expect((await listAll(device, 'Bearer abc')).status).toBe(401);
  });
});

describe('auth "digest"', () => {
  it('refuses Basic and challenges with Digest only', async () => {
    const device = await start({ auth: 'digest' });
    const answer = await listAll(device, basicAuthorization('root', 'pass'));
    expect(answer.status).toBe(401);
    expect(challengesOf(answer)).toEqual([expect.stringMatching(/^Digest realm=/)]);
  });

  it('serves a digest client', async () => {
    const device = await start({ auth: 'digest' });
    expect((await callFeatureFlags(device, JSON.parse(LIST_ALL))).status).toBe(200);
  });
});

describe('auth "basic"', () => {
  it('challenges with Basic only and serves a Basic client', async () => {
    const device = await start({ auth: 'basic' });
    const challenge = await listAll(device);
    expect(challenge.status).toBe(401);
    expect(challengesOf(challenge)).toEqual(['Basic realm="SVC_ACCC8E000001"']);
    expect((await listAll(device, basicAuthorization('root', 'pass'))).status).toBe(200);
  });

  it('refuses Digest credentials, even correct ones for a digest challenge of the same realm', async () => {
    const device = await start({ auth: 'basic' });
    const twin = await start({ auth: 'digest' });
    const challenges = await fetchChallenges(twin.url, FLAGS, 'POST');
    const answer = await listAll(device, digestAuthorization(challenges, 'root', 'pass', 'POST', FLAGS));
    expect(answer.status).toBe(401);
    expect(challengesOf(answer)).toEqual(['Basic realm="SVC_ACCC8E000001"']);
  });
});

describe('auth "none"', () => {
  it('serves without credentials', async () => {
    const device = await start({ auth: 'none' });
    const answer = await listAll(device);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as RpcResponse).data).toHaveProperty('flags');
    const token = await sendRequest(device.url, { path: SESSION });
    expect(token.status).toBe(200);
    expect(device.consumeToken(token.body)).toEqual({ ok: true, value: 'anonymous' });
  });

  it('ignores credentials, even wrong ones', async () => {
    const device = await start({ auth: 'none' });
    expect((await listAll(device, basicAuthorization('x', 'y'))).status).toBe(200);
  });
});

describe('digest algorithms', () => {
  it("['SHA-256', 'MD5'] gives two challenge headers in that order, then Basic; both work", async () => {
    const device = await start({ digestAlgorithms: ['SHA-256', 'MD5'], basicOverHttp: true });
    const challenges = await fetchChallenges(device.url, SESSION);
    expect(challenges).toEqual([
      expect.stringMatching(/^Digest realm="SVC_ACCC8E000001", nonce="[0-9a-f]{64}", algorithm=SHA-256, qop="auth"$/),
      expect.stringMatching(/^Digest realm="SVC_ACCC8E000001", nonce="[0-9a-f]{64}", algorithm=MD5, qop="auth"$/),
      'Basic realm="SVC_ACCC8E000001"',
    ]);
    for (const algorithm of ['SHA-256', 'MD5'] as const) {
      const answer = await digestRequest(device.url, { path: SESSION, algorithm });
      expect(answer.authorization).toContain(`algorithm=${algorithm}`);
      expect(answer.status).toBe(200);
    }
  });

  it('refuses an algorithm it does not offer', async () => {
    const device = await start({ digestAlgorithms: ['SHA-256'] });
    const challenges = await fetchChallenges(device.url, SESSION);
    const md5 = challenges[0].replace('algorithm=SHA-256', 'algorithm=MD5');
    const answer = await sendRequest(device.url, {
      path: SESSION,
      headers: { Authorization: digestAuthorization(md5, 'root', 'pass', 'GET', SESSION) },
    });
    expect(answer.status).toBe(401);
  });

  it.each(DIGEST_ALGORITHMS)('%s works end to end', async (algorithm) => {
    const device = await start({ digestAlgorithms: [algorithm] });
    const answer = await callFeatureFlags(device, JSON.parse(LIST_ALL));
    expect(answer.challenge.headersDistinct['www-authenticate'][0]).toContain(`algorithm=${algorithm},`);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toHaveProperty('flags');
  });
});

describe('nonce lifetime', () => {
  it('a correct answer to an expired nonce is 401 with stale=true; the new nonce works', async () => {
    const clock = new ManualClock();
    const device = await start({ clock, nonceLifetimeMs: 1_000, digestAlgorithms: ['SHA-256', 'MD5'] });
    const challenges = await fetchChallenges(device.url, SESSION);
    const authorization = digestAuthorization(challenges, 'root', 'pass', 'GET', SESSION);
    clock.advance(999);
    expect((await sendRequest(device.url, { path: SESSION, headers: { Authorization: authorization } })).status).toBe(
      200,
    );
    clock.advance(1);
    const stale = await sendRequest(device.url, { path: SESSION, headers: { Authorization: authorization } });
    expect(stale.status).toBe(401);
    const digestChallenges = challengesOf(stale).filter((c) => c.startsWith('Digest '));
    expect(digestChallenges).toHaveLength(2);
    for (const c of digestChallenges) expect(c).toMatch(/, stale=true$/);
    const again = await sendRequest(device.url, {
      path: SESSION,
      headers: { Authorization: digestAuthorization(challengesOf(stale), 'root', 'pass', 'GET', SESSION) },
    });
    expect(again.status).toBe(200);
  });

  it('a wrong answer to an expired nonce is 401 without stale', async () => {
    const clock = new ManualClock();
    const device = await start({ clock, nonceLifetimeMs: 1_000 });
    const challenges = await fetchChallenges(device.url, SESSION);
    clock.advance(5_000);
    const answer = await sendRequest(device.url, {
      path: SESSION,
      headers: { Authorization: digestAuthorization(challenges, 'root', 'wrong', 'GET', SESSION) },
    });
    expect(answer.status).toBe(401);
    expect(challengesOf(answer).join(' ')).not.toMatch(/stale/);
  });
});

describe('replay', () => {
  it('lenient (default): the same Authorization header works again and again', async () => {
    const device = await start();
    const first = await digestRequest(device.url, { path: SESSION });
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect(
        (await sendRequest(device.url, { path: SESSION, headers: { Authorization: first.authorization } })).status,
      ).toBe(200);
  });

  it('lenient: one nonce serves several URIs with nc=00000001 each time', async () => {
    const device = await start();
    const challenges = await fetchChallenges(device.url, SESSION);
    expect(
      (
        await sendRequest(device.url, {
          path: SESSION,
          headers: { Authorization: digestAuthorization(challenges, 'root', 'pass', 'GET', SESSION) },
        })
      ).status,
    ).toBe(200);
    expect((await listAll(device, digestAuthorization(challenges, 'root', 'pass', 'POST', FLAGS))).status).toBe(200);
  });

  it('strict: a second identical request is 401; a new nc is accepted', async () => {
    const device = await start({ digestReplay: 'strict' });
    const first = await digestRequest(device.url, { path: SESSION, nc: 1, cnonce: 'abcdef' });
    expect(first.status).toBe(200);
    const replay = await sendRequest(device.url, { path: SESSION, headers: { Authorization: first.authorization } });
    expect(replay.status).toBe(401);
    const next = digestAuthorization(challengesOf(first.challenge), 'root', 'pass', 'GET', SESSION, {
      nc: 2,
      cnonce: 'abcdef',
    });
    expect((await sendRequest(device.url, { path: SESSION, headers: { Authorization: next } })).status).toBe(200);
  });
});

describe('the digest uri must be the request target', () => {
  it('an answer for another path is 401', async () => {
    const device = await start();
    const challenges = await fetchChallenges(device.url, FLAGS, 'POST');
    expect((await listAll(device, digestAuthorization(challenges, 'root', 'pass', 'POST', SESSION))).status).toBe(401);
  });

  it('an answer without the query of the request is 401; with it, 200', async () => {
    const device = await start();
    const challenges = await fetchChallenges(device.url, SESSION);
    const target = `${SESSION}?user=root`;
    expect(
      (
        await sendRequest(device.url, {
          path: target,
          headers: { Authorization: digestAuthorization(challenges, 'root', 'pass', 'GET', SESSION) },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await sendRequest(device.url, {
          path: target,
          headers: { Authorization: digestAuthorization(challenges, 'root', 'pass', 'GET', target) },
        })
      ).status,
    ).toBe(200);
  });
});

describe('rejectAuth (a simulated reboot)', () => {
  it('refuses digest, Basic and session tokens with 401 for the time given, then serves again', async () => {
    const clock = new ManualClock();
    const device = await start({ clock, initialStates: [], basicOverHttp: true });
    const token = device.issueToken();
    device.rejectAuth(10_000);
    expect((await digestRequest(device.url, { path: SESSION })).status).toBe(401);
    expect(
      (await sendRequest(device.url, { path: SESSION, headers: { Authorization: basicAuthorization('root', 'pass') } }))
        .status,
    ).toBe(401);
    const refused = await refusedHandshake(wsUrl(device, `/svc/ws-data-stream?sources=events&wssession=${token}`));
    expect(refused.status).toBe(401);
    clock.advance(9_999);
    expect((await digestRequest(device.url, { path: SESSION })).status).toBe(401);
    clock.advance(1);
    expect((await digestRequest(device.url, { path: SESSION })).status).toBe(200);
    expect(
      (await sendRequest(device.url, { path: SESSION, headers: { Authorization: basicAuthorization('root', 'pass') } }))
        .status,
    ).toBe(200);
    const client = await openWithToken(device, device.issueToken());
    await client.close();
  });

  it('does not affect --auth none', async () => {
    const device = await start({ auth: 'none' });
    device.rejectAuth(10_000);
    expect((await sendRequest(device.url, { path: SESSION })).status).toBe(200);
  });
});
