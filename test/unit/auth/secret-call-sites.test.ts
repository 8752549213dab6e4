/**
 * Every password check of the device goes through sameSecret (constant time, any length), and
 * every digest response check through sameDigest (constant time for the algorithm's length).
 */
import * as secrets from '../../../src/auth/same-secret';
import { verifyBasic } from '../../../src/auth/basic';
import { DigestServer } from '../../../src/auth/digest';
import { digestAuthorization } from '../../../src/auth/digest-client';
import { ManualClock } from '../../../src/base/clock';

jest.mock('../../../src/auth/same-secret', () => {
  const actual = jest.requireActual<typeof secrets>('../../../src/auth/same-secret');
  return { sameSecret: jest.fn(actual.sameSecret), sameDigest: jest.fn(actual.sameDigest) };
});
const sameSecret = jest.mocked(secrets.sameSecret);
const sameDigest = jest.mocked(secrets.sameDigest);

const passwordOf = (name: string): string | undefined => (name === 'root' ? 'pass' : undefined);
const basic = (userPass: string): string => `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;

beforeEach(() => {
  sameSecret.mockClear();
  sameDigest.mockClear();
});

describe('verifyBasic', () => {
  it('compares the password with sameSecret', () => {
    expect(verifyBasic(basic('root:pass'), passwordOf).ok).toBe(true);
    expect(sameSecret).toHaveBeenCalledWith('pass', 'pass');
  });

  it('refuses a wrong password of another length without throwing', () => {
    for (const guess of ['p', 'passpass', '', 'pä']) {
      expect(() => verifyBasic(basic(`root:${guess}`), passwordOf)).not.toThrow();
      expect(verifyBasic(basic(`root:${guess}`), passwordOf)).toMatchObject({
        ok: false,
        error: { code: 'WRONG_PASSWORD' },
      });
      expect(sameSecret).toHaveBeenLastCalledWith(guess, 'pass');
    }
  });

  it('still compares for an unknown user, so the answer takes as long', () => {
    expect(verifyBasic(basic('mallory:pass'), passwordOf)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_USER' },
    });
    expect(sameSecret).toHaveBeenCalledTimes(1);
  });
});

describe('DigestServer', () => {
  const server = new DigestServer({
    realm: 'SVC',
    algorithms: ['MD5'],
    nonceLifetimeMs: 60_000,
    replay: 'lenient',
    clock: new ManualClock(),
    passwordOf,
  });
  const header = (password: string): string =>
    digestAuthorization(server.challenges(), 'root', password, 'GET', '/x', { cnonce: 'abc' });

  it('compares the response with sameDigest', () => {
    expect(server.verify(header('pass'), 'GET', '/x').ok).toBe(true);
    expect(sameDigest).toHaveBeenCalledTimes(1);
  });

  it('refuses a response of another length without throwing', () => {
    const short = header('pass').replace(/response="([0-9a-f]+)"/, 'response="$1ab"');
    expect(() => server.verify(short, 'GET', '/x')).not.toThrow();
    expect(server.verify(short, 'GET', '/x')).toMatchObject({ ok: false, error: { code: 'WRONG_PASSWORD' } });
    expect(sameDigest).toHaveBeenCalled();
  });
});
