/**
 * How the control API refuses: every error is `{ error: { code, message } }` with a 4xx
 * (503 while the emulator is not ready), logged at info. A handler throws a
 * {@link ControlError}; an {@link EmulatorError} from the emulator handle becomes a 400
 * with its own code (408 for `TIMEOUT`, 429 for `LIMIT`); anything else is a bug, answered 500.
 */
import type { Request, Response } from 'express';
import { EmulatorError } from '../base/errors';
import { errorOf, type Logger, redactUrl } from '../base/log';

/** A refusal: the HTTP status, a stable code, a message, and any extra fields of `error`. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** The HTTP status an {@link EmulatorError} code is answered with. */
function statusOfEmulatorError(code: EmulatorError['code']): number {
  if (code === 'TIMEOUT') return 408;
  return code === 'LIMIT' ? 429 : 400;
}

/** Turns whatever a handler threw into the refusal to answer; undefined for a bug. */
function asControlError(err: unknown): ControlError | undefined {
  if (err instanceof ControlError) return err;
  if (err instanceof EmulatorError) return new ControlError(statusOfEmulatorError(err.code), err.code, err.message);
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
    return void res.status(500).json({ error: { code: 'INTERNAL', message: 'internal error; see the log' } });
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
