/**
 * The auth tokens: verify and revokeAll as before, and logins that cost the same with
 * 50,000 live tokens as with none. The cost is counted, not timed: a clock whose reading
 * counts each time it is compared with a token's expiry (a `valueOf` call) shows how
 * many tokens a login looked at.
 */
import type { Clock } from '../../../src/base/clock';
import { SwiftTokens, type TokenOwner } from '../../../src/destination/swift-tokens';

const OWNER: TokenOwner = { account: 'AUTH_bws', user: 'bws', readOnly: false };
const LIFETIME = 900_000;

/**
 * A manual clock that, while `counting`, answers a number-like object: every use of it in
 * arithmetic or a comparison calls `valueOf`, which counts. Plain numbers otherwise.
 */
class CountingClock implements Clock {
  uses = 0;
  counting = false;
  constructor(public time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    if (!this.counting) return this.time;
    const time = this.time;
    return {
      valueOf: () => {
        this.uses++;
        return time;
      },
    } as unknown as number;
  }

  /** Uses of the time made by `fn`. */
  usesBy(fn: () => void): number {
    this.counting = true;
    const before = this.uses;
    try {
      fn();
    } finally {
      this.counting = false;
    }
    return this.uses - before;
  }
}

describe('SwiftTokens issue and purge', () => {
  it('issues in constant work with 50,000 live tokens: the purge looks at the front of the queue only', () => {
    const clock = new CountingClock();
    const tokens = new SwiftTokens(clock, LIFETIME);
    for (let i = 0; i < 50_000; i++) {
      tokens.issue(OWNER);
      if (i % 1000 === 999) clock.time += 1; // issued over time, as logins are
    }
    for (let i = 0; i < 100; i++) {
      // One use computes the expiry, one compares the front token: never one per live token.
      expect(clock.usesBy(() => tokens.issue(OWNER))).toBeLessThanOrEqual(2);
    }
    expect(tokens.size).toBe(50_100);
  });

  it('drops expired tokens from the front, oldest first, and stops at the first live one', () => {
    const clock = new CountingClock(0);
    const tokens = new SwiftTokens(clock, LIFETIME);
    const first = Array.from({ length: 3000 }, () => tokens.issue(OWNER).token);
    clock.time = LIFETIME / 2;
    const second = Array.from({ length: 2000 }, () => tokens.issue(OWNER).token);
    clock.time = LIFETIME; // the first 3000 expire now
    // Dropping 3000 looks at each once, and at one live token.
    expect(clock.usesBy(() => tokens.issue(OWNER))).toBeLessThanOrEqual(3000 + 2);
    expect(tokens.size).toBe(2001);
    expect(tokens.verify(first[0])).toMatchObject({ ok: false, error: { code: 'unknown' } });
    expect(tokens.verify(second[1999])).toMatchObject({ ok: true, value: OWNER });
    // The next login finds a live token at the front at once.
    expect(clock.usesBy(() => tokens.issue(OWNER))).toBeLessThanOrEqual(2);
    clock.time = 2 * LIFETIME;
    tokens.issue(OWNER);
    expect(tokens.size).toBe(1);
  });

  it('keeps the queue as small as the live tokens over many lifetimes (its dropped front is cut off)', () => {
    const clock = new CountingClock(0);
    const tokens = new SwiftTokens(clock, 1000);
    for (let tick = 0; tick < 200; tick++) {
      for (let i = 0; i < 100; i++) tokens.issue(OWNER);
      clock.time += 100;
    }
    // About ten ticks of tokens are live; 20,000 were issued.
    expect(tokens.size).toBeLessThanOrEqual(1100);
    const queue = (tokens as unknown as { queue: { items: unknown[] } }).queue;
    expect(queue.items.length).toBeLessThanOrEqual(2 * 1100 + 1024);
  });
});

describe('SwiftTokens verify and revokeAll', () => {
  it('answers missing, unknown, live and expired tokens as before', () => {
    const clock = new CountingClock(0);
    const tokens = new SwiftTokens(clock, LIFETIME);
    const { token, expires } = tokens.issue(OWNER);
    expect(expires).toBe(LIFETIME);
    expect(token).toMatch(/^AUTH_tk[0-9a-f]{32}$/);
    expect(tokens.verify(undefined)).toMatchObject({ ok: false, error: { code: 'missing' } });
    expect(tokens.verify('')).toMatchObject({ ok: false, error: { code: 'missing' } });
    expect(tokens.verify('AUTH_tknope')).toMatchObject({
      ok: false,
      error: { code: 'unknown', message: 'Unauthorized: the token is unknown; authenticate again' },
    });
    expect(tokens.verify(token)).toEqual({ ok: true, value: OWNER });
    clock.time = LIFETIME - 1;
    expect(tokens.verify(token).ok).toBe(true);
    clock.time = LIFETIME;
    expect(tokens.verify(token)).toMatchObject({ ok: false, error: { code: 'expired' } });
    // Verify forgot it: it is unknown from now on, and the queue entry left behind is harmless.
    expect(tokens.verify(token)).toMatchObject({ ok: false, error: { code: 'unknown' } });
    const next = tokens.issue(OWNER);
    expect(tokens.verify(next.token).ok).toBe(true);
  });

  it('revokeAll forgets every token; tokens issued after it live and expire as usual', () => {
    const clock = new CountingClock(0);
    const tokens = new SwiftTokens(clock, LIFETIME);
    const before = Array.from({ length: 5 }, () => tokens.issue(OWNER).token);
    tokens.revokeAll();
    for (const token of before) expect(tokens.verify(token)).toMatchObject({ ok: false, error: { code: 'unknown' } });
    clock.time = 10;
    const after = tokens.issue({ ...OWNER, readOnly: true }).token;
    expect(tokens.verify(after)).toEqual({ ok: true, value: { ...OWNER, readOnly: true } });
    clock.time = 10 + LIFETIME;
    tokens.issue(OWNER);
    expect(tokens.verify(after)).toMatchObject({ ok: false, error: { code: 'unknown' } });
  });
});
