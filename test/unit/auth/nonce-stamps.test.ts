import * as crypto from 'node:crypto';
import { NONCE_HEX_LENGTH, NonceStamps } from '../../../src/auth/nonce-stamps';

// The real HMAC, counted: a remembered nonce is checked without one.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof crypto>('node:crypto');
  return { ...actual, createHmac: jest.fn(actual.createHmac) };
});
const createHmac = jest.mocked(crypto.createHmac);

const SECRET = Buffer.alloc(32, 7);

describe('NonceStamps', () => {
  it('issues 64 lower-case hex digits, a new one every time', () => {
    const stamps = new NonceStamps();
    const seen = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const nonce = stamps.issue(1_000);
      expect(nonce).toMatch(/^[0-9a-f]{64}$/);
      seen.add(nonce);
    }
    expect(NONCE_HEX_LENGTH).toBe(64);
    expect(seen.size).toBe(1_000);
  });

  it('tells the issue time of its own nonces, remembered or not', () => {
    const stamps = new NonceStamps(SECRET, 2);
    const early = stamps.issue(1_700_000_000_123);
    stamps.issue(5);
    stamps.issue(6); // `early` is no longer remembered: its HMAC is checked
    expect(stamps.issuedAt(early)).toBe(1_700_000_000_123);
    expect(stamps.issuedAt(early)).toBe(1_700_000_000_123);
  });

  it('checks the nonces of another instance with the same secret by their HMAC', () => {
    const nonce = new NonceStamps(SECRET).issue(42);
    expect(new NonceStamps(SECRET).issuedAt(nonce)).toBe(42);
    expect(new NonceStamps(Buffer.alloc(32, 8)).issuedAt(nonce)).toBeUndefined();
  });

  it('refuses altered, truncated, upper-case and foreign nonces, remembered ones altered included', () => {
    const stamps = new NonceStamps(SECRET);
    const nonce = stamps.issue(1_000);
    const flip = (at: number): string => nonce.slice(0, at) + (nonce[at] === '0' ? '1' : '0') + nonce.slice(at + 1);
    for (const at of [0, 15, 16, 31, 32, 63]) expect(stamps.issuedAt(flip(at))).toBeUndefined();
    for (const bad of [nonce.slice(2), `${nonce}00`, nonce.toUpperCase(), '', 'z'.repeat(64)])
      expect(stamps.issuedAt(bad)).toBeUndefined();
  });

  it('refuses every earlier nonce once renewed, remembered ones included', () => {
    const stamps = new NonceStamps();
    const before = stamps.issue(1_000);
    expect(stamps.issuedAt(before)).toBe(1_000);
    stamps.renew();
    expect(stamps.issuedAt(before)).toBeUndefined();
    expect(stamps.issuedAt(stamps.issue(2_000))).toBe(2_000);
  });

  it('bounds what it remembers, and still accepts what it forgot', () => {
    const stamps = new NonceStamps(SECRET, 4);
    const nonces = Array.from({ length: 100 }, (_, i) => stamps.issue(i));
    createHmac.mockClear();
    // The last 4 issued are remembered: looked up, no HMAC.
    for (const i of [99, 98, 97, 96]) expect(stamps.issuedAt(nonces[i])).toBe(i);
    expect(createHmac).not.toHaveBeenCalled();
    // The 96 before them were forgotten: each is checked by its HMAC, and still accepted.
    for (let i = 0; i < 96; i++) expect(stamps.issuedAt(nonces[i])).toBe(i);
    expect(createHmac).toHaveBeenCalledTimes(96);
    // A checked nonce is remembered in turn, the oldest going out: only the last 4 checked are kept.
    createHmac.mockClear();
    for (const i of [95, 94, 93, 92]) expect(stamps.issuedAt(nonces[i])).toBe(i);
    expect(createHmac).not.toHaveBeenCalled();
    for (const i of [91, 99]) expect(stamps.issuedAt(nonces[i])).toBe(i);
    expect(createHmac).toHaveBeenCalledTimes(2);
  });
});
