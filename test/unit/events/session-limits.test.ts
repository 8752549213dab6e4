import { SessionLimits } from '../../../src/events/session-limits';

const LIMITS = { maxSessions: 3, maxSessionsPerAccount: 2, maxAccountTerms: 10 };

describe('SessionLimits', () => {
  it('admits sessions up to the account share (429) and the device total (503)', () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened('a');
    limits.opened('a');
    expect(limits.admit('a')).toMatchObject({ ok: false, error: { code: 'account-full', status: 429 } });
    expect(limits.admit('b').ok).toBe(true);
    limits.opened('b');
    expect(limits.admit('c')).toMatchObject({ ok: false, error: { code: 'device-full', status: 503 } });
    limits.closed('a', 0);
    expect(limits.admit('a').ok).toBe(true);
  });

  it("budgets terms over all of an account's sessions; a claim replaces what the session held", () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened('a');
    limits.opened('a');
    expect(limits.claimTerms('a', 0, 7)).toBeUndefined();
    expect(limits.claimTerms('a', 0, 4)).toBe(
      'the filters hold 4 terms, and the sessions of a may hold at most 10 together (7 held by its other sessions)',
    );
    expect(limits.claimTerms('a', 7, 2)).toBeUndefined();
    expect(limits.claimTerms('a', 0, 8)).toBeUndefined();
    expect(limits.claimTerms('b', 0, 10)).toBeUndefined();
    limits.closed('a', 8);
    expect(limits.claimTerms('a', 2, 10)).toBeUndefined();
  });

  it('forgets an account when its last session closes', () => {
    const limits = new SessionLimits(LIMITS);
    limits.opened('a');
    expect(limits.claimTerms('a', 0, 10)).toBeUndefined();
    limits.closed('a', 10);
    limits.opened('a');
    expect(limits.claimTerms('a', 0, 10)).toBeUndefined();
  });
});
