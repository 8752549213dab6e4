/**
 * The `Retry-After` header of a 503 or 429 (RFC 9110 section 10.2.3): either
 * delay-seconds (`120`) or an HTTP-date in any of its three forms (IMF-fixdate
 * `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
 * and asctime `Sun Nov  6 08:49:37 1994`). Anything else is no advice at all: a
 * destination may send anything, and a bad header must not stop the retries.
 */
import { parseHttpDate } from '../protocol/http-date';

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
