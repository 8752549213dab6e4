/**
 * The `Retry-After` header of a 503 or 429 (RFC 9110 section 10.2.3): either
 * delay-seconds (`120`) or an HTTP-date in any of its three forms (IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
 * and asctime `Sun Nov  6 08:49:37 1994`). Anything else is no advice at all: a
 * destination may send anything, and a bad header must not stop the retries.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * How long `Retry-After` asks to wait, in ms from `nowMs` (epoch ms): 0 for a date in
 * the past; undefined when the header is absent or is neither form. Never throws.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const at = parseHttpDate(text, nowMs);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}

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
