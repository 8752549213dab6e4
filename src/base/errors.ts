/** Errors the emulator reports to its user: a stable code and a message they can act on. */

/** Stable error codes of {@link EmulatorError}. */
export type EmulatorErrorCode =
  'BAD_OPTION' | 'BAD_EVENT' | 'PORT_IN_USE' | 'LISTEN_FAILED' | 'TLS_FAILED' | 'STATE_FAILED';

/** An error with a code, thrown by the public API for bad options or start-up failures. */
export class EmulatorError extends Error {
  constructor(
    readonly code: EmulatorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}
