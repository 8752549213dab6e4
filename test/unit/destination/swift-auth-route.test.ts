/**
 * `GET /auth/v1.0` in isolation: the key is compared as a KnownSecret (constant time, any
 * length, one hash of the key given), for known and unknown users alike; a throttled
 * attempt is not compared at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoginThrottle } from '../../../src/auth/login-throttle';
import { KnownSecret } from '../../../src/auth/same-secret';
import { ManualClock } from '../../../src/base/clock';
import type { DestinationContext } from '../../../src/destination/destination-context';
import { authRoute } from '../../../src/destination/routes/swift-auth-route';
import { SwiftTokens } from '../../../src/destination/swift-tokens';

const matches = jest.spyOn(KnownSecret.prototype, 'matches');

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Runs the handler on a fake request with these headers and returns what it answered. */
function ask(headers: Record<string, string>, throttle = new LoginThrottle(RULES)): Answer {
  const clock = new ManualClock(0);
  const ctx = {
    options: {
      users: [{ user: 'bws', key: 'secret', account: 'AUTH_bws', readOnly: false }],
      clock,
      host: '127.0.0.1',
    },
    tokens: new SwiftTokens(clock, 900_000),
    loginThrottle: throttle,
    loginLog: { admit: () => true },
    log: { info: jest.fn(), warn: jest.fn() },
    scheme: 'http',
  } as unknown as DestinationContext;
  const answer: Answer = { status: 0, headers: {}, body: '' };
  const req = {
    method: 'GET',
    complete: true,
    headers: { host: 'dest', ...lower(headers) },
    socket: { remoteAddress: '10.0.0.1' },
  };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
    writeHead: (status: number, head: Record<string, string>) => {
      answer.status = status;
      for (const [name, value] of Object.entries(head)) answer.headers[name.toLowerCase()] = value;
    },
    end: (body?: string) => (answer.body = body ?? ''),
  };
  authRoute(ctx)(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  return answer;
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A throttle past which one wrong key blocks its address. */
const RULES = {
  clock: new ManualClock(0),
  perRemote: { failures: 1, windowMs: 10_000 },
  perRemoteUser: { failures: 1, windowMs: 10_000 },
};

beforeEach(() => matches.mockClear());

describe('authRoute key check', () => {
  it('issues a token for the right key, compared once', () => {
    const answer = ask({ 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-auth-token']).toMatch(/^AUTH_tk[0-9a-f]{32}$/);
    expect(matches.mock.calls).toEqual([['secret']]);
  });

  it('refuses wrong keys of any length, shorter, longer or empty, without throwing', () => {
    for (const key of ['secreT', 'secre', 'secrets', '', 'x'.repeat(1000), 'sëcret']) {
      let answer: Answer | undefined;
      expect(() => (answer = ask({ 'X-Auth-User': 'bws', 'Auth-Key': key }))).not.toThrow();
      expect(answer?.status).toBe(401);
      expect(answer?.body).toBe('Unauthorized: unknown user or wrong key\n');
      expect(matches).toHaveBeenLastCalledWith(key);
    }
  });

  it('compares the key even for an unknown user, so the answer takes as long', () => {
    const answer = ask({ 'X-Auth-User': 'mallory', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(401);
    expect(matches).toHaveBeenCalledTimes(1);
  });

  it('answers a throttled address 429 without comparing its key', () => {
    const throttle = new LoginThrottle(RULES);
    throttle.failed('10.0.0.1', 'mallory');
    const answer = ask({ 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' }, throttle);
    expect({ status: answer.status, retryAfter: answer.headers['retry-after'] }).toEqual({
      status: 429,
      retryAfter: '10',
    });
    expect(matches).not.toHaveBeenCalled();
  });
});
