/**
 * HTTP-dates (RFC 9110 section 5.6.7) in their three forms: IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
 * and asctime `Sun Nov  6 08:49:37 1994`. Strict: anything else (`2030`, `1`, 31 Feb,
 * 25:00:00) is no date. Used for `Retry-After` and the conditional request headers. Pure.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date as epoch ms, or undefined; a two-digit RFC 850 year is read as the nearest one not over 50 years ahead. */
export function parseHttpDate(text: string, nowMs: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2], match[1], match.slice(4, 7));
  match = RFC_850.exec(text);
  if (match) return utc(fullYear(Number(match[3]), nowMs), match[2], match[1], match.slice(4, 7));
  match = ASCTIME.exec(text);
  if (match) return utc(Number(match[6]), match[1], match[2].trim(), match.slice(3, 6));
  return undefined;
}

/** Epoch ms of a calendar date and time, or undefined when it is no real one (31 Feb, 25:00:00). */
function utc(year: number, month: string, day: string, [h, m, s]: string[]): number | undefined {
  const monthIndex = MONTHS.indexOf(month);
  const ms = Date.UTC(year, monthIndex, Number(day), Number(h), Number(m), Number(s));
  const date = new Date(ms);
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === monthIndex &&
    date.getUTCDate() === Number(day) &&
    date.getUTCHours() === Number(h) &&
    date.getUTCMinutes() === Number(m) &&
    date.getUTCSeconds() === Number(s);
  return real ? ms : undefined;
}

/** RFC 9110: a two-digit year more than 50 years in the future is in the past century. */
function fullYear(twoDigits: number, nowMs: number): number {
  const now = new Date(nowMs).getUTCFullYear();
  const year = Math.floor(now / 100) * 100 + twoDigits;
  return year > now + 50 ? year - 100 : year;
}
