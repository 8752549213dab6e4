import { randomBytes } from 'node:crypto';
import { parseChallenges, parseCredentials, quote } from '../../../src/auth/auth-params';
import {
  DIGEST_ALGORITHMS,
  type DigestAlgorithm,
  DigestServer,
  type DigestServerOptions,
  type DigestVerdict,
} from '../../../src/auth/digest';
import { digestAuthorization } from '../../../src/auth/digest-client';
import { digestResponse } from '../../../src/auth/digest-hash';
import { ManualClock } from '../../../src/base/clock';

const PASSWORDS: Record<string, string> = { root: 'pass', operator: 'op-secret' };
const REALM = 'SVC_ACCC8E000001';
const LIFETIME = 60_000;

function setup(overrides: Partial<DigestServerOptions> = {}): { server: DigestServer; clock: ManualClock } {
  const clock = new ManualClock();
  const server = new DigestServer({
    realm: REALM,
    algorithms: ['MD5'],
    nonceLifetimeMs: LIFETIME,
    replay: 'lenient',
    clock,
    passwordOf: (name) => PASSWORDS[name],
    ...overrides,
  });
  return { server, clock };
}

interface AnswerOptions {
  username?: string;
  password?: string;
  method?: string;
  uri?: string;
  algorithm?: DigestAlgorithm;
  nc?: number;
  cnonce?: string;
  challenges?: readonly string[];
}

/** A client's answer to a fresh challenge of `server`. */
function answer(server: DigestServer, options: AnswerOptions = {}): string {
  return digestAuthorization(
    options.challenges ?? server.challenges(),
    options.username ?? 'root',
    options.password ?? 'pass',
    options.method ?? 'GET',
    options.uri ?? '/svc-cgi/wssession.cgi',
    { algorithm: options.algorithm, nc: options.nc, cnonce: options.cnonce },
  );
}

function paramsOf(header: string): Map<string, string> {
  const parsed = parseCredentials(header);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.params;
}

/** Writes credentials back from a parameter map (all values quoted). */
function build(params: Map<string, string>): string {
  return `Digest ${[...params].map(([k, v]) => `${k}=${quote(v)}`).join(', ')}`;
}

/** Changes some parameters of a header, recomputing nothing. */
function edit(header: string, change: (params: Map<string, string>) => void): string {
  const params = paramsOf(header);
  change(params);
  return build(params);
}

/** Builds correct credentials from parts, for nonces and realms a challenge does not offer. */
function crafted(parts: {
  nonce: string;
  realm?: string;
  algorithm?: DigestAlgorithm;
  uri?: string;
  password?: string;
  nc?: string;
  cnonce?: string;
}): string {
  const realm = parts.realm ?? REALM;
  const algorithm = parts.algorithm ?? 'MD5';
  const uri = parts.uri ?? '/x';
  const nc = parts.nc ?? '00000001';
  const cnonce = parts.cnonce ?? 'abc';
  const response = digestResponse({
    algorithm,
    username: 'root',
    password: parts.password ?? 'pass',
    realm,
    method: 'GET',
    uri,
    nonce: parts.nonce,
    nc,
    cnonce,
    qop: 'auth',
  });
  return build(
    new Map([
      ['username', 'root'],
      ['realm', realm],
      ['nonce', parts.nonce],
      ['uri', uri],
      ['algorithm', algorithm],
      ['response', response],
      ['qop', 'auth'],
      ['nc', nc],
      ['cnonce', cnonce],
    ]),
  );
}

function nonceOf(challenge: string): string {
  const parsed = parseChallenges(challenge);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value[0].params.get('nonce') as string;
}

function expectRejected(verdict: DigestVerdict, reason: RegExp, stale = false): void {
  expect(verdict).toEqual({
    ok: false,
    error: { code: expect.any(String) as string, message: expect.stringMatching(reason) as string, stale },
  });
}

