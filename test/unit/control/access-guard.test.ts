/** Who may use the control API: a bearer token when one is set, loopback clients only otherwise. */
import request from 'supertest';
import { bearerToken, isLoopback, LOOPBACK_ONLY } from '../../../src/control/access-guard';
import { expectRefusal } from './answers';
import { type ControlServer, startControl } from './fake-emulator';

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.255.3.4', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.1.2.3'])(
    'takes %s',
    (address) => expect(isLoopback(address)).toBe(true),
  );

  it.each([undefined, '', '10.0.0.1', '128.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', '127.0.0', '1127.0.0.1'])(
    'refuses %s',
    (address) => expect(isLoopback(address)).toBe(false),
  );
});

describe('tokens', () => {
  it('reads the bearer token of an Authorization header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('with a control token', () => {
  let ctl: ControlServer;
  beforeAll(async () => {
    ctl = await startControl({ token: 's3cret' });
  });
  afterAll(() => ctl.close());

  it('refuses a request without the token with 401 and WWW-Authenticate, on every path', async () => {
    for (const path of ['/_emu/health', '/_emu/openapi.json', '/_emu/nothing']) {
      const res = await request(ctl.server).get(path);
      expect(expectRefusal(res, 401, 'UNAUTHORIZED')).toContain('Authorization: Bearer');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    }
  });

  it('refuses a wrong token, or another scheme, with 401', async () => {
    expectRefusal(
      await request(ctl.server).get('/_emu/flags').set('Authorization', 'Bearer s3cre'),
      401,
      'UNAUTHORIZED',
    );
    expectRefusal(await request(ctl.server).get('/_emu/flags').auth('root', 's3cret'), 401, 'UNAUTHORIZED');
    expect(ctl.emulator.calls).toEqual([]);
  });

  it('serves a request with the token', async () => {
    await request(ctl.server).get('/_emu/flags').set('Authorization', 'Bearer s3cret').expect(200);
  });
});

describe('the remote address', () => {
  /** Makes every request look as if it came from `address`. */
  const from =
    (address: string) =>
    (req: { socket: object }, _res: unknown, next: () => void): void => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: address, configurable: true });
      next();
    };

  it('without a token, serves a client on the loopback (a real request from 127.0.0.1)', async () => {
    const ctl = await startControl();
    try {
      await request(ctl.server).get('/_emu/health').expect(200);
    } finally {
      await ctl.close();
    }
  });

  it('without a token, refuses any other client with 403 FORBIDDEN, logged at info', async () => {
    const ctl = await startControl({}, from('192.0.2.7'));
    try {
      for (const path of ['/_emu/health', '/_emu/nothing']) {
        expect(expectRefusal(await request(ctl.server).get(path), 403, 'FORBIDDEN')).toBe(LOOPBACK_ONLY);
      }
      expect(ctl.logs).toContainEqual(expect.objectContaining({ level: 30, status: 403, remote: '192.0.2.7' }));
    } finally {
      await ctl.close();
    }
  });

  it('with a token, serves any client that has it', async () => {
    const ctl = await startControl({ token: 't' }, from('192.0.2.7'));
    try {
      await request(ctl.server).get('/_emu/health').set('Authorization', 'Bearer t').expect(200);
    } finally {
      await ctl.close();
    }
  });
});
