import fc from 'fast-check';
import { formatDuration, MAX_DURATION_MS, parseDuration } from '../../../src/base/duration';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['2s', 2000],
    ['1m', 60_000],
    ['1h', 3_600_000],
    ['1.5s', 1500],
    ['1m30s', 90_000],
    ['1h0m5s', 3_605_000],
    ['2s500ms', 2500],
    ['0ms', 0],
    ['0s', 0],
    ['0.5ms', 1], // rounded to whole milliseconds
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, value: ms });
  });

  it.each([
    ['500', 'duration "500" has no unit; write 500ms or 500s'],
    ['-1s', 'duration "-1s" is negative; durations are 0 or more'],
    ['', 'duration is empty; e.g. 500ms, 2s, 1.5s, 1m30s, 1h'],
    ['2 s', 'duration "2 s" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)'],
    ['1d', 'duration "1d" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)'],
    ['1e3ms', 'duration "1e3ms" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)'],
    ['.5s', 'duration ".5s" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)'],
    [
      '30s1m',
      'duration "30s1m" repeats or misorders units; write the largest unit first, each once (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)',
    ],
    [
      '1s1s',
      'duration "1s1s" repeats or misorders units; write the largest unit first, each once (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)',
    ],
    ['25d', 'duration "25d" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)'],
    ['600h', 'duration "600h" is longer than the limit of 596h31m23s647ms (about 24.8 days)'],
  ])('rejects %j: %s', (text, message) => {
    expect(parseDuration(text)).toEqual({ ok: false, error: { code: 'BAD_DURATION', message } });
  });

  it('rejects a YAML number with a hint and a non-string without throwing', () => {
    expect(parseDuration(500)).toEqual({
      ok: false,
      error: {
        code: 'BAD_DURATION',
        message: 'duration 500 has no unit; write 500ms or 500s (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)',
      },
    });
    expect(parseDuration(null)).toEqual({
      ok: false,
      error: { code: 'BAD_DURATION', message: 'a duration must be a string (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)' },
    });
  });

  it('accepts exactly the limit', () => {
    expect(parseDuration(formatDuration(MAX_DURATION_MS))).toEqual({ ok: true, value: MAX_DURATION_MS });
    expect(parseDuration(`${MAX_DURATION_MS + 1}ms`).ok).toBe(false);
  });

  it('never throws: any string gives a whole, bounded number of ms or a message', () => {
    const durationish = fc.stringMatching(/^[0-9.hms -]{0,12}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), durationish), (text) => {
        const result = parseDuration(text);
        if (result.ok) {
          expect(Number.isInteger(result.value)).toBe(true);
          expect(result.value).toBeGreaterThanOrEqual(0);
          expect(result.value).toBeLessThanOrEqual(MAX_DURATION_MS);
        } else {
          expect(result.error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips: parse(format(ms)) === ms for every whole ms up to the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DURATION_MS }), (ms) => {
        expect(parseDuration(formatDuration(ms))).toEqual({ ok: true, value: ms });
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips: a well-formed duration formats back to its canonical form', () => {
    const part = (unit: string, max: number) =>
      fc.option(
        fc.integer({ min: 0, max }).map((n) => `${n}${unit}`),
        { nil: '' },
      );
    fc.assert(
      fc.property(part('h', 500), part('m', 59), part('s', 59), part('ms', 999), (h, m, s, ms) => {
        const text = `${h}${m}${s}${ms}`;
        fc.pre(text !== '');
        const parsed = parseDuration(text);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(parseDuration(formatDuration(parsed.value))).toEqual(parsed);
      }),
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [1500, '1s500ms'],
    [90_000, '1m30s'],
    [7_200_000, '2h'],
    [3_605_001, '1h5s1ms'],
  ])('writes %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('refuses negative or fractional input', () => {
    expect(() => formatDuration(-1)).toThrow(RangeError);
    expect(() => formatDuration(1.5)).toThrow(RangeError);
  });
});
