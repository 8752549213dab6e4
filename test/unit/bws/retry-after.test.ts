/**
 * `Retry-After` (src/bws/retry-after.ts): delay-seconds and the three HTTP-date forms,
 * read as a wait from now; anything else is no advice, and nothing throws.
 */
import fc from 'fast-check';
import { parseRetryAfter } from '../../../src/bws/retry-after';
import { parseHttpDate } from '../../../src/protocol/http-date';
import { propertyRuns } from '../../helpers/fast-check-config';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Whole seconds from 1970 to 9999, as every HTTP-date form can carry. */
const whole = fc.integer({ min: 0, max: Math.floor(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000) }).map((s) => s * 1000);
const two = (n: number): string => String(n).padStart(2, '0');
const clock = (d: Date): string => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;

function rfc850(ms: number): string {
  const d = new Date(ms);
  const year = two(d.getUTCFullYear() % 100);
  return `${LONG_DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${year} ${clock(d)} GMT`;
}

function asctime(ms: number): string {
  const d = new Date(ms);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${clock(d)} ${d.getUTCFullYear()}`;
}

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['1', 1000],
    ['120', 120_000],
    [' 5 ', 5000],
    ['Thu, 01 Jan 2026 12:01:00 GMT', 60_000],
    ['Thursday, 01-Jan-26 12:00:30 GMT', 30_000],
    ['Thu Jan  1 12:00:10 2026', 10_000],
    ['Wed, 31 Dec 2025 00:00:00 GMT', 0],
    // Too many seconds to count in ms is the longest wait there is; the retry budget cuts it.
    ['9'.repeat(400), Number.MAX_SAFE_INTEGER],
    ['Fri, 31 Dec 9999 23:59:59 GMT', Date.UTC(9999, 11, 31, 23, 59, 59) - NOW],
  ])('%j -> %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    undefined,
    '',
    '-1',
    '1.5',
    '1e3',
    '5 s',
    'soon',
    'Thu, 01 Jan 2026 12:01:00 UTC',
    'Thu, 1 Jan 2026 12:01:00 GMT',
    'Thu, 31 Feb 2026 12:01:00 GMT',
    'Thu, 01 Jan 2026 25:01:00 GMT',
    '2026-01-01T12:01:00Z',
    '+5',
    '0x10',
    '5, 6',
    '\u0665',
  ])('%j is no advice (undefined)', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('delay-seconds: any whole number of seconds is that many seconds', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e9 }), fc.constantFrom('', ' ', '\t'), (seconds, pad) => {
        expect(parseRetryAfter(`${pad}${seconds}${pad}`, NOW)).toBe(seconds * 1000);
      }),
      propertyRuns(300),
    );
  });

  it('IMF-fixdate: the time until the date, 0 once it has passed', () => {
    fc.assert(
      fc.property(whole, whole, (at, now) => {
        expect(parseRetryAfter(new Date(at).toUTCString(), now)).toBe(Math.max(0, at - now));
      }),
      propertyRuns(300),
    );
  });

  it('RFC 850 (two-digit year, within 50 years of now) and asctime read the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -49 * 365, max: 49 * 365 }), fc.nat({ max: 86_399 }), (days, seconds) => {
        const at = NOW + days * 86_400_000 + seconds * 1000;
        expect(parseHttpDate(rfc850(at), NOW)).toBe(at);
        expect(parseHttpDate(asctime(at), NOW)).toBe(at);
      }),
      propertyRuns(300),
    );
  });

  it('never throws, and any answer is a wait of 0 ms or more', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
        ),
        fc.integer({ min: 0, max: 2 ** 45 }),
        (value, now) => {
          const ms = parseRetryAfter(value, now);
          if (ms !== undefined) {
            expect(Number.isFinite(ms)).toBe(true);
            expect(ms).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      propertyRuns(500),
    );
  });
});
