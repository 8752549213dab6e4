import fc from 'fast-check';
import {
  type AuthParams,
  parseChallenges,
  parseCredentials,
  type ParseResult,
  quote,
} from '../../../src/auth/auth-params';
import { propertyRuns } from '../../helpers/fast-check-config';

function credentials(header: string): AuthParams {
  const result = parseCredentials(header);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(header)} to parse: ${result.error.message}`);
  return result.value;
}

function challenges(header: string): AuthParams[] {
  const result = parseChallenges(header);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(header)} to parse: ${result.error.message}`);
  return result.value;
}

function reasonFor(header: string, parse: (h: string) => ParseResult<unknown> = parseChallenges): string {
  const result = parse(header);
  if (result.ok) throw new Error(`expected ${JSON.stringify(header)} to be rejected`);
  return result.error.message;
}

describe('parseCredentials: digest parameter lists', () => {
  it('parses a full digest credentials header with quoted and token values', () => {
    const value = credentials(
      'Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    );
    expect(value.scheme).toBe('Digest');
    expect(value.token68).toBeUndefined();
    expect(Object.fromEntries(value.params)).toEqual({
      username: 'Mufasa',
      realm: 'http-auth@example.org',
      uri: '/dir/index.html',
      algorithm: 'MD5',
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      nc: '00000001',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      qop: 'auth',
      response: '8ca523f5e9506fed4657c9700eebdbec',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
    });
  });

  it('lower-cases parameter names but keeps the scheme and values as written', () => {
    const value = credentials('DIGEST UserName="MiXeD", REALM=Abc');
    expect(value.scheme).toBe('DIGEST');
    expect(value.params.get('username')).toBe('MiXeD');
    expect(value.params.get('realm')).toBe('Abc');
  });

  it('unescapes backslash escapes inside quoted strings', () => {
    const value = credentials('Digest username="a\\"b", realm="back\\\\slash", uri="\\x"');
    expect(value.params.get('username')).toBe('a"b');
    expect(value.params.get('realm')).toBe('back\\slash');
    expect(value.params.get('uri')).toBe('x');
  });

  it('reads a value without escapes as is when a later value has some', () => {
    const value = credentials('Digest username="plain", realm="a\\"b", uri="\\\\"');
    expect(value.params.get('username')).toBe('plain');
    expect(value.params.get('realm')).toBe('a"b');
    expect(value.params.get('uri')).toBe('\\');
  });

  it('keeps commas, equals signs and spaces inside quoted strings', () => {
    const value = credentials('Digest realm="a, b=c", uri="/p?x=1&y=2"');
    expect(value.params.get('realm')).toBe('a, b=c');
    expect(value.params.get('uri')).toBe('/p?x=1&y=2');
  });

  it('accepts an empty quoted string', () => {
    expect(credentials('Digest opaque=""').params.get('opaque')).toBe('');
  });

  it('tolerates spaces and tabs around "=" and ",", and empty list elements', () => {
    const value = credentials('Digest  realm = "r" ,\t, nonce\t=\tn ,');
    expect(Object.fromEntries(value.params)).toEqual({ realm: 'r', nonce: 'n' });
  });

  it('accepts leading whitespace and commas before the scheme', () => {
    expect(credentials('  , Digest realm="r"').params.get('realm')).toBe('r');
  });

  it('accepts a scheme with no parameters', () => {
    const value = credentials('Digest');
    expect(value.scheme).toBe('Digest');
    expect(value.params.size).toBe(0);
  });

  it('refuses more than one set of credentials', () => {
    expect(reasonFor('Digest realm="a", Basic realm="b"', parseCredentials)).toMatch(
      /expected one set of credentials, found 2/,
    );
  });
});

describe('parseCredentials: token68', () => {
  it('reads a Basic token68', () => {
    const value = credentials('Basic dXNlcjpwYXNz');
    expect(value).toEqual({ scheme: 'Basic', params: new Map(), token68: 'dXNlcjpwYXNz' });
  });

  it('keeps the "=" padding of a token68', () => {
    expect(credentials('Basic YWI6Yw==').token68).toBe('YWI6Yw==');
    expect(credentials('Basic YTpi=').token68).toBe('YTpi=');
  });

  it('accepts the token68 alphabet (- . _ ~ + /)', () => {
    expect(credentials('Bearer a-b.c_d~e+f/g').token68).toBe('a-b.c_d~e+f/g');
  });

  it('allows trailing spaces after a token68', () => {
    expect(credentials('Basic dXNlcjpwYXNz   ').token68).toBe('dXNlcjpwYXNz');
  });

  it('refuses text after a token68', () => {
    expect(reasonFor('Basic dXNl cjpw', parseCredentials)).toMatch(/unexpected text after Basic credentials|expected/);
  });

  it('reads "name=" standing alone as a token68, as the RFC 7235 grammar says', () => {
    expect(credentials('Digest realm=').token68).toBe('realm=');
  });

  it('does not mistake name=value for a token68', () => {
    const value = credentials('Basic realm="x"');
    expect(value.token68).toBeUndefined();
    expect(value.params.get('realm')).toBe('x');
  });
});

describe('parseChallenges: several challenges in one header', () => {
  it('splits Digest and Basic challenges joined by commas', () => {
    const value = challenges(
      'Digest realm="SVC_ACCC8E000001", nonce="abc", algorithm=MD5, qop="auth", Basic realm="SVC_ACCC8E000001"',
    );
    expect(value.map((c) => c.scheme)).toEqual(['Digest', 'Basic']);
    expect(Object.fromEntries(value[0].params)).toEqual({
      realm: 'SVC_ACCC8E000001',
      nonce: 'abc',
      algorithm: 'MD5',
      qop: 'auth',
    });
    expect(Object.fromEntries(value[1].params)).toEqual({ realm: 'SVC_ACCC8E000001' });
  });

  it('splits two Digest challenges with different algorithms', () => {
    const value = challenges(
      'Digest realm="r", nonce="n1", algorithm=SHA-256, qop="auth", Digest realm="r", nonce="n2", algorithm=MD5, qop="auth", stale=true',
    );
    expect(value.map((c) => c.params.get('algorithm'))).toEqual(['SHA-256', 'MD5']);
    expect(value[1].params.get('stale')).toBe('true');
  });

  it('reads a token68 challenge followed by a parameter challenge', () => {
    const value = challenges('Negotiate abc==, Basic realm="r"');
    expect(value[0]).toEqual({ scheme: 'Negotiate', params: new Map(), token68: 'abc==' });
    expect(value[1].params.get('realm')).toBe('r');
  });

  it('reads bare schemes in a list', () => {
    expect(challenges('Negotiate, NTLM').map((c) => c.scheme)).toEqual(['Negotiate', 'NTLM']);
  });
});

describe('malformed input gives a reason', () => {
  it.each([
    ['', /empty header/],
    ['   ', /empty header/],
    [',,,', /empty header/],
    ['"Digest"', /expected an auth scheme at column 1/],
    ['Digest realm="unterminated', /bad value for parameter "realm"/],
    ['Digest realm="ends in backslash\\', /bad value for parameter "realm"/],
    ['Digest realm=, nonce="n"', /expected a space after "nonce"/],
    ['Digest realm="a" nonce="b"', /expected ',' after parameter "realm"/],
    ['Digest realm="a", realm="b"', /parameter "realm" given twice/],
    ['Digest REALM="a", realm="b"', /parameter "realm" given twice/],
    ['Digest realm="a", =b', /expected a parameter name/],
    ['Digest realm="a"x', /expected ',' after parameter "realm"/],
    ['Digest;realm="a"', /expected a space after "Digest"/],
  ])('%j is refused (%s)', (header, reason) => {
    expect(reasonFor(header)).toMatch(reason);
  });
});

describe('quote', () => {
  it('wraps in double quotes and escapes quotes and backslashes', () => {
    expect(quote('plain')).toBe('"plain"');
    expect(quote('a"b\\c')).toBe('"a\\"b\\\\c"');
  });

  it('round-trips any string through parseCredentials', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const parsed = parseCredentials(`Digest realm=${quote(value)}`);
        expect(parsed.ok && parsed.value.params.get('realm')).toBe(value);
      }),
      propertyRuns(300),
    );
  });
});

describe('totality (property)', () => {
  /** Strings built from the pieces headers are made of, to reach deep into the parser. */
  const headerish = fc
    .array(
      fc.constantFrom(
        'Digest',
        'Basic',
        'realm',
        'nonce',
        'x',
        ' ',
        '\t',
        ',',
        '=',
        '==',
        '"',
        '\\',
        '"a\\"b"',
        'abc',
        '/',
        ':',
        ';',
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''));

  it('any string gives a result and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), headerish), (header) => {
        for (const parse of [parseChallenges, parseCredentials]) {
          const result = parse(header);
          if (result.ok) expect(Array.isArray(result.value) || typeof result.value === 'object').toBe(true);
          else expect(typeof result.error.message).toBe('string');
        }
      }),
      propertyRuns(1000),
    );
  });

  it('a parsed challenge list is never empty and every scheme is a non-empty token', () => {
    fc.assert(
      fc.property(headerish, (header) => {
        const result = parseChallenges(header);
        if (!result.ok) return;
        expect(result.value.length).toBeGreaterThan(0);
        for (const c of result.value) expect(c.scheme).toMatch(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
      }),
      propertyRuns(1000),
    );
  });
});
