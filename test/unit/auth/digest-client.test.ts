import { parseCredentials } from '../../../src/auth/auth-params';
import { digestAuthorization } from '../../../src/auth/digest-client';
import { digestResponse } from '../../../src/auth/digest-hash';

function paramsOf(header: string): Record<string, string> {
  const parsed = parseCredentials(header);
  if (!parsed.ok) throw new Error(parsed.error.message);
  expect(parsed.value.scheme).toBe('Digest');
  return Object.fromEntries(parsed.value.params);
}

const RFC_CHALLENGE =
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"';

describe('digestAuthorization', () => {
  it('answers the RFC 7616 example challenge with the RFC answer', () => {
    const header = digestAuthorization(RFC_CHALLENGE, 'Mufasa', 'Circle of Life', 'GET', '/dir/index.html', {
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    });
    expect(paramsOf(header)).toEqual({
      username: 'Mufasa',
      realm: 'http-auth@example.org',
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      uri: '/dir/index.html',
      algorithm: 'MD5',
      response: '8ca523f5e9506fed4657c9700eebdbec',
      qop: 'auth',
      nc: '00000001',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
    });
  });

  it('answers the SHA-256 challenge of the RFC example with the RFC answer', () => {
    const header = digestAuthorization(
      RFC_CHALLENGE.replace('MD5', 'SHA-256'),
      'Mufasa',
      'Circle of Life',
      'GET',
      '/dir/index.html',
      {
        cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      },
    );
    expect(paramsOf(header).response).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
    expect(paramsOf(header).algorithm).toBe('SHA-256');
  });

  it('writes nc as 8 hex digits', () => {
    expect(paramsOf(digestAuthorization(RFC_CHALLENGE, 'u', 'p', 'GET', '/', { nc: 255 })).nc).toBe('000000ff');
    expect(paramsOf(digestAuthorization(RFC_CHALLENGE, 'u', 'p', 'GET', '/', { nc: 0x12345678 })).nc).toBe('12345678');
  });

  it('makes a fresh random cnonce each time unless told', () => {
    const a = paramsOf(digestAuthorization(RFC_CHALLENGE, 'u', 'p', 'GET', '/')).cnonce;
    const b = paramsOf(digestAuthorization(RFC_CHALLENGE, 'u', 'p', 'GET', '/')).cnonce;
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(a).not.toBe(b);
  });

  it('treats a challenge without algorithm as MD5', () => {
    const header = digestAuthorization('Digest realm="r", nonce="n", qop="auth"', 'u', 'p', 'GET', '/x', {
      cnonce: 'c',
    });
    const params = paramsOf(header);
    expect(params.algorithm).toBe('MD5');
    expect(params.opaque).toBeUndefined();
    expect(params.response).toBe(
      digestResponse({
        algorithm: 'MD5',
        username: 'u',
        password: 'p',
        realm: 'r',
        nonce: 'n',
        method: 'GET',
        uri: '/x',
        nc: '00000001',
        cnonce: 'c',
        qop: 'auth',
      }),
    );
  });

  it('quotes user names and URIs with quotes and backslashes so they parse back', () => {
    const params = paramsOf(
      digestAuthorization('Digest realm="r\\"x", nonce="n"', 'we"ird\\name', 'p', 'GET', '/a?b="c"'),
    );
    expect(params.username).toBe('we"ird\\name');
    expect(params.realm).toBe('r"x');
    expect(params.uri).toBe('/a?b="c"');
  });

  describe('choosing a challenge', () => {
    const offered = [
      'Digest realm="r", nonce="n-sha", algorithm=SHA-256, qop="auth"',
      'Digest realm="r", nonce="n-md5", algorithm=MD5, qop="auth"',
      'Basic realm="r"',
    ];

    it('takes the first usable Digest challenge by default', () => {
      expect(paramsOf(digestAuthorization(offered, 'u', 'p', 'GET', '/')).nonce).toBe('n-sha');
    });

    it('takes the challenge of the requested algorithm', () => {
      const params = paramsOf(digestAuthorization(offered, 'u', 'p', 'GET', '/', { algorithm: 'MD5' }));
      expect(params.nonce).toBe('n-md5');
      expect(params.algorithm).toBe('MD5');
    });

    it('finds a Digest challenge after a Basic one in the same header value', () => {
      expect(
        paramsOf(digestAuthorization('Basic realm="r", Digest realm="r", nonce="n2"', 'u', 'p', 'GET', '/')).nonce,
      ).toBe('n2');
    });

    it('skips unparseable values, unknown algorithms and challenges without realm or nonce', () => {
      const header = digestAuthorization(
        [
          'Digest realm="broken',
          'Digest realm="r", nonce="x", algorithm=SHA-1',
          'Digest nonce="no-realm"',
          'Digest realm="no-nonce"',
          'Digest realm="r", nonce="good"',
        ],
        'u',
        'p',
        'GET',
        '/',
      );
      expect(paramsOf(header).nonce).toBe('good');
    });

    it('throws when no usable Digest challenge is offered', () => {
      expect(() => digestAuthorization('Basic realm="r"', 'u', 'p', 'GET', '/')).toThrow(/no usable Digest challenge/);
      expect(() => digestAuthorization([], 'u', 'p', 'GET', '/')).toThrow(/no usable Digest challenge/);
      expect(() => digestAuthorization(offered, 'u', 'p', 'GET', '/', { algorithm: 'SHA-512-256' })).toThrow(
        /no usable Digest challenge for SHA-512-256/,
      );
    });
  });
});
