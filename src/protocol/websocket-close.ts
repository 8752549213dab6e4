/**
 * What a server may put in a WebSocket close frame (RFC 6455 7.4): a code from the
 * defined range or the application range, and a reason of at most 123 bytes of UTF-8.
 */

/** The longest close reason, in bytes of UTF-8. */
export const MAX_CLOSE_REASON_BYTES = 123;

/**
 * The codes a server may send, as inclusive ranges: 1004-1006 are reserved (1005 and 1006
 * never go on the wire), 1015 is for TLS failures only, 3000-4999 are for applications.
 */
export const SENDABLE_CLOSE_CODES: readonly (readonly [number, number])[] = [
  [1000, 1003],
  [1007, 1014],
  [3000, 4999],
];

/** The ranges as a person reads them: `1000-1003, 1007-1014, 3000-4999`. */
export const SENDABLE_CLOSE_CODES_TEXT = SENDABLE_CLOSE_CODES.map(([from, to]) => `${from}-${to}`).join(', ');

/** The message of a code outside them, wherever a code is checked (options, scenarios, the control API). */
export const NOT_A_CLOSE_CODE = `not a close code a server may send (${SENDABLE_CLOSE_CODES_TEXT})`;

/** Whether a server may send `code`. */
export function isCloseCode(code: number): boolean {
  if (!Number.isInteger(code)) return false;
  return SENDABLE_CLOSE_CODES.some(([from, to]) => code >= from && code <= to);
}

/** Why `code` and `reason` cannot be sent in a close frame, or undefined when they can. */
export function closeFrameProblem(code: number, reason: string): string | undefined {
  if (!isCloseCode(code)) return `close code ${code} is not one a server may send (${SENDABLE_CLOSE_CODES_TEXT})`;
  if (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES)
    return `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes, not ${Buffer.byteLength(reason)}`;
  return undefined;
}