describe('DigestServer.challenges', () => {
  it('offers one challenge per algorithm, in the configured order', () => {
    const { server } = setup({ algorithms: ['SHA-256', 'MD5', 'SHA-512-256-sess'] });
    const offered = server.challenges();
    expect(offered).toHaveLength(3);
    const parsed = offered.map((c) => {
      const result = parseChallenges(c);
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value).toHaveLength(1);
      return result.value[0];
    });
    expect(parsed.map((c) => c.scheme)).toEqual(['Digest', 'Digest', 'Digest']);
    expect(parsed.map((c) => c.params.get('algorithm'))).toEqual(['SHA-256', 'MD5', 'SHA-512-256-sess']);
    for (const c of parsed) {
      expect(c.params.get('realm')).toBe(REALM);
      expect(c.params.get('qop')).toBe('auth');
      expect(c.params.get('nonce')).toMatch(/^[0-9a-f]{64}$/);
      expect(c.params.has('stale')).toBe(false);
    }
    expect(new Set(parsed.map((c) => c.params.get('nonce'))).size).toBe(3);
  });

  it('writes the challenge like a real device: realm, nonce, algorithm, qop', () => {
    const { server } = setup();
    expect(server.challenges()[0]).toMatch(
      /^Digest realm="SVC_ACCC8E000001", nonce="[0-9a-f]{64}", algorithm=MD5, qop="auth"$/,
    );
  });

  it('adds stale=true when asked', () => {
    const { server } = setup({ algorithms: ['MD5', 'SHA-256'] });
    for (const c of server.challenges(true)) expect(c).toMatch(/, stale=true$/);
  });

  it('gives a new nonce on every call', () => {
    const { server } = setup();
    expect(nonceOf(server.challenges()[0])).not.toBe(nonceOf(server.challenges()[0]));
  });

  it('exposes its realm', () => {
    expect(setup().server.realm).toBe(REALM);
  });
});

describe('DigestServer.verify: round trips', () => {
  it.each(DIGEST_ALGORITHMS)('accepts a correct %s answer from the client', (algorithm) => {
    const { server } = setup({ algorithms: [algorithm] });
    expect(server.verify(answer(server), 'GET', '/svc-cgi/wssession.cgi')).toEqual({ ok: true, value: 'root' });
  });

  it.each(DIGEST_ALGORITHMS)('with all six offered, a client that picks %s is accepted', (algorithm) => {
    const { server } = setup({ algorithms: DIGEST_ALGORITHMS });
    const header = answer(server, { algorithm, method: 'POST', uri: '/svc-cgi/featureflag.cgi' });
    expect(paramsOf(header).get('algorithm')).toBe(algorithm);
    expect(server.verify(header, 'POST', '/svc-cgi/featureflag.cgi')).toEqual({ ok: true, value: 'root' });
  });

  it('accepts every account with its own password', () => {
    const { server } = setup();
    expect(
      server.verify(answer(server, { username: 'operator', password: 'op-secret' }), 'GET', '/svc-cgi/wssession.cgi'),
    ).toEqual({ ok: true, value: 'operator' });
  });

  it('accepts an upper-case response hash', () => {
    const { server } = setup();
    const header = edit(answer(server), (p) => p.set('response', (p.get('response') as string).toUpperCase()));
    expect(server.verify(header, 'GET', '/svc-cgi/wssession.cgi').ok).toBe(true);
  });

  it('accepts a lower-case algorithm name', () => {
    const { server } = setup({ algorithms: ['SHA-256'] });
    const header = edit(answer(server), (p) => p.set('algorithm', 'sha-256'));
    expect(server.verify(header, 'GET', '/svc-cgi/wssession.cgi').ok).toBe(true);
  });

  it('treats credentials without algorithm as MD5', () => {
    const { server } = setup();
    const header = edit(answer(server), (p) => p.delete('algorithm'));
    expect(server.verify(header, 'GET', '/svc-cgi/wssession.cgi').ok).toBe(true);
  });

  it('accepts a request target with a query string when the uri carries it too', () => {
    const { server } = setup();
    expect(
      server.verify(
        answer(server, { uri: '/svc/ws-data-stream?sources=events' }),
        'GET',
        '/svc/ws-data-stream?sources=events',
      ).ok,
    ).toBe(true);
  });
});

