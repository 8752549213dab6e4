import { digestResponse, responseFromHa1 } from '../../../src/auth/digest-hash';
import { Ha1Cache } from '../../../src/auth/ha1-cache';
import * as quickHash from '../../../src/auth/quick-hash';

// The real hashing, counted: what the cache saves is calls to hashHex.
jest.mock('../../../src/auth/quick-hash', () => {
  const actual = jest.requireActual<typeof quickHash>('../../../src/auth/quick-hash');
  return { ...actual, hashHex: jest.fn(actual.hashHex) };
});
const hashHex = jest.mocked(quickHash.hashHex);

const REALM = 'SVC_ACCC8E000001';

describe('Ha1Cache', () => {
  it('gives H(username:realm:password) for each hash', () => {
    const cache = new Ha1Cache(REALM);
    for (const hash of ['md5', 'sha256', 'sha512-256'] as const)
      expect(cache.ha1(hash, 'root', 'pass')).toBe(hashHex(hash, `root:${REALM}:pass`));
  });

  it('hashes a password once per account and hash', () => {
    const cache = new Ha1Cache(REALM);
    hashHex.mockClear();
    const first = cache.ha1('md5', 'root', 'pass');
    expect(cache.ha1('md5', 'root', 'pass')).toBe(first);
    expect(hashHex).toHaveBeenCalledTimes(1);
    expect(cache.ha1('sha256', 'root', 'pass')).not.toBe(first);
    expect(cache.ha1('sha256', 'root', 'pass')).not.toBe(first);
    expect(cache.ha1('md5', 'root', 'pass')).toBe(first);
    expect(hashHex).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(1);
  });

  it('computes a new HA1 when the password changes, and hashes again when it changes back', () => {
    const cache = new Ha1Cache(REALM);
    const old = cache.ha1('md5', 'root', 'pass');
    hashHex.mockClear();
    const changed = cache.ha1('md5', 'root', 'new secret');
    expect(hashHex).toHaveBeenCalledTimes(1);
    expect(changed).not.toBe(old);
    // Back to the first password: the new password's entry replaced its own, so it is hashed again.
    expect(cache.ha1('md5', 'root', 'pass')).toBe(old);
    expect(hashHex).toHaveBeenCalledTimes(2);
    expect(changed).toBe(hashHex('md5', `root:${REALM}:new secret`));
    expect(cache.ha1('sha256', 'root', 'pass')).toBe(hashHex('sha256', `root:${REALM}:pass`));
    expect(cache.size).toBe(1);
  });

  it('keeps accounts apart', () => {
    const cache = new Ha1Cache(REALM);
    expect(cache.ha1('md5', 'root', 'pass')).not.toBe(cache.ha1('md5', 'viewer', 'pass'));
    expect(cache.size).toBe(2);
  });

  it('starts over past its bound instead of growing', () => {
    const cache = new Ha1Cache(REALM);
    for (let i = 0; i < 3_000; i++) cache.ha1('md5', `user${i}`, 'pass');
    expect(cache.size).toBeLessThanOrEqual(1_024);
    expect(cache.ha1('md5', 'user1', 'pass')).toBe(hashHex('md5', `user1:${REALM}:pass`));
  });

  it('gives the responses digestResponse gives, -sess algorithms included', () => {
    const cache = new Ha1Cache(REALM);
    const request = { method: 'GET', uri: '/x?y=1', nonce: 'n0nce', nc: '00000001', cnonce: 'c', qop: 'auth' } as const;
    for (const algorithm of ['MD5', 'MD5-sess', 'SHA-256', 'SHA-256-sess', 'SHA-512-256-sess'] as const) {
      const hash = algorithm.startsWith('MD5') ? 'md5' : algorithm.startsWith('SHA-256') ? 'sha256' : 'sha512-256';
      expect(responseFromHa1(algorithm, cache.ha1(hash, 'root', 'pass'), request)).toBe(
        digestResponse({ ...request, algorithm, username: 'root', realm: REALM, password: 'pass' }),
      );
    }
  });
});
