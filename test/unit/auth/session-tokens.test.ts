import { randomBytes } from 'node:crypto';
import type * as NodeCrypto from 'node:crypto';
import { DEFAULT_TOKENS_PER_ACCOUNT, SessionTokens } from '../../../src/auth/session-tokens';
import { ManualClock } from '../../../src/base/clock';

// randomBytes stays real; one test feeds it a digits-only draw.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof NodeCrypto>('node:crypto');
  return { ...actual, randomBytes: jest.fn(actual.randomBytes) };
});

/** A token the store must issue (the tests below stay under the per-account limit). */
function issued(tokens: SessionTokens, user: string): string {
  const result = tokens.issue(user);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function setup(lifetimeMs?: number): { tokens: SessionTokens; clock: ManualClock } {
  const clock = new ManualClock();
  return { tokens: new SessionTokens(clock, lifetimeMs), clock };
}

describe('SessionTokens: lifetime', () => {
  it('lives 15 s by default', () => {
    expect(setup().tokens.lifetimeMs).toBe(15_000);
  });

  it('is valid 14 999 ms after issue', () => {
    const { tokens, clock } = setup();
    const token = issued(tokens, 'root');
    clock.advance(14_999);
    expect(tokens.consume(token)).toEqual({ ok: true, value: { username: 'root', via: undefined, number: 1 } });
  });

  it('is expired exactly 15 000 ms after issue', () => {
    const { tokens, clock } = setup();
    const token = issued(tokens, 'root');
    clock.advance(15_000);
    expect(tokens.consume(token)).toEqual({
      ok: false,
      error: { code: 'expired', message: 'session token expired', number: 1 },
    });
  });

  it('stays refused after an expired attempt', () => {
    const { tokens, clock } = setup();
    const token = issued(tokens, 'root');
    clock.advance(20_000);
    expect(tokens.consume(token).ok).toBe(false);
    clock.set(0);
    expect(tokens.consume(token).ok).toBe(false);
  });

  it('honours a configured lifetime', () => {
    const { tokens, clock } = setup(1_000);
    const early = issued(tokens, 'root');
    const late = issued(tokens, 'root');
    clock.advance(999);
    expect(tokens.consume(early).ok).toBe(true);
    clock.advance(1);
    expect(tokens.consume(late)).toEqual({
      ok: false,
      error: { code: 'expired', message: 'session token expired', number: 2 },
    });
  });

  it('refuses an expired token even after other tokens were issued in between', () => {
    const { tokens, clock } = setup();
    const token = issued(tokens, 'root');
    clock.advance(15_000);
    issued(tokens, 'root');
    expect(tokens.consume(token).ok).toBe(false);
  });
});

describe('SessionTokens: single use', () => {
  it('refuses a second use as reused', () => {
    const { tokens } = setup();
    const token = issued(tokens, 'root');
    expect(tokens.consume(token)).toEqual({ ok: true, value: { username: 'root', via: undefined, number: 1 } });
    expect(tokens.consume(token)).toEqual({
      ok: false,
      error: { code: 'reused', message: 'session token reused', number: 1 },
    });
  });

  it('still says reused after other tokens were issued', () => {
    const { tokens, clock } = setup();
    const token = issued(tokens, 'root');
    tokens.consume(token);
    clock.advance(10_000);
    issued(tokens, 'other');
    expect(tokens.consume(token)).toEqual({
      ok: false,
      error: { code: 'reused', message: 'session token reused', number: 1 },
    });
  });

  it('refuses a token it never issued as unknown', () => {
    const { tokens } = setup();
    expect(tokens.consume('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toEqual({
      ok: false,
      error: { code: 'unknown', message: 'session token unknown' },
    });
    expect(tokens.consume('')).toEqual({ ok: false, error: { code: 'unknown', message: 'session token unknown' } });
  });

  it('remembers the user each token was issued to', () => {
    const { tokens } = setup();
    const a = issued(tokens, 'alice');
    const b = issued(tokens, 'bob');
    expect(tokens.consume(b)).toEqual({ ok: true, value: { username: 'bob', via: undefined, number: 2 } });
    expect(tokens.consume(a)).toEqual({ ok: true, value: { username: 'alice', via: undefined, number: 1 } });
  });

  it('numbers tokens in issue order, and tells the number of a pending one only', () => {
    const { tokens } = setup();
    const a = issued(tokens, 'alice');
    const b = issued(tokens, 'bob');
    expect([tokens.numberOf(a), tokens.numberOf(b), tokens.numberOf('AAAA')]).toEqual([1, 2, undefined]);
    tokens.consume(a);
    expect(tokens.numberOf(a)).toBeUndefined();
  });

  it('counts pending tokens: issued, neither used nor expired', () => {
    const { tokens, clock } = setup();
    const a = issued(tokens, 'root');
    issued(tokens, 'root');
    expect(tokens.pending()).toBe(2);
    tokens.consume(a);
    expect(tokens.pending()).toBe(1);
    clock.advance(15_000);
    expect(tokens.pending()).toBe(0);
  });
});

describe('SessionTokens: format', () => {
  it('is 19 decimal digits by default, as real devices issue it: no leading zero, beyond 2^53, within int64, unique', () => {
    const tokens = new SessionTokens(new ManualClock());
    expect(tokens.format).toBe('decimal');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const token = issued(tokens, 'root');
      expect(token).toMatch(/^[1-9]\d{18}$/);
      expect(BigInt(token) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(BigInt(token) <= 2n ** 63n - 1n).toBe(true);
      seen.add(token);
    }
    expect(seen.size).toBe(500);
  });

  it('draws each decimal token again when a 63-bit draw has fewer than 19 digits (no leading zero, no bias)', () => {
    // All-zero bytes give 0 (rejected); then 0x7f.. gives 2^63 - 1.
    jest
      .mocked(randomBytes)
      .mockImplementationOnce((size: number) => Buffer.concat([Buffer.alloc(8, 0), Buffer.alloc(size - 8, 0xff)]));
    const token = issued(new SessionTokens(new ManualClock()), 'root');
    expect(token).toBe((2n ** 63n - 1n).toString());
  });

  it('is 32 letters and digits, never digits only, and unique, with format alphanumeric', () => {
    const tokens = new SessionTokens(new ManualClock(), 15_000, DEFAULT_TOKENS_PER_ACCOUNT, 'alphanumeric');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const token = issued(tokens, 'root');
      expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(token).toMatch(/[A-Za-z]/);
      seen.add(token);
    }
    expect(seen.size).toBe(500);
  });

  it('replaces the first character with a letter when the random draw is digits only (alphanumeric)', () => {
    // Bytes 52..61 map to the digits of the alphabet.
    jest.mocked(randomBytes).mockImplementationOnce((size: number) => Buffer.alloc(size, 52));
    const tokens = new SessionTokens(new ManualClock(), 15_000, DEFAULT_TOKENS_PER_ACCOUNT, 'alphanumeric');
    expect(issued(tokens, 'root')).toBe(`t${'0'.repeat(31)}`);
  });
});

