import {
  DIGEST_ALGORITHMS,
  type DigestAlgorithm,
  type DigestInputs,
  digestResponse,
  hashOf,
  parseAlgorithm,
} from '../../../src/auth/digest-hash';
import { hashHex } from '../../../src/auth/quick-hash';

/** The hex digest of `text` with the hash of `algorithm`, as the server and client compute it. */
function hasher(algorithm: DigestAlgorithm): (text: string) => string {
  return (text) => hashHex(hashOf(algorithm), text);
}

/** RFC 7616 section 3.9.1: the same request answered with MD5 and with SHA-256. */
const RFC7616_EXAMPLE: Omit<DigestInputs, 'algorithm'> = {
  username: 'Mufasa',
  password: 'Circle of Life',
  realm: 'http-auth@example.org',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  uri: '/dir/index.html',
  method: 'GET',
  nc: '00000001',
  qop: 'auth',
};

describe('digestResponse: RFC 7616 section 3.9.1 known answers', () => {
  it('MD5 gives 8ca523f5e9506fed4657c9700eebdbec', () => {
    expect(digestResponse({ ...RFC7616_EXAMPLE, algorithm: 'MD5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
  });

  it('SHA-256 gives 753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1', () => {
    expect(digestResponse({ ...RFC7616_EXAMPLE, algorithm: 'SHA-256' })).toBe(
      '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
    );
  });

  it('RFC 2617 section 3.5 (MD5, qop=auth) gives 6629fae49393a05397450978507c4ef1', () => {
    expect(
      digestResponse({
        algorithm: 'MD5',
        username: 'Mufasa',
        password: 'Circle Of Life',
        realm: 'testrealm@host.com',
        nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
        cnonce: '0a4f113b',
        uri: '/dir/index.html',
        method: 'GET',
        nc: '00000001',
        qop: 'auth',
      }),
    ).toBe('6629fae49393a05397450978507c4ef1');
  });
});

describe('hashOf', () => {
  // FIPS 180-4 / RFC 1321 test vectors for "abc".
  it.each([
    ['MD5', '900150983cd24fb0d6963f7d28e17f72'],
    ['SHA-256', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    // SHA-512/256 has its own initial values: not SHA-512 cut to 256 bits.
    ['SHA-512-256', '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23'],
  ] as const)('%s("abc") is the standard test vector', (algorithm, expected) => {
    expect(hasher(algorithm)('abc')).toBe(expected);
  });

  it('the -sess forms use the same hash function as their base', () => {
    expect(hasher('MD5-sess')('abc')).toBe(hasher('MD5')('abc'));
    expect(hasher('SHA-256-sess')('abc')).toBe(hasher('SHA-256')('abc'));
    expect(hasher('SHA-512-256-sess')('abc')).toBe(hasher('SHA-512-256')('abc'));
  });

  it('hashes UTF-8 text', () => {
    expect(hasher('MD5')('\u00e4')).toBe('8419b71c87a225a2c70b50486fbee545');
  });
});

describe('digestResponse: -sess algorithms', () => {
  it('MD5-sess uses HA1 = H(H(user:realm:password):nonce:cnonce)', () => {
    const h = hasher('MD5');
    const { username, realm, password, nonce, cnonce, method, uri, nc } = RFC7616_EXAMPLE;
    const ha1 = h(`${h(`${username}:${realm}:${password}`)}:${nonce}:${cnonce}`);
    const ha2 = h(`${method}:${uri}`);
    expect(digestResponse({ ...RFC7616_EXAMPLE, algorithm: 'MD5-sess' })).toBe(
      h(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`),
    );
  });

  it('every algorithm gives a different answer of the right length', () => {
    const answers = DIGEST_ALGORITHMS.map((algorithm) => digestResponse({ ...RFC7616_EXAMPLE, algorithm }));
    expect(new Set(answers).size).toBe(DIGEST_ALGORITHMS.length);
    expect(answers.map((a) => a.length)).toEqual([32, 32, 64, 64, 64, 64]);
  });
});

describe('parseAlgorithm', () => {
  it('finds every RFC 7616 algorithm, case-insensitively', () => {
    for (const algorithm of DIGEST_ALGORITHMS) {
      expect(parseAlgorithm(algorithm)).toBe(algorithm);
      expect(parseAlgorithm(algorithm.toLowerCase())).toBe(algorithm);
    }
  });

  it.each(['', 'SHA-1', 'SHA256', 'MD5-SESS-X', 'sha-512'])('refuses %j', (value) => {
    expect(parseAlgorithm(value)).toBeUndefined();
  });
});
