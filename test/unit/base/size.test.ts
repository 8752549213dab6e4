import fc from 'fast-check';
import { parseSize } from '../../../src/base/size';
import { propertyRuns } from '../../helpers/fast-check-config';

describe('parseSize', () => {
  it.each([
    ['1048576', 1048576],
    ['64k', 65536],
    ['500MB', 500_000_000],
    ['2GiB', 2 * 1024 ** 3],
    ['1.5 KiB', 1536],
    [' 7b ', 7],
    ['1TiB', 1024 ** 4],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseSize(text, '--quota')).toEqual({ ok: true, value: bytes });
  });

  it.each([
    ['', '--quota "" is not a size (e.g. 500MB, 2GiB, 1048576)'],
    ['5 parsecs', '--quota "5 parsecs" is not a size (e.g. 500MB, 2GiB, 1048576)'],
    ['-1MB', '--quota "-1MB" is not a size (e.g. 500MB, 2GiB, 1048576)'],
    ['0', '--quota must be more than 0 bytes'],
    ['0.1b', '--quota must be more than 0 bytes'],
  ])('refuses %j naming the flag', (text, message) => {
    expect(parseSize(text, '--quota')).toEqual({ ok: false, error: { code: 'BAD_SIZE', message } });
  });

  it('never throws, and whatever it accepts is a whole number of bytes above 0', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = parseSize(text, '--x');
        if (result.ok) expect(Number.isInteger(result.value) && result.value > 0).toBe(true);
        else expect(result.error.message.startsWith('--x ')).toBe(true);
      }),
      propertyRuns(500),
    );
  });

  it('reads any whole number with a unit as that number times the unit', () => {
    const units = { b: 1, k: 1024, kb: 1e3, MB: 1e6, GiB: 1024 ** 3 } as const;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(...Object.keys(units)), (n, unit) => {
        expect(parseSize(`${n}${unit}`, '--x')).toEqual({ ok: true, value: n * units[unit as keyof typeof units] });
      }),
      propertyRuns(300),
    );
  });
});
