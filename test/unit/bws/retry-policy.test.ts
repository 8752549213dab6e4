/**
 * The retry decision (src/bws/retry-policy.ts): full-jitter back-off, Retry-After as
 * a floor, the budget as a total time per request (the last try at its end), the
 * optional cap on tries, and checked policy values.
 */
import fc from 'fast-check';
import { EmulatorError } from '../../../src/base/errors';
import { decideRetry, DEFAULT_RETRY, type RetryPolicy, retryPolicy } from '../../../src/bws/retry-policy';
import { propertyRuns } from '../../helpers/fast-check-config';

const POLICY: RetryPolicy = { budgetMs: 10_000, baseMs: 100, maxMs: 1000 };
const half = (): number => 0.5;

describe('decideRetry', () => {
  it('waits a random share of the doubling cap, up to maxMs, and says why', () => {
    expect(decideRetry(POLICY, { attempt: 1, elapsedMs: 0, failure: 'answered 503' }, half)).toEqual({
      action: 'retry',
      waitMs: 50,
      reason: 'answered 503; back-off 50 ms of at most 100 ms',
    });
    expect(decideRetry(POLICY, { attempt: 3, elapsedMs: 0, failure: 'x' }, half)).toMatchObject({ waitMs: 200 });
    expect(decideRetry(POLICY, { attempt: 30, elapsedMs: 0, failure: 'x' }, () => 0.999)).toMatchObject({
      waitMs: 999,
    });
    expect(decideRetry(POLICY, { attempt: 5000, elapsedMs: 0, failure: 'x' }, () => 1)).toMatchObject({
      waitMs: 1000,
    });
  });

  it('waits at least what Retry-After asks, even past maxMs', () => {
    const retry = decideRetry(POLICY, { attempt: 1, elapsedMs: 0, failure: 'answered 503', retryAfterMs: 3000 }, half);
    expect(retry).toEqual({ action: 'retry', waitMs: 3000, reason: 'answered 503; Retry-After 3.0 s' });
    // A back-off longer than Retry-After wins.
    const longer = decideRetry(POLICY, { attempt: 4, elapsedMs: 0, failure: 'x', retryAfterMs: 100 }, half);
    expect(longer).toMatchObject({ waitMs: 400, reason: 'x; back-off 400 ms of at most 800 ms' });
  });

  it('cuts the wait to what is left of the budget, so the last try starts as it ends; then gives up', () => {
    const cut = decideRetry(POLICY, { attempt: 2, elapsedMs: 9000, failure: 'x', retryAfterMs: 5000 }, half);
    expect(cut).toEqual({
      action: 'retry',
      waitMs: 1000,
      reason: 'x; Retry-After 5.0 s, cut to the 1.0 s left of the retry budget',
    });
    expect(decideRetry(POLICY, { attempt: 3, elapsedMs: 10_000, failure: 'answered 503' }, half)).toEqual({
      action: 'give up',
      reason: 'answered 503; 3 tries in 10.0 s: the retry budget of 10.0 s is spent',
    });
  });

  it('stops at the optional cap on tries', () => {
    const capped = { ...POLICY, attempts: 3 };
    expect(decideRetry(capped, { attempt: 2, elapsedMs: 0, failure: 'x' }, half).action).toBe('retry');
    expect(decideRetry(capped, { attempt: 3, elapsedMs: 0, failure: 'ECONNRESET' }, half)).toEqual({
      action: 'give up',
      reason: 'ECONNRESET; 3 tries in 0.0 s, the most allowed (3)',
    });
    expect(decideRetry({ ...POLICY, attempts: 1 }, { attempt: 1, elapsedMs: 0, failure: 'x' }, half)).toMatchObject({
      action: 'give up',
      reason: 'x; 1 try in 0.0 s, the most allowed (1)',
    });
  });

  it('the waits of a run of failures never take it past the budget, and its last try is at the budget', () => {
    fc.assert(
      fc.property(
        fc.record({
          budgetMs: fc.integer({ min: 0, max: 300_000 }),
          baseMs: fc.integer({ min: 0, max: 5000 }),
          maxMs: fc.integer({ min: 0, max: 60_000 }),
        }),
        fc.array(fc.double({ min: 0, max: 0.9999, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
        fc.integer({ min: 0, max: 500 }),
        (policy, randoms, retryAfterMs, tryMs) => {
          let elapsed = 0;
          let index = 0;
          for (let attempt = 1; attempt < 1000; attempt++) {
            elapsed += tryMs;
            const random = () => randoms[index++ % randoms.length];
            const next = decideRetry(policy, { attempt, elapsedMs: elapsed, failure: 'x', retryAfterMs }, random);
            if (next.action === 'give up') {
              expect(elapsed).toBeGreaterThanOrEqual(policy.budgetMs);
              return;
            }
            expect(next.waitMs).toBeGreaterThanOrEqual(0);
            expect(next.waitMs).toBeLessThanOrEqual(policy.budgetMs - elapsed);
            if (tryMs === 0 && next.waitMs === 0 && policy.maxMs === 0 && !retryAfterMs) return; // never advances
            elapsed += next.waitMs;
          }
        },
      ),
      propertyRuns(200),
    );
  });
});

describe('retryPolicy', () => {
  it('fills in the defaults: a two-minute budget, no cap on tries', () => {
    expect(retryPolicy()).toEqual({ budgetMs: 120_000, baseMs: 500, maxMs: 10_000 });
    expect(DEFAULT_RETRY.budgetMs).toBeGreaterThanOrEqual(90_000);
    expect(retryPolicy({ attempts: 2, budgetMs: undefined })).toEqual({ ...DEFAULT_RETRY, attempts: 2 });
  });

  it.each([
    [{ budgetMs: -1 }, 'retry.budgetMs'],
    [{ baseMs: 1.5 }, 'retry.baseMs'],
    [{ maxMs: Number.NaN }, 'retry.maxMs'],
    [{ attempts: 0 }, 'retry.attempts'],
    [{ budgetMs: Infinity }, 'retry.budgetMs'],
  ])('%j is refused naming %s', (partial, name) => {
    expect(() => retryPolicy(partial)).toThrow(EmulatorError);
    expect(() => retryPolicy(partial)).toThrow(new RegExp(`^${name.replace('.', '\\.')} must be a whole number`));
  });
});
