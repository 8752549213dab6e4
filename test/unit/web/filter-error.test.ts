import fc from 'fast-check';
import { compileConfigure } from '../../../src/events/configure';
import { caretExcerpt, filterErrorOf } from '../../../web/dashboard/filter-error';
import { propertyRuns } from '../../helpers/fast-check-config';

/** The device's own answer to a configure with `entry`: its error message, or undefined when it is taken. */
function refusal(entry: { topicFilter?: string; contentFilter?: string }): string | undefined {
  const compiled = compileConfigure(
    { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: [entry] } },
    { topicAliases: { onvif: 'tns1' }, maxFilters: 16 },
  );
  return compiled.ok ? undefined : compiled.error.message;
}

describe('filterErrorOf (the dashboard reading a refused configure)', () => {
  it('finds the filter and the column in the device message', () => {
    const message = refusal({ topicFilter: 'tns1:VideoSource//Motion' });
    expect(message).toBeDefined();
    const error = filterErrorOf(2104, message!);
    expect(error.field).toBe('topicFilter');
    expect(error.column).toBeGreaterThan(0);
    expect(error.detail).not.toContain('eventFilterList');
  });

  it('finds the content filter and its column', () => {
    const message = refusal({ topicFilter: 'tns1:Device//.', contentFilter: "boolean(//SimpleItem[@Name='x')" });
    const error = filterErrorOf(2104, message!);
    expect(error.field).toBe('contentFilter');
    expect(error.column).toBeGreaterThan(0);
  });

  it('leaves field and column undefined for a message without them', () => {
    expect(filterErrorOf(2103, 'Required parameter missing: params')).toEqual({
      code: 2103,
      message: 'Required parameter missing: params',
      detail: 'Required parameter missing: params',
      field: undefined,
      column: undefined,
    });
  });

  it('points inside the text for every topic filter the device refuses with a column', () => {
    const piece = fc.constantFrom('tns1:', 'Device', '/', '//', '.', '|', ' ', '*', 'a', ':', '[', ']');
    // Cases the device refused with a column: the property says nothing unless some were.
    let withColumn = 0;
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), (pieces) => {
        const text = pieces.join('');
        const message = refusal({ topicFilter: text });
        if (message === undefined) return;
        const error = filterErrorOf(2104, message);
        if (error.column === undefined) return;
        withColumn++;
        expect(error.field).toBe('topicFilter');
        expect(error.column).toBeGreaterThanOrEqual(1);
        expect(error.column).toBeLessThanOrEqual(text.length + 1);
      }),
      propertyRuns(500),
    );
    expect(withColumn).toBeGreaterThan(0);
  });
});

describe('caretExcerpt', () => {
  it('puts the caret under the column of a short text', () => {
    expect(caretExcerpt('tns1:a//b', 7)).toBe('tns1:a//b\n      ^');
  });

  it('cuts a long text around the column and keeps the caret under it', () => {
    const text = `${'x'.repeat(60)}!${'y'.repeat(60)}`;
    const [line, caret] = caretExcerpt(text, 61).split('\n');
    expect(line.startsWith('…') && line.endsWith('…')).toBe(true);
    expect(line[caret.indexOf('^')]).toBe('!');
  });

  it('points after the end for a column one past the text', () => {
    expect(caretExcerpt('abc', 4)).toBe('abc\n   ^');
  });
});
