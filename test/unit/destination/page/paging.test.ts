/** Paging of the recordings page: `?page=` values and the slices they give. */
import { pageOf, parsePageParam } from '../../../../src/destination/page/paging';

describe('parsePageParam', () => {
  it('is page 1 without the parameter', () => {
    expect(parsePageParam([], 'page')).toEqual({ ok: true, value: 1 });
  });

  it.each(['1', '2', '50', '1000000'])('accepts %s', (text) => {
    expect(parsePageParam([text], 'page')).toEqual({ ok: true, value: Number(text) });
  });

  it.each(['', '0', '-1', '01', '1.5', '1e3', 'abc', ' 2', '2 ', '1000001', '99999999999999999999', '<b>'])(
    'refuses %j with a message naming the parameter',
    (text) => {
      const result = parsePageParam([text], 'page');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('BAD_PAGE');
        expect(result.error.message).toMatch(/^\?page=.* is not a page number/);
      }
    },
  );

  it('refuses the parameter given twice', () => {
    expect(parsePageParam(['1', '2'], 'rejected-page')).toEqual({
      ok: false,
      error: { code: 'BAD_PAGE', message: 'give ?rejected-page= once, not 2 times' },
    });
  });
});

describe('pageOf', () => {
  const items = Array.from({ length: 7 }, (_, i) => i + 1);

  it('slices pages and says where they are', () => {
    expect(pageOf(items, 1, 3)).toEqual({
      ok: true,
      value: { items: [1, 2, 3], page: 1, pages: 3, total: 7, from: 1, to: 3 },
    });
    expect(pageOf(items, 3, 3)).toEqual({
      ok: true,
      value: { items: [7], page: 3, pages: 3, total: 7, from: 7, to: 7 },
    });
  });

  it('has one empty page for an empty list', () => {
    expect(pageOf([], 1, 50)).toEqual({ ok: true, value: { items: [], page: 1, pages: 1, total: 0, from: 0, to: 0 } });
  });

  it('refuses a page past the last', () => {
    const result = pageOf(items, 4, 3);
    expect(result).toEqual({
      ok: false,
      error: { code: 'NO_SUCH_PAGE', message: 'there is no page 4: 7 in all make 3 page(s)' },
    });
    expect(pageOf([], 2, 50).ok).toBe(false);
  });
});
