/**
 * How the control API refuses: every error is `{ error: { code, message } }` with a 4xx
 * (503 while the emulator is not ready), logged at info. A handler throws a
 * {@link ControlError} naming its code, whose status is the catalogue's (./control-codes); an
 * {@link EmulatorError} from the emulator handle is answered with its own code and the status
 * the catalogue lists for it (400, 408 for `TIMEOUT`, 429 for `LIMIT`); anything else is a
 * bug, answered 500 `INTERNAL`.
 */
import type { Request, Response } from 'express';
import { EmulatorError } from '../base/errors';
import { errorOf, type Logger, redactUrl } from '../base/log';
import { type AnsweredCode, CONTROL_CODES, statusOf, statusOfEmulatorError } from './control-codes';

/** A refusal: a stable code, a message, any extra fields of `error`, and the code's HTTP status. */
export class ControlError extends Error {
  /**
   * `status` is the code's in the catalogue; only a refusal that passes on another's status (a
   * body parser's 4xx) gives its own.
   */
  constructor(
    readonly code: AnsweredCode,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly status: number = statusOf(code),
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** What a bug is answered with: the fixed body of 500 `INTERNAL`. */
export const INTERNAL_ERROR_BODY = { error: { code: 'INTERNAL', message: 'internal error; see the log' } } as const;

/** Turns whatever a handler threw into the refusal to answer; undefined for a bug. */
function asControlError(err: unknown): ControlError | undefined {
  if (err instanceof ControlError) return err;
  if (err instanceof EmulatorError) return new ControlError(err.code, err.message, {}, statusOfEmulatorError(err));
  return undefined;
}

/** Answers `err` as a refusal (logged at info) or, for a bug, as a 500 (logged as an error). */
export function sendError(req: Request, res: Response, log: Logger, err: unknown): void {
  const refusal = asControlError(err);
  const { method } = req;
  const url = redactUrl(req.originalUrl);
  const remote = req.socket.remoteAddress;
  if (!refusal) {
    log.error({ method, url, remote, err: errorOf(err) }, 'control API: internal error');
    if (res.headersSent) return void res.destroy();
    return void res.status(CONTROL_CODES.INTERNAL.status).json(INTERNAL_ERROR_BODY);
  }
  log.info(
    { method, url, remote, status: refusal.status, code: refusal.code, reason: refusal.message },
    'control API: refused',
  );
  refuse(res, refusal);
}

/** Answers `refusal` without a log line (for a refusal whose lines are counted instead: ../base/log-summary). */
export function refuse(res: Response, refusal: ControlError): void {
  if (res.headersSent) return void res.destroy();
  res.status(refusal.status).json({ error: { code: refusal.code, message: refusal.message, ...refusal.extra } });
}
