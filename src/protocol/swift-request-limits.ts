/**
 * Limits Swift puts on a request before it looks at it, and the transfer codings it
 * takes, as measured on Swift 2.30.1: 200 header lines are served and 201 are 431
 * (Python's http.client allows `MAX_HEADER_COUNT` 126 times 1.6 and counts the blank
 * line that ends the headers); a header line of 8192 bytes or more with its CRLF is
 * refused (Swift: 400, here 431, the status HTTP has for it); only `chunked` is taken
 * as a transfer coding (anything else in the list is 501). Pure.
 */

/** At most this many header lines in a request. */
export const MAX_HEADER_LINES = 200;

/** A header line this long or longer, counting `: ` and its CRLF, is refused (Swift's `max_header_size`). */
export const MAX_HEADER_LINE_BYTES = 8192;

/** Why a `Transfer-Encoding` value is not taken (the 501 body), or undefined when it is absent or `chunked`. */
export function transferCodingProblem(header: string | undefined): string | undefined {
  if (header === undefined || header.trim().toLowerCase() === 'chunked') return undefined;
  return `Not Implemented: Transfer-Encoding ${JSON.stringify(header)} is not supported; send the body with Transfer-Encoding: chunked alone or with Content-Length`;
}
