/**
 * Errors the emulator throws to its user: a stable code and a message they can act on.
 * Wire input never throws (parsers and checkers return a {@link Result} from ./result);
 * these are for the public API: bad options, start-up failures, a client run that gave up.
 */

/** Every code an {@link EmulatorError} can carry, with what it means. */
export const ERROR_CODES = {
  BAD_OPTION: 'an option given to the API or the command line is invalid',
  BAD_SCENARIO: 'a scenario file has errors (each as file:line:col: message)',
  BAD_EVENT: 'an event to publish is malformed (topic, source, key or data)',
  PORT_IN_USE: 'the port to listen on is taken',
  LISTEN_FAILED: 'the server could not listen (address not available, permission)',
  TLS_FAILED: 'the TLS certificate could not be made or read',
  NO_SUCH_DEVICE: 'no device of the emulator has that serial or index',
  CLOSED: 'the object was used after it was closed',
  UPLOAD_FAILED: 'the body worn system gave up on a request to the content destination',
  CONNECT_FAILED: 'recording: the event stream could not be reached',
  HANDSHAKE_REFUSED: 'recording: the device refused the event stream handshake',
  TOKEN_REFUSED: 'recording: the device refused to issue a session token',
  CONFIGURE_REFUSED: 'recording: the device refused the events:configure request',
  CONNECTION_LOST: 'recording: the event stream closed before the recording ended',
  BAD_FAULT: 'a fault switch is unknown, its parameters are invalid, or it cannot act now (already rebooting)',
  BAD_OVERRIDE: 'an answer override names an unknown CGI or method, or its answer is invalid for that CGI',
  TIMEOUT: 'a wait ended before what it waited for happened (a session, a notification, a device answer)',
  LIMIT: 'a limit of the device was reached (pending session tokens of an account, ...); the message names it',
} as const;

/** Stable error codes of {@link EmulatorError}. */
export type EmulatorErrorCode = keyof typeof ERROR_CODES;

/** An error with a code, thrown by the public API for bad options, start-up failures and failed runs. */
export class EmulatorError extends Error {
  constructor(
    readonly code: EmulatorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}
