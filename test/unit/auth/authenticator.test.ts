/**
 * The Authenticator's fixed facts and its use of the login throttle: the accepted schemes are
 * worked out once from the options, and a request's remote address is read for the throttle
 * only while some failed login keeps a window open.
 */
import type { IncomingMessage } from 'node:http';
import { type AuthMode, Authenticator } from '../../../src/auth/authenticator';
import { ManualClock } from '../../../src/base/clock';

function authenticator(
  mode: AuthMode,
  options: { plainHttp?: boolean; basicOverHttp?: boolean } = {},
): { auth: Authenticator; clock: ManualClock } {
  const clock = new ManualClock();
  const auth = new Authenticator({
    mode,
    accounts: [{ name: 'root', password: 'pass', role: 'admin' }],
    realm: 'R',
    algorithms: ['MD5'],
    nonceLifetimeMs: 60_000,
    replay: 'lenient',
    clock,
    throttle: { perRemote: { failures: 5, windowMs: 10_000 }, perRemoteUser: { failures: 5, windowMs: 10_000 } },
    ...options,
  });
  return { auth, clock };
}

/** A request with Basic credentials whose socket counts the reads of its remote address. */
function basicRequest(password: string): { req: IncomingMessage; reads: () => number } {
  let reads = 0;
  const socket = {
    get remoteAddress(): string {
      reads++;
      return '10.0.0.7';
    },
  };
  const authorization = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
  const req = { method: 'GET', url: '/', headers: { authorization }, socket } as unknown as IncomingMessage;
  return { req, reads: () => reads };
}

describe('Authenticator', () => {
  it.each([
    ['digest', {}, ['digest']],
    ['basic', { plainHttp: true }, ['basic']],
    ['both', { plainHttp: true }, ['digest']],
    ['both', { plainHttp: true, basicOverHttp: true }, ['digest', 'basic']],
    ['both', { plainHttp: false }, ['digest', 'basic']],
    ['none', {}, []],
  ] as const)('accepts for mode %s with %j: %j, the same list on every read', (mode, options, schemes) => {
    const { auth } = authenticator(mode, options);
    expect(auth.schemes).toEqual(schemes);
    expect(auth.schemes).toBe(auth.schemes);
    const challenges =
      mode === 'none' ? [] : (auth.unauthorized(basicRequest('x').req).headers['WWW-Authenticate'] as string[]);
    expect(challenges.map((c) => c.split(' ')[0].toLowerCase())).toEqual(schemes);
  });

  it('reads the remote address for the throttle only while a failed login keeps a window open', () => {
    const { auth, clock } = authenticator('basic');
    const good = basicRequest('pass');
    expect(auth.verify(good.req).ok).toBe(true);
    expect(good.reads()).toBe(0);
    const wrong = basicRequest('wrong');
    expect(auth.verify(wrong.req)).toMatchObject({ ok: false, error: { code: 'WRONG_PASSWORD' } });
    // Read once: the failure is counted against the address.
    expect(wrong.reads()).toBe(1);
    expect(auth.verify(good.req).ok).toBe(true);
    expect(good.reads()).toBe(1);
    // The window ends; the next check drops it, and from then nothing is read again.
    clock.advance(10_000);
    expect(auth.verify(good.req).ok).toBe(true);
    expect(auth.verify(good.req).ok).toBe(true);
    expect(good.reads()).toBe(2);
  });
});
