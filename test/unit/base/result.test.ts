import { err, fail, ok, type Result } from '../../../src/base/result';

describe('Result', () => {
  it('ok() carries a value and fail() a code and a message', () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 });
    expect(fail('BAD_SIZE', 'too small')).toEqual({ ok: false, error: { code: 'BAD_SIZE', message: 'too small' } });
    expect(fail(2104, 'Invalid filter')).toEqual({ ok: false, error: { code: 2104, message: 'Invalid filter' } });
  });

  it('err() keeps the extra fields of a richer error', () => {
    const refused: Result<string, { code: 'STALE'; message: string; stale: boolean }> = err({
      code: 'STALE',
      message: 'nonce expired',
      stale: true,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.stale).toBe(true);
  });

  it('narrows on ok', () => {
    const results: Result<number>[] = [ok(1), fail('X', 'no'), ok(2)];
    const values = results.flatMap((r) => (r.ok ? [r.value] : []));
    const messages = results.flatMap((r) => (r.ok ? [] : [r.error.message]));
    expect(values).toEqual([1, 2]);
    expect(messages).toEqual(['no']);
  });
});
