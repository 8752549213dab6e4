/**
 * What a server may put in a WebSocket close frame (RFC 6455 7.4): a code from the
 * defined range or the application range, and a reason of at most 123 bytes of UTF-8.
 */

/** The longest close reason, in bytes of UTF-8. */
export const MAX_CLOSE_REASON_BYTES = 123;

/** Whether a server may send `code` (1004-1006 are reserved; 3000-4999 are for applications). */
export function isCloseCode(code: number): boolean {
  if (!Number.isInteger(code)) return false;
  return (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
}

/** Why `code` and `reason` cannot be sent in a close frame, or undefined when they can. */
export function closeFrameProblem(code: number, reason: string): string | undefined {
  if (!isCloseCode(code)) return `close code ${code} is not one a server may send (1000-1003, 1007-1014, 3000-4999)`;
  if (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES)
    return `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes, not ${Buffer.byteLength(reason)}`;
  return undefined;
}