describe('DigestServer.verify: rejections', () => {
  const URI = '/svc-cgi/wssession.cgi';

  it('refuses a wrong password', () => {
    const { server } = setup();
    expectRejected(server.verify(answer(server, { password: 'wrong' }), 'GET', URI), /wrong password for user "root"/);
  });

  it('refuses an unknown user', () => {
    const { server } = setup();
    expectRejected(
      server.verify(answer(server, { username: 'mallory', password: 'pass' }), 'GET', URI),
      /unknown user "mallory"/,
    );
  });

  it('refuses an answer computed for another method', () => {
    const { server } = setup();
    expectRejected(server.verify(answer(server, { method: 'GET' }), 'POST', URI), /wrong password/);
  });

  it('refuses a wrong realm, even with a response computed for that realm', () => {
    const { server } = setup();
    const nonce = nonceOf(server.challenges()[0]);
    expectRejected(
      server.verify(crafted({ nonce, realm: 'OTHER_REALM', uri: URI }), 'GET', URI),
      /realm "OTHER_REALM" does not match "SVC_ACCC8E000001"/,
    );
  });

  it.each([
    ['another path', '/svc-cgi/featureflag.cgi', '/svc-cgi/wssession.cgi'],
    ['a query the target lacks', '/svc-cgi/wssession.cgi?x=1', '/svc-cgi/wssession.cgi'],
    ['no query where the target has one', '/svc-cgi/wssession.cgi', '/svc-cgi/wssession.cgi?x=1'],
    ['another query value', '/svc/ws-data-stream?sources=events', '/svc/ws-data-stream?sources=other'],
    ['the same query in another order', '/p?a=1&b=2', '/p?b=2&a=1'],
    ['an absolute URI', 'http://127.0.0.1/svc-cgi/wssession.cgi', '/svc-cgi/wssession.cgi'],
  ])('refuses a uri that differs from the request target: %s', (_what, uri, target) => {
    const { server } = setup();
    expectRejected(
      server.verify(answer(server, { uri }), 'GET', target),
      /digest uri ".*" does not match the request target/,
    );
  });

  it.each(['qop', 'nc', 'cnonce', 'nonce', 'response', 'uri', 'realm', 'username'])(
    'refuses credentials without %s',
    (field) => {
      const { server } = setup();
      expectRejected(
        server.verify(
          edit(answer(server), (p) => p.delete(field)),
          'GET',
          URI,
        ),
        new RegExp(`digest credentials lack .*${field}`),
      );
    },
  );

  it('names every missing field at once', () => {
    const { server } = setup();
    const header = edit(answer(server), (p) => {
      p.delete('qop');
      p.delete('nc');
      p.delete('cnonce');
    });
    expectRejected(server.verify(header, 'GET', URI), /lack qop, nc, cnonce/);
  });

  it.each(['auth-int', 'AUTH', ''])('refuses qop=%j', (qop) => {
    const { server } = setup();
    expectRejected(
      server.verify(
        edit(answer(server), (p) => p.set('qop', qop)),
        'GET',
        URI,
      ),
      /qop ".*" is not supported/,
    );
  });

  it.each(['1', '0000001', '000000001', '0000000g', '-0000001', ''])('refuses nc=%j (not 8 hex digits)', (nc) => {
    const { server } = setup();
    expectRejected(
      server.verify(
        edit(answer(server), (p) => p.set('nc', nc)),
        'GET',
        URI,
      ),
      /nc ".*" is not 8 hex digits/,
    );
  });

  it('refuses a nonce it never issued', () => {
    const { server } = setup();
    expectRejected(
      server.verify(crafted({ nonce: randomBytes(32).toString('hex'), uri: URI }), 'GET', URI),
      /nonce was not issued by this device/,
    );
  });

  it('refuses a nonce altered in one digit, even with a response computed for it', () => {
    const { server } = setup();
    const nonce = nonceOf(server.challenges()[0]);
    for (const position of [0, 15, 20, 40, 63]) {
      const altered = nonce.slice(0, position) + (nonce[position] === '0' ? '1' : '0') + nonce.slice(position + 1);
      expectRejected(server.verify(crafted({ nonce: altered, uri: URI }), 'GET', URI), /nonce was not issued/);
    }
  });

  it('refuses a nonce whose issue time was moved forward (HMAC covers the timestamp)', () => {
    const { server, clock } = setup();
    const nonce = nonceOf(server.challenges()[0]);
    const raw = Buffer.from(nonce, 'hex');
    raw.writeBigUInt64BE(BigInt(clock.now() + 10 * LIFETIME), 0);
    clock.advance(LIFETIME);
    expectRejected(
      server.verify(crafted({ nonce: raw.toString('hex'), uri: URI }), 'GET', URI),
      /nonce was not issued/,
    );
  });

  it('refuses malformed nonces: wrong length, upper case, not hex', () => {
    const { server } = setup();
    const nonce = nonceOf(server.challenges()[0]);
    for (const bad of [nonce.slice(2), `${nonce}00`, nonce.toUpperCase(), `${nonce.slice(0, 63)}z`, '']) {
      expectRejected(server.verify(crafted({ nonce: bad, uri: URI }), 'GET', URI), /nonce was not issued/);
    }
  });

  it('refuses a nonce of another device (another secret)', () => {
    const { server } = setup({ secret: Buffer.alloc(32, 1) });
    const { server: other } = setup({ secret: Buffer.alloc(32, 2) });
    expectRejected(server.verify(answer(other), 'GET', URI), /nonce was not issued/);
  });

  it('accepts the nonce of a device with the same secret (stateless nonces)', () => {
    const secret = Buffer.alloc(32, 7);
    const { server } = setup({ secret });
    const { server: twin } = setup({ secret });
    expect(server.verify(answer(twin), 'GET', URI).ok).toBe(true);
  });

  it('refuses an algorithm it does not offer', () => {
    const { server } = setup({ algorithms: ['SHA-256'] });
    const md5Challenge = server.challenges()[0].replace('algorithm=SHA-256', 'algorithm=MD5');
    expectRejected(
      server.verify(answer(server, { challenges: [md5Challenge] }), 'GET', URI),
      /algorithm MD5 is not offered \(offered: SHA-256\)/,
    );
  });

  it('refuses credentials without algorithm when MD5 is not offered', () => {
    const { server } = setup({ algorithms: ['SHA-256'] });
    const header = edit(answer(server), (p) => p.delete('algorithm'));
    expectRejected(server.verify(header, 'GET', URI), /algorithm undefined is not offered/);
  });

  it('refuses an unknown algorithm name', () => {
    const { server } = setup();
    expectRejected(
      server.verify(
        edit(answer(server), (p) => p.set('algorithm', 'SHA-1')),
        'GET',
        URI,
      ),
      /algorithm SHA-1 is not offered/,
    );
  });

  it('refuses userhash=true', () => {
    const { server } = setup();
    expectRejected(
      server.verify(
        edit(answer(server), (p) => p.set('userhash', 'true')),
        'GET',
        URI,
      ),
      /userhash is not supported/,
    );
  });

  it('refuses another scheme and malformed headers', () => {
    const { server } = setup();
    expectRejected(server.verify('Basic cm9vdDpwYXNz', 'GET', URI), /scheme Basic is not Digest/);
    expectRejected(server.verify('Digest realm="unterminated', 'GET', URI), /malformed Authorization header/);
    expectRejected(server.verify('', 'GET', URI), /malformed Authorization header: empty header/);
    expectRejected(server.verify(`${answer(server)}, Basic abc`, 'GET', URI), /malformed Authorization header/);
  });
});

