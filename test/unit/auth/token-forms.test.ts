/** Token forms: what a client may make of an issued token, recognised as that token altered. */
import { ManualClock } from '../../../src/base/clock';
import { DEFAULT_TOKENS_PER_ACCOUNT, SessionTokens } from '../../../src/auth/session-tokens';
import { alteredCandidate, alterationOf } from '../../../src/auth/token-forms';

const TOKEN = '1331901001644832701';

/** How `sent` alters TOKEN, or undefined. */
function alteration(sent: string, token = TOKEN): string | undefined {
  const candidate = alteredCandidate(sent);
  return candidate && alterationOf(candidate, token);
}

describe('alterationOf', () => {
  it.each([
    ['JSON.parse, printed by JavaScript', String(JSON.parse(TOKEN)), 'rounded'],
    ['the exact double', BigInt(Number(TOKEN)).toString(), 'rounded'],
    ['a float printed with a fraction', `${BigInt(Number(TOKEN))}.0`, 'rounded'],
    ['exponent form', Number(TOKEN).toExponential(), 'exponent'],
    ['Python repr of a float', '1.3319010016448328e+18', 'exponent'],
    ['a JSON string', JSON.stringify(TOKEN), 'quoted'],
    ['single quotes', `'${TOKEN}'`, 'quoted'],
  ])('%s: %s is %s', (_what, sent, how) => {
    expect(String(JSON.parse(TOKEN)) === TOKEN).toBe(false);
    expect(alteration(sent)).toBe(how);
  });

  it.each([
    ['the token itself', TOKEN],
    ['another token', '1331901001644832000'.replace(/0+$/, (z) => '9'.repeat(z.length))],
    ['letters', 'NotATokenOfThisDevice0123456789x'],
    ['empty', ''],
    ['a token with its last digit dropped', TOKEN.slice(0, -1)],
  ])('%s is no alteration', (_what, sent) => {
    expect(alteration(sent)).toBeUndefined();
  });

  it('an alphanumeric token is recognised quoted only', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    expect(alteration(`"${token}"`, token)).toBe('quoted');
    expect(alteration('1e3', token)).toBeUndefined();
  });
});

describe('SessionTokens: an issued token sent back altered', () => {
  it('is refused as unknown, naming the issued token and how; the issued one still works', () => {
    const tokens = new SessionTokens(new ManualClock());
    const first = tokens.issue('root');
    const issued = tokens.issue('root');
    if (!first.ok || !issued.ok) throw new Error('issue');
    expect(tokens.consume(String(JSON.parse(issued.value)))).toEqual({
      ok: false,
      error: {
        code: 'unknown',
        message:
          'session token unknown: token 2 sent back rounded to the precision of a double (the body parsed as a JSON number?)',
        number: 2,
        altered: 'rounded',
      },
    });
    expect(tokens.consume(`"${issued.value}"`)).toMatchObject({ error: { number: 2, altered: 'quoted' } });
    expect(tokens.consume(issued.value)).toMatchObject({ ok: true, value: { number: 2 } });
    // Used now: an altered form of it is plainly unknown.
    expect(tokens.consume(`"${issued.value}"`)).toEqual({
      ok: false,
      error: { code: 'unknown', message: 'session token unknown' },
    });
  });

  it('an unknown token that is no altered form is refused as before', () => {
    const tokens = new SessionTokens(new ManualClock(), 15_000, DEFAULT_TOKENS_PER_ACCOUNT, 'alphanumeric');
    tokens.issue('root');
    expect(tokens.consume('1331901001644832701')).toEqual({
      ok: false,
      error: { code: 'unknown', message: 'session token unknown' },
    });
  });
});
