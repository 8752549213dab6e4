/**
 * Limits Swift puts on a request before it looks at it, and the transfer codings it
 * takes. Swift's proxy refuses more than 201 header lines (its `MAX_HEADER_COUNT`,
 * 126, times 1.6) with 431, and takes only `chunked` as a transfer coding (anything
 * else in the list is 501). Pure.
 */

/** At most this many header lines in a request. */
export const MAX_HEADER_LINES = 201;

/** At most this many bytes in one header line (Swift's `max_header_size`). */
export const MAX_HEADER_LINE_BYTES = 8192;

/** Why a `Transfer-Encoding` value is not taken (the 501 body), or undefined when it is absent or `chunked`. */
export function transferCodingProblem(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
  if (codings.length === 1 && codings[0] === 'chunked') return undefined;
  const others = codings.filter((c) => c !== 'chunked');
  return `Not Implemented: transfer coding ${others.join(', ') || '(empty)'} is not supported; send the body with Transfer-Encoding: chunked alone or with Content-Length`;
}