describe('SessionTokens: pending tokens per account', () => {
  it("keeps an admin's pending token when a viewer fetches 10 000 (finding 3)", () => {
    const { tokens } = setup();
    const admin = issued(tokens, 'root');
    const outcomes = { ok: 0, limit: 0 };
    for (let i = 0; i < 10_000; i++) outcomes[tokens.issue('viewer').ok ? 'ok' : 'limit']++;
    expect(outcomes).toEqual({ ok: DEFAULT_TOKENS_PER_ACCOUNT, limit: 10_000 - DEFAULT_TOKENS_PER_ACCOUNT });
    expect(tokens.consume(admin)).toEqual({ ok: true, value: { username: 'root', via: undefined, number: 1 } });
  });

  it('refuses an account at its share until its oldest token expires, and says when', () => {
    const clock = new ManualClock();
    const tokens = new SessionTokens(clock, 15_000, 2);
    issued(tokens, 'viewer');
    clock.advance(4_000);
    issued(tokens, 'viewer');
    clock.advance(1_500);
    expect(tokens.issue('viewer')).toEqual({
      ok: false,
      error: {
        code: 'limit',
        message:
          'too many pending session tokens: user "viewer" holds 2, at most 2 (each expires 15 s after issue or when used)',
        retryAfterSeconds: 10,
      },
    });
    expect(tokens.issue('root').ok).toBe(true);
    clock.advance(9_500);
    expect(tokens.issue('viewer').ok).toBe(true);
  });

  it('frees a place when a token is used', () => {
    const tokens = new SessionTokens(new ManualClock(), 15_000, 1);
    const first = issued(tokens, 'viewer');
    expect(tokens.issue('viewer').ok).toBe(false);
    expect(tokens.consume(first).ok).toBe(true);
    expect(tokens.issue('viewer').ok).toBe(true);
    expect(tokens.consume(first)).toEqual({
      ok: false,
      error: { code: 'reused', message: 'session token reused', number: 1 },
    });
  });

  it('counts pending tokens of every account after expiries in between', () => {
    const { tokens, clock } = setup();
    issued(tokens, 'a');
    clock.advance(10_000);
    issued(tokens, 'b');
    issued(tokens, 'a');
    expect(tokens.pending()).toBe(3);
    clock.advance(5_000);
    expect(tokens.pending()).toBe(2);
    clock.advance(10_000);
    expect(tokens.pending()).toBe(0);
  });
});
