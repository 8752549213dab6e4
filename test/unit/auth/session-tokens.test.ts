import { randomBytes } from 'node:crypto';
import type * as NodeCrypto from 'node:crypto';
import { SessionTokens } from '../../../src/auth/session-tokens';
import { ManualClock } from '../../../src/base/clock';

// randomBytes stays real; one test feeds it a digits-only draw.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof NodeCrypto>('node:crypto');
  return { ...actual, randomBytes: jest.fn(actual.randomBytes) };
});

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
    const token = tokens.issue('root');
    clock.advance(14_999);
    expect(tokens.consume(token)).toEqual({ ok: true, value: 'root' });
  });

  it('is expired exactly 15 000 ms after issue', () => {
    const { tokens, clock } = setup();
    const token = tokens.issue('root');
    clock.advance(15_000);
    expect(tokens.consume(token)).toEqual({ ok: false, error: { code: 'expired', message: 'session token expired' } });
  });

  it('stays refused after an expired attempt', () => {
    const { tokens, clock } = setup();
    const token = tokens.issue('root');
    clock.advance(20_000);
    expect(tokens.consume(token).ok).toBe(false);
    clock.set(0);
    expect(tokens.consume(token).ok).toBe(false);
  });

  it('honours a configured lifetime', () => {
    const { tokens, clock } = setup(1_000);
    const early = tokens.issue('root');
    const late = tokens.issue('root');
    clock.advance(999);
    expect(tokens.consume(early).ok).toBe(true);
    clock.advance(1);
    expect(tokens.consume(late)).toEqual({ ok: false, error: { code: 'expired', message: 'session token expired' } });
  });

  it('refuses an expired token even after other tokens were issued in between', () => {
    const { tokens, clock } = setup();
    const token = tokens.issue('root');
    clock.advance(15_000);
    tokens.issue('root');
    expect(tokens.consume(token).ok).toBe(false);
  });
});

describe('SessionTokens: single use', () => {
  it('refuses a second use as reused', () => {
    const { tokens } = setup();
    const token = tokens.issue('root');
    expect(tokens.consume(token)).toEqual({ ok: true, value: 'root' });
    expect(tokens.consume(token)).toEqual({ ok: false, error: { code: 'reused', message: 'session token reused' } });
  });

  it('still says reused after other tokens were issued', () => {
    const { tokens, clock } = setup();
    const token = tokens.issue('root');
    tokens.consume(token);
    clock.advance(10_000);
    tokens.issue('other');
    expect(tokens.consume(token)).toEqual({ ok: false, error: { code: 'reused', message: 'session token reused' } });
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
    const a = tokens.issue('alice');
    const b = tokens.issue('bob');
    expect(tokens.consume(b)).toEqual({ ok: true, value: 'bob' });
    expect(tokens.consume(a)).toEqual({ ok: true, value: 'alice' });
  });

  it('counts pending tokens: issued, neither used nor expired', () => {
    const { tokens, clock } = setup();
    const a = tokens.issue('root');
    tokens.issue('root');
    expect(tokens.pending()).toBe(2);
    tokens.consume(a);
    expect(tokens.pending()).toBe(1);
    clock.advance(15_000);
    expect(tokens.pending()).toBe(0);
  });
});

describe('SessionTokens: format', () => {
  it('is 32 letters and digits, never digits only, and unique', () => {
    const { tokens } = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const token = tokens.issue('root');
      expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(token).toMatch(/[A-Za-z]/);
      seen.add(token);
    }
    expect(seen.size).toBe(500);
  });

  it('replaces the first character with a letter when the random draw is digits only', () => {
    // Bytes 52..61 map to the digits of the alphabet.
    jest.mocked(randomBytes).mockImplementationOnce((size: number) => Buffer.alloc(size, 52));
    const token = setup().tokens.issue('root');
    expect(token).toBe(`t${'0'.repeat(31)}`);
  });
});
