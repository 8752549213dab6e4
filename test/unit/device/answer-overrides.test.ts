/** The override table (matching, counting, clearing) and its checks against the CGI table. */
import { AnswerOverrides } from '../../../src/device/answer-overrides';
import { checkOverride } from '../../../src/device/override-check';

const REQUEST = { cgi: 'featureflag.cgi', method: 'listAll', text: '{"method":"listAll"}' };

describe('AnswerOverrides', () => {
  it('matches by CGI (case-insensitive), method and substring, first added first', () => {
    const table = new AnswerOverrides();
    table.add({ cgi: 'featureflag.cgi', method: 'set', answer: { status: 500 } });
    table.add({ cgi: 'featureflag.cgi', match: 'nothing', answer: { status: 501 } });
    table.add({ cgi: 'FeatureFlag.cgi', match: 'listAll', answer: { status: 502 } });
    table.add({ cgi: 'featureflag.cgi', answer: { status: 503 } });
    expect(table.take(REQUEST)).toMatchObject({ id: 'o3', answered: 1 });
    expect(table.take({ ...REQUEST, cgi: 'param.cgi' })).toBeUndefined();
    expect(table.take({ ...REQUEST, method: undefined, text: '' })).toMatchObject({ id: 'o4' });
  });

  it('counts: gone after `times` answers, kept without', () => {
    const table = new AnswerOverrides();
    table.add({ cgi: 'featureflag.cgi', answer: { delayMs: 1 }, times: 2 });
    expect(table.take(REQUEST)?.answered).toBe(1);
    expect(table.take(REQUEST)?.answered).toBe(2);
    expect(table.take(REQUEST)).toBeUndefined();
    expect(table.size).toBe(0);
    table.add({ cgi: 'featureflag.cgi', answer: { delayMs: 1 } });
    for (let i = 0; i < 5; i++) table.take(REQUEST);
    expect(table.list()).toMatchObject([{ id: 'o2', answered: 5 }]);
  });

  it('clears one by id, or every one', () => {
    const table = new AnswerOverrides();
    table.add({ cgi: 'a.cgi', answer: { status: 500 } });
    table.add({ cgi: 'b.cgi', answer: { status: 500 } });
    table.add({ cgi: 'c.cgi', answer: { status: 500 } });
    expect(table.clear('o2')).toEqual(['o2']);
    expect(table.clear('o9')).toEqual([]);
    expect(table.clear()).toEqual(['o1', 'o3']);
  });
});

describe('checkOverride', () => {
  const bad = (input: unknown): string => {
    try {
      checkOverride(input);
    } catch (err) {
      expect((err as { code: string }).code).toBe('BAD_OVERRIDE');
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts a good override, with the CGI named as the table does', () => {
    expect(
      checkOverride({ cgi: 'FEATUREFLAG.CGI', method: 'listAll', answer: { error: { code: 2104, message: 'x' } } }),
    ).toMatchObject({ cgi: 'featureflag.cgi' });
    expect(checkOverride({ cgi: 'param.cgi', answer: { body: { a: 1 } }, times: 3 }).times).toBe(3);
  });

  it('names the CGIs for an unknown one, the methods for an unknown method', () => {
    expect(bad({ cgi: 'nope.cgi', answer: { status: 500 } })).toMatch(/no CGI "nope.cgi"; CGIs: featureflag.cgi, /);
    expect(bad({ cgi: 'featureflag.cgi', method: 'listAl', answer: { status: 500 } })).toMatch(
      /featureflag.cgi has no method "listAl"; methods: .*listAll/,
    );
  });

  it('refuses a JSON-RPC error or a method for a CGI that is not JSON-RPC', () => {
    expect(bad({ cgi: 'wssession.cgi', answer: { error: { code: 1, message: 'x' } } })).toMatch(/not JSON-RPC/);
    expect(bad({ cgi: 'param.cgi', method: 'list', answer: { status: 500 } })).toMatch(/not JSON-RPC/);
  });

  it('explains a bad answer, a bad code, a bad count', () => {
    expect(bad({ cgi: 'featureflag.cgi', answer: { oops: 1 } })).toMatch(/answer: one of \{ error/);
    expect(bad({ cgi: 'featureflag.cgi', answer: { error: { code: 1.5, message: 'x' } } })).toMatch(/answer/);
    expect(bad({ cgi: 'featureflag.cgi', answer: { status: 99 } })).toMatch(/answer/);
    expect(bad({ cgi: 'featureflag.cgi', answer: { status: 500 }, times: 0 })).toMatch(/times/);
    expect(bad({ cgi: 'featureflag.cgi', answer: { status: 500 }, extra: 1 })).toMatch(/extra|Unrecognized/);
  });
});