describe('DigestServer.verify: stale nonces', () => {
  const URI = '/svc-cgi/wssession.cgi';

  it('accepts a correct answer until the last millisecond of the nonce lifetime', () => {
    const { server, clock } = setup();
    const header = answer(server);
    clock.advance(LIFETIME - 1);
    expect(server.verify(header, 'GET', URI).ok).toBe(true);
  });

  it('answers stale=true to a correct answer once the lifetime has passed', () => {
    const { server, clock } = setup();
    const header = answer(server);
    clock.advance(LIFETIME);
    expect(server.verify(header, 'GET', URI)).toEqual({
      ok: false,
      error: { code: 'STALE_NONCE', message: 'nonce expired', stale: true },
    });
  });

  it('answers stale=false to a wrong answer after the lifetime (only a right password earns stale)', () => {
    const { server, clock } = setup();
    const header = answer(server, { password: 'wrong' });
    clock.advance(LIFETIME * 2);
    expectRejected(server.verify(header, 'GET', URI), /wrong password/, false);
  });

  it('answers stale=false to an unknown user after the lifetime', () => {
    const { server, clock } = setup();
    const header = answer(server, { username: 'ghost' });
    clock.advance(LIFETIME * 2);
    expectRejected(server.verify(header, 'GET', URI), /unknown user/, false);
  });

  it('a fresh challenge after a stale one works again', () => {
    const { server, clock } = setup();
    clock.advance(LIFETIME * 5);
    expect(server.verify(answer(server), 'GET', URI).ok).toBe(true);
  });
});

