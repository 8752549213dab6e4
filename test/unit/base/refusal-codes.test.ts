/** The catalogue of credential refusal codes. */
import { REFUSAL_CODE_MEANINGS, REFUSAL_CODES, TOKEN_REFUSAL_CODES } from '../../../src/base/refusal-codes';

describe('refusal codes', () => {
  it('lists every code of the catalogue once, in its order', () => {
    expect(REFUSAL_CODES).toEqual(Object.keys(REFUSAL_CODE_MEANINGS));
    expect(new Set(REFUSAL_CODES).size).toBe(REFUSAL_CODES.length);
  });

  it('maps each way a session token is refused to its journal code', () => {
    expect(TOKEN_REFUSAL_CODES).toEqual({ unknown: 'TOKEN_UNKNOWN', expired: 'TOKEN_EXPIRED', reused: 'TOKEN_REUSED' });
  });
});
