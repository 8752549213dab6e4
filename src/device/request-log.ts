/** One log line per HTTP request with its status, duration and user. */
import type { RequestHandler } from 'express';
import type { AuthLocals } from '../auth/middleware';
import { type Logger, redactUrl } from '../log';

/** Logs each request when its answer is finished (or when the client went away first). */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const done = (finished: boolean): void => {
      const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      const user = (res.locals as Partial<AuthLocals>).account?.name;
      log.info({ method: req.method, url: redactUrl(req.originalUrl), status: finished ? res.statusCode : undefined, ms, user, remote: req.socket.remoteAddress }, finished ? 'request' : 'request aborted');
    };
    res.once('finish', () => done(true));
    res.once('close', () => {
      if (!res.writableFinished) done(false);
    });
    next();
  };
}