describe('DigestServer.verify: replay policy', () => {
  const URI = '/svc-cgi/featureflag.cgi';

  describe('lenient (the default, like real devices)', () => {
    it('accepts the same nonce, cnonce and nc again', () => {
      const { server } = setup();
      const header = answer(server, { uri: URI, cnonce: 'fixed' });
      for (let i = 0; i < 3; i++) expect(server.verify(header, 'GET', URI).ok).toBe(true);
    });

    it('accepts the same nonce with nc=00000001 for another uri', () => {
      const { server } = setup();
      const challenges = server.challenges();
      expect(server.verify(answer(server, { challenges, uri: '/a' }), 'GET', '/a').ok).toBe(true);
      expect(server.verify(answer(server, { challenges, uri: '/b' }), 'GET', '/b').ok).toBe(true);
    });
  });

  describe('strict', () => {
    it('refuses a repeated (nonce, cnonce, nc) triple', () => {
      const { server } = setup({ replay: 'strict' });
      const header = answer(server, { uri: URI, cnonce: 'fixed', nc: 1 });
      expect(server.verify(header, 'GET', URI).ok).toBe(true);
      expectRejected(server.verify(header, 'GET', URI), /replayed request: nc 00000001 was already used/);
    });

    it('treats nc case-insensitively when looking for repeats', () => {
      const { server } = setup({ replay: 'strict' });
      const challenges = server.challenges();
      const lower = answer(server, { challenges, uri: URI, cnonce: 'c', nc: 10 });
      expect(paramsOf(lower).get('nc')).toBe('0000000a');
      expect(server.verify(lower, 'GET', URI).ok).toBe(true);
      const upper = crafted({ nonce: nonceOf(challenges[0]), uri: URI, cnonce: 'c', nc: '0000000A' });
      expectRejected(server.verify(upper, 'GET', URI), /replayed request/);
    });

    it('accepts nc out of order (3 then 2)', () => {
      const { server } = setup({ replay: 'strict' });
      const challenges = server.challenges();
      expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'c', nc: 3 }), 'GET', URI).ok).toBe(true);
      expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'c', nc: 2 }), 'GET', URI).ok).toBe(true);
    });

    it('accepts the same nc with a different cnonce', () => {
      const { server } = setup({ replay: 'strict' });
      const challenges = server.challenges();
      expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'one', nc: 1 }), 'GET', URI).ok).toBe(true);
      expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'two', nc: 1 }), 'GET', URI).ok).toBe(true);
    });

    it('accepts the same nc and cnonce with another nonce', () => {
      const { server } = setup({ replay: 'strict' });
      expect(server.verify(answer(server, { uri: URI, cnonce: 'c', nc: 1 }), 'GET', URI).ok).toBe(true);
      expect(server.verify(answer(server, { uri: URI, cnonce: 'c', nc: 1 }), 'GET', URI).ok).toBe(true);
    });

    it('does not spend a triple on a failed attempt', () => {
      const { server } = setup({ replay: 'strict' });
      const challenges = server.challenges();
      expect(
        server.verify(answer(server, { challenges, uri: URI, cnonce: 'c', password: 'wrong' }), 'GET', URI).ok,
      ).toBe(false);
      expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'c' }), 'GET', URI).ok).toBe(true);
    });

    it('keeps an admin request refused as a replay after a viewer made 100 001 requests (finding 2)', () => {
      const { server } = setup({ replay: 'strict' });
      const captured = answer(server, { uri: URI, cnonce: 'admin', nc: 1 });
      expect(server.verify(captured, 'GET', URI).ok).toBe(true);
      const challenges = server.challenges();
      const verdicts = new Map<string, number>();
      for (let nc = 1; nc <= 100_001; nc++) {
        const viewer = answer(server, {
          challenges,
          username: 'operator',
          password: 'op-secret',
          uri: URI,
          cnonce: 'v',
          nc,
        });
        const verdict = server.verify(viewer, 'GET', URI);
        const key = verdict.ok ? 'ok' : verdict.error.code;
        verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
      }
      // The viewer is held to its own share; the admin's entry was never dropped for it.
      expect(Object.fromEntries(verdicts)).toEqual({ ok: 20_000, REPLAY_LIMIT: 80_001 });
      expectRejected(server.verify(captured, 'GET', URI), /replayed request/);
    });

    it('refuses an account over its share with 429 advice until its oldest nonce expires', () => {
      const { server, clock } = setup({ replay: 'strict', replayPerAccount: 3 });
      const challenges = server.challenges();
      for (let nc = 1; nc <= 3; nc++)
        expect(server.verify(answer(server, { challenges, uri: URI, cnonce: 'c', nc }), 'GET', URI).ok).toBe(true);
      clock.advance(20_000);
      const over = server.verify(answer(server, { challenges, uri: URI, cnonce: 'c', nc: 4 }), 'GET', URI);
      expect(over).toMatchObject({ ok: false, error: { code: 'REPLAY_LIMIT', stale: false, retryAfterSeconds: 40 } });
      expect(over.ok ? '' : over.error.message).toMatch(
        /user "root" made 3 requests with live nonces; .* at most 3 per user: retry in 40 s/,
      );
      // Another account is not affected by root's full table.
      const other = answer(server, { username: 'operator', password: 'op-secret', uri: URI, cnonce: 'c' });
      expect(server.verify(other, 'GET', URI).ok).toBe(true);
      // Once root's nonce expired, its entries go and a fresh nonce is accepted again.
      clock.advance(40_000);
      expect(server.verify(answer(server, { uri: URI, cnonce: 'c', nc: 1 }), 'GET', URI).ok).toBe(true);
    });

    it('answers stale (not replay) for a repeated triple after the nonce expired', () => {
      const { server, clock } = setup({ replay: 'strict' });
      const header = answer(server, { uri: URI, cnonce: 'c' });
      expect(server.verify(header, 'GET', URI).ok).toBe(true);
      clock.advance(LIFETIME);
      expect(server.verify(header, 'GET', URI)).toEqual({
        ok: false,
        error: { code: 'STALE_NONCE', message: 'nonce expired', stale: true },
      });
    });
  });
});
