import { sameSecret } from '../../../src/auth/same-secret';

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
