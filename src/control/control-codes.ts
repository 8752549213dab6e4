/**
 * The one catalogue of the codes the control API answers an error with: each code's HTTP
 * status and meaning (as fastify's `lib/errors.js` ties a code to its status and message).
 * A refusal names its code only ({@link ControlError} reads the status here), the emulator's
 * own errors ({@link EmulatorError}) are answered with the status listed for their code, and
 * a route's documented refusals are made from the same entries ({@link refusalDocs}).
 */
import { ERROR_CODES, type EmulatorError, type EmulatorErrorCode } from '../base/errors';

/** A code's HTTP status and what it means (the OpenAPI document quotes the meaning). */
export interface ControlCodeSpec {
  readonly status: number;
  readonly meaning: string;
}

/** Every code the control API itself refuses with (the emulator's own errors: {@link EMULATOR_ERROR_STATUSES}). */
export const CONTROL_CODES = {
  BAD_REQUEST: { status: 400, meaning: 'a field of the path, query or body is invalid; the message names it' },
  BAD_SCENARIO: { status: 400, meaning: 'the scenario has errors (each in `errors`, with its line and column)' },
  FLAG_NOT_FOUND: { status: 400, meaning: 'a flag the device does not have (nothing is changed)' },
  UNAUTHORIZED: { status: 401, meaning: 'no bearer token, or the wrong one (when a control token is set)' },
  FORBIDDEN: { status: 403, meaning: 'not from a loopback address (when no control token is set)' },
  HOST_NOT_ALLOWED: {
    status: 403,
    meaning:
      "a Host that is not one of the server's names (when no control token is set; DNS rebinding: --allowed-host adds one)",
  },
  CROSS_ORIGIN: { status: 403, meaning: 'sent by a page of another origin (Origin, Sec-Fetch-Site: cross-site)' },
  NOT_FOUND: { status: 404, meaning: 'no control API route has this path' },
  NO_SUCH_DEVICE: { status: 404, meaning: 'no device has this serial' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'the path has no route for this method; Allow lists those it has' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'the body is over 1 MiB' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'the body has a charset or content encoding the API does not read' },
  THROTTLED: {
    status: 429,
    meaning: 'too many wrong bearer tokens from the address; Retry-After says when to try again',
  },
  INTERNAL: { status: 500, meaning: 'a bug of the emulator; the log says more' },
  NOT_READY: { status: 503, meaning: 'the emulator is starting or closing' },
  TOO_MANY_FEEDS: {
    status: 503,
    meaning:
      'as many feeds are open as the emulator serves at once (the message names the cap); Retry-After says when to try again',
  },
} as const satisfies Record<string, ControlCodeSpec>;

/** A code of the control API's own (see {@link CONTROL_CODES}). */
export type ControlCode = keyof typeof CONTROL_CODES;

/**
 * The status each {@link EmulatorError} code is answered with when a handler lets one through
 * (its meaning is base/errors' `ERROR_CODES`): a wrong input of the caller, 400, but a wait that
 * ended (408) or a limit reached (429). `NO_SUCH_DEVICE` thrown by the emulator is a 400, unlike
 * the control API's own (404: a serial in the path that names no device).
 */
export const EMULATOR_ERROR_STATUSES = {
  BAD_OPTION: 400,
  BAD_SCENARIO: 400,
  BAD_EVENT: 400,
  PORT_IN_USE: 400,
  LISTEN_FAILED: 400,
  TLS_FAILED: 400,
  NO_SUCH_DEVICE: 400,
  CLOSED: 400,
  UPLOAD_FAILED: 400,
  CONNECT_FAILED: 400,
  HANDSHAKE_REFUSED: 400,
  TOKEN_REFUSED: 400,
  CONFIGURE_REFUSED: 400,
  CONNECTION_LOST: 400,
  BAD_FAULT: 400,
  BAD_OVERRIDE: 400,
  TIMEOUT: 408,
  LIMIT: 429,
} as const satisfies Record<EmulatorErrorCode, number>;

/** Any code an error answer of the control API carries. */
export type AnsweredCode = ControlCode | EmulatorErrorCode;

/** The status `err` is answered with. */
export function statusOfEmulatorError(err: EmulatorError): number {
  return EMULATOR_ERROR_STATUSES[err.code];
}

/** What a code means: the control API's own meaning, else the emulator error's. */
export function meaningOf(code: AnsweredCode): string {
  return code in CONTROL_CODES ? CONTROL_CODES[code as ControlCode].meaning : ERROR_CODES[code as EmulatorErrorCode];
}

/** The status a code is answered with: the control API's own status, else the emulator error's. */
export function statusOf(code: AnsweredCode): number {
  return code in CONTROL_CODES
    ? CONTROL_CODES[code as ControlCode].status
    : EMULATOR_ERROR_STATUSES[code as EmulatorErrorCode];
}

/**
 * A route's documented refusals, by status, made from the catalogue: `CODE: meaning` (the
 * route's own words when it gives them as `[code, meaning]`), those of one status joined by `; `.
 */
export function refusalDocs(
  ...refusals: readonly (AnsweredCode | readonly [AnsweredCode, string])[]
): Record<number, string> {
  const docs: Record<number, string> = {};
  for (const refusal of refusals) {
    const [code, meaning] = typeof refusal === 'string' ? [refusal, meaningOf(refusal)] : refusal;
    const status = statusOf(code);
    const text = `${code}: ${meaning}`;
    docs[status] = docs[status] === undefined ? text : `${docs[status]}; ${text}`;
  }
  return docs;
}
