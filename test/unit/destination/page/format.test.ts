/** How the recordings page writes sizes, durations and times. */
import { formatBytes } from '../../../../src/base/size';
import {
  decodeMetadataValue,
  exactBytes,
  formatAgo,
  formatSeconds,
  formatUtc,
} from '../../../../src/destination/page/format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [1500, '1.5 kB'],
    [9949, '9.9 kB'],
    [9950, '10 kB'],
    [123_456, '123 kB'],
    [999_499, '999 kB'],
    [999_500, '1.0 MB'],
    [340_000_000, '340 MB'],
    [2_147_483_648, '2.1 GB'],
    [5e15, '5.0 PB'],
    [5e18, '5000 PB'],
  ])('%d bytes -> %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));

  it('says ? for what is not a size', () => {
    expect(formatBytes(-1)).toBe('?');
    expect(formatBytes(Number.NaN)).toBe('?');
  });

  it('gives the exact count with thousands separators', () => {
    expect(exactBytes(0)).toBe('0 bytes');
    expect(exactBytes(999)).toBe('999 bytes');
    expect(exactBytes(1_234_567)).toBe('1,234,567 bytes');
  });
});

describe('formatSeconds', () => {
  it.each([
    [0, '0 s'],
    [4.5, '4.5 s'],
    [4.04, '4 s'],
    [59, '59 s'],
    [60, '1 min'],
    [90, '1 min 30 s'],
    [3600, '1 h'],
    [3600 + 5 * 60 + 7, '1 h 5 min'],
    [7200 + 7, '2 h'],
    [86400 * 3 + 3600 * 4 + 1, '3 d 4 h'],
  ])('%d s -> %s', (seconds, text) => expect(formatSeconds(seconds)).toBe(text));

  it('says ? for what is not a duration', () => {
    expect(formatSeconds(-1)).toBe('?');
    expect(formatSeconds(Infinity)).toBe('?');
  });
});

describe('times', () => {
  const now = Date.UTC(2024, 5, 1, 12, 0, 0);

  it('writes an instant in UTC, to the second', () => {
    expect(formatUtc(Date.UTC(2024, 5, 1, 11, 0, 0, 999))).toBe('2024-06-01 11:00:00 UTC');
    expect(formatUtc(Number.NaN)).toBe('?');
  });

  it.each([
    [now, 'just now'],
    [now - 999, 'just now'],
    [now - 42_000, '42 s ago'],
    [now - 5 * 60_000 - 59_000, '5 min ago'],
    [now - 3 * 3600_000, '3 h ago'],
    [now - 49 * 3600_000, '2 d ago'],
    [now + 5 * 60_000, 'in 5 min'],
  ])('%d at now -> %s', (ms, text) => expect(formatAgo(ms, now)).toBe(text));
});

describe('decodeMetadataValue', () => {
  it('URL-decodes UTF-8 and leaves what does not decode as sent', () => {
    expect(decodeMetadataValue('Europe%2FStockholm')).toBe('Europe/Stockholm');
    expect(decodeMetadataValue('J%C3%B6nk%C3%B6ping')).toBe('Jönköping');
    expect(decodeMetadataValue('plain')).toBe('plain');
    expect(decodeMetadataValue('100%')).toBe('100%');
    expect(decodeMetadataValue('%E0%A4%A')).toBe('%E0%A4%A');
  });
});
