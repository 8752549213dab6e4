import { KnownSecret, sameDigest, sameSecret } from '../../../src/auth/same-secret';

describe('sameSecret', () => {
  it('is true for equal secrets', () => {
    expect(sameSecret('pass', 'pass')).toBe(true);
    expect(sameSecret('a:b:c', 'a:b:c')).toBe(true);
  });

  it('is false for different secrets of the same length, whichever byte differs', () => {
    expect(sameSecret('pass', 'PASS')).toBe(false);
    expect(sameSecret('pasx', 'pass')).toBe(false);
    expect(sameSecret('xass', 'pass')).toBe(false);
  });

  it('is false, without throwing, for secrets of different lengths (prefixes and extensions too)', () => {
    for (const given of ['pas', 'passs', 'p', 'pass'.repeat(100)]) {
      expect(() => sameSecret(given, 'pass')).not.toThrow();
      expect(sameSecret(given, 'pass')).toBe(false);
      expect(sameSecret('pass', given)).toBe(false);
    }
  });

  it('handles empty secrets', () => {
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('', 'pass')).toBe(false);
    expect(sameSecret('pass', '')).toBe(false);
  });

  it('compares non-ASCII secrets by their UTF-8 bytes', () => {
    expect(sameSecret('pässwörd', 'pässwörd')).toBe(true);
    expect(sameSecret('pässwörd', 'passwörd')).toBe(false);
    expect(sameSecret('🔑', '🔑')).toBe(true);
    expect(sameSecret('🔑', '🔒')).toBe(false);
    // Composed and decomposed forms are different bytes, so different secrets.
    expect(sameSecret('\u00e4', 'a\u0308')).toBe(false);
  });
});

describe('sameDigest', () => {
  const expected = '6629fae49393a05397450978507c4ef1';

  it('is true for the same hex digest', () => {
    expect(sameDigest(expected, expected)).toBe(true);
  });

  it('is false for another digest of the same length, whichever digit differs', () => {
    for (const at of [0, 15, 31]) {
      const other = expected.slice(0, at) + (expected[at] === '0' ? '1' : '0') + expected.slice(at + 1);
      expect(sameDigest(other, expected)).toBe(false);
    }
  });

  it('is false, without throwing, for answers of other lengths', () => {
    for (const given of ['', expected.slice(1), `${expected}0`, expected.repeat(4)]) {
      expect(() => sameDigest(given, expected)).not.toThrow();
      expect(sameDigest(given, expected)).toBe(false);
    }
  });

  it('compares non-ASCII answers by their UTF-8 bytes, so no character stands in for a hex digit', () => {
    // U+0161 is one UTF-8 character of two bytes; its low byte (0x61) is "a".
    const forged = `\u0161${expected.slice(1)}`;
    expect(sameDigest(forged, `a${expected.slice(1)}`)).toBe(false);
    expect(sameDigest(`\u0161${expected.slice(2)}`, `a${expected.slice(1)}`)).toBe(false);
  });
});

describe('KnownSecret', () => {
  it('answers as sameSecret does, for every pair', () => {
    const secrets = ['', 'pass', 'PASS', 'pas', 'passs', 'pässwörd', 'pass'.repeat(100)];
    for (const expected of secrets) {
      const known = new KnownSecret(expected);
      for (const given of secrets) expect(known.matches(given)).toBe(sameSecret(given, expected));
    }
  });
});
