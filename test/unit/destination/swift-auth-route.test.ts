/**
 * `GET /auth/v1.0` in isolation: the key is compared with sameSecret (constant
 * time, any length), for known and unknown users alike.
 */
import { DEFAULT_THROTTLE, LoginThrottle } from '../../../src/auth/login-throttle';
import type { Request, Response } from 'express';
import * as secrets from '../../../src/auth/same-secret';
import { ManualClock } from '../../../src/base/clock';
import type { DestinationContext } from '../../../src/destination/destination-context';
import { authRoute } from '../../../src/destination/routes/swift-auth-route';
import { SwiftTokens } from '../../../src/destination/swift-tokens';

jest.mock('../../../src/auth/same-secret', () => {
  const actual = jest.requireActual<typeof secrets>('../../../src/auth/same-secret');
  return { sameSecret: jest.fn(actual.sameSecret) };
});
const sameSecret = jest.mocked(secrets.sameSecret);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Runs the handler on a fake request with these headers and returns what it answered. */
function ask(headers: Record<string, string>): Answer {
  const clock = new ManualClock(0);
  const ctx = {
    options: {
      users: [{ user: 'bws', key: 'secret', account: 'AUTH_bws', readOnly: false }],
      clock,
      host: '127.0.0.1',
    },
    tokens: new SwiftTokens(clock, 900_000),
    loginThrottle: new LoginThrottle({ clock, ...DEFAULT_THROTTLE }),
    loginLog: { admit: () => true },
    log: { info: jest.fn(), warn: jest.fn() },
    scheme: 'http',
  } as unknown as DestinationContext;
  const answer: Answer = { status: 0, headers: {}, body: '' };
  const req = { method: 'GET', complete: true, headers: { host: 'dest', ...lower(headers) }, socket: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
    writeHead: (status: number, head: Record<string, string>) => {
      answer.status = status;
      for (const [name, value] of Object.entries(head)) answer.headers[name.toLowerCase()] = value;
    },
    end: (body?: string) => (answer.body = body ?? ''),
  };
  void authRoute(ctx)(req as unknown as Request, res as unknown as Response, jest.fn());
  return answer;
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

beforeEach(() => sameSecret.mockClear());

describe('authRoute key check', () => {
  it('issues a token for the right key, compared with sameSecret', () => {
    const answer = ask({ 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-auth-token']).toMatch(/^AUTH_tk[0-9a-f]{32}$/);
    expect(sameSecret).toHaveBeenCalledWith('secret', 'secret');
  });

  it('refuses wrong keys of any length, shorter, longer or empty, without throwing', () => {
    for (const key of ['secreT', 'secre', 'secrets', '', 'x'.repeat(1000), 'sëcret']) {
      let answer: Answer | undefined;
      expect(() => (answer = ask({ 'X-Auth-User': 'bws', 'Auth-Key': key }))).not.toThrow();
      expect(answer?.status).toBe(401);
      expect(answer?.body).toBe('Unauthorized: unknown user or wrong key\n');
      expect(sameSecret).toHaveBeenLastCalledWith(key, 'secret');
    }
  });

  it('compares the key even for an unknown user, so the answer takes as long', () => {
    const answer = ask({ 'X-Auth-User': 'mallory', 'X-Auth-Key': 'secret' });
    expect(answer.status).toBe(401);
    expect(sameSecret).toHaveBeenCalledTimes(1);
  });
});
