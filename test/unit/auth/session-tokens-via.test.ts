/** Tokens issued to the dashboard are remembered as its own until they expire, used or not. */
import { SessionTokens } from '../../../src/auth/session-tokens';
import { ManualClock } from '../../../src/base/clock';

function issued(tokens: SessionTokens, via?: 'dashboard'): string {
  const result = tokens.issue('root', via);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('SessionTokens.viaOf', () => {
  it("names the dashboard for its token, before and after it is used, and no one for the client's", () => {
    const tokens = new SessionTokens(new ManualClock());
    const mine = issued(tokens, 'dashboard');
    const theirs = issued(tokens);
    expect([tokens.viaOf(mine), tokens.viaOf(theirs), tokens.viaOf('unknown')]).toEqual([
      'dashboard',
      undefined,
      undefined,
    ]);
    // Used up, it tells whose it was itself.
    expect(tokens.consume(mine)).toStrictEqual({ ok: true, value: { username: 'root', via: 'dashboard', number: 1 } });
    expect(tokens.consume(theirs)).toStrictEqual({ ok: true, value: { username: 'root', via: undefined, number: 2 } });
    // A reuse is refused and still the dashboard's.
    expect(tokens.consume(mine).ok).toBe(false);
    expect(tokens.viaOf(mine)).toBe('dashboard');
  });

  it('forgets a token once it has expired and been pruned, pending or used', () => {
    const clock = new ManualClock();
    const tokens = new SessionTokens(clock, 1000);
    const pending = issued(tokens, 'dashboard');
    const used = issued(tokens, 'dashboard');
    tokens.consume(used);
    clock.advance(999);
    expect(tokens.pending()).toBe(1);
    expect([tokens.viaOf(pending), tokens.viaOf(used)]).toEqual(['dashboard', 'dashboard']);
    clock.advance(1);
    expect(tokens.pending()).toBe(0);
    expect([tokens.viaOf(pending), tokens.viaOf(used)]).toEqual([undefined, undefined]);
  });

  it('forgets every token on revokeAll', () => {
    const tokens = new SessionTokens(new ManualClock());
    const token = issued(tokens, 'dashboard');
    tokens.revokeAll();
    expect(tokens.viaOf(token)).toBeUndefined();
  });

  it("counts the dashboard's pending tokens in the account's share like any other", () => {
    const tokens = new SessionTokens(new ManualClock(), 15_000, 2);
    issued(tokens, 'dashboard');
    issued(tokens);
    expect(tokens.issue('root', 'dashboard').ok).toBe(false);
  });
});
