/**
 * The one shape of every parser's and checker's outcome: a value, or an error with a
 * stable code and a message the user can act on. Wire input never throws; it gets a
 * Result, and the caller turns the error into its own answer (HTTP status, JSON-RPC
 * error, close code, CLI line).
 */

/** What went wrong: a stable code (a string, or a protocol's number) and a message for people. */
export interface ErrorInfo<C extends string | number = string | number> {
  readonly code: C;
  readonly message: string;
}

/** A success carrying `value`. */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

/** A failure carrying `error`. */
export interface Err<E extends ErrorInfo> {
  readonly ok: false;
  readonly error: E;
}

/** The outcome of a parser or checker. */
export type Result<T, E extends ErrorInfo = ErrorInfo> = Ok<T> | Err<E>;

/** A success. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** A failure with `error` as it is (for errors with more fields than code and message). */
export function err<E extends ErrorInfo>(error: E): Err<E> {
  return { ok: false, error };
}

/** A failure with just a code and a message. */
export function fail<C extends string | number>(code: C, message: string): Err<ErrorInfo<C>> {
  return { ok: false, error: { code, message } };
}
