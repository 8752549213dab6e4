/** One log line per HTTP request with its status, duration and user. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { type Logger, type LogLevel, redactUrl } from './log';

/** A request as {@link logRequest} reads it: Express's, or Node's own (whose `url` is then the target). */
export type LoggedRequest = IncomingMessage & { originalUrl?: string };

/** A response as {@link logRequest} reads it: with the `locals` a route put the user in. */
export type LoggedResponse = ServerResponse & { locals: object };

/** What an authenticating middleware puts in `res.locals`: the account that logged in. */
export interface AuthLocals<A extends { name: string } = { name: string }> {
  /** The authenticated account; undefined when the server runs without authentication. */
  account: A | undefined;
  /** How it authenticated (`digest`, `basic`, `none`, ...). */
  scheme?: string;
}

/** Who made a request, as a route put it in `res.locals` (a device account, a destination user). */
export interface RequestLocals extends Partial<AuthLocals> {
  user?: string;
  /** The JSON-RPC error the request was answered with (HTTP 200 carrying an `error`), if any. */
  rpcError?: { code: number; message: string };
}

/** A request as it ended: what {@link requestLog} logs and hands to `onDone`. */
export interface RequestDone {
  method: string;
  /** Path and query, session tokens redacted. */
  url: string;
  /** Undefined when the client went away before the answer. */
  status: number | undefined;
  ms: number;
  user: string | undefined;
  scheme: string | undefined;
  remote: string | undefined;
  /** See {@link RequestLocals.rpcError}. */
  rpcError: { code: number; message: string } | undefined;
}

/**
 * Logs each request at `level` when its answer is finished (or when the client went
 * away first), with its status, duration and user; `onDone` hears the same (a journal).
 */
export function requestLog(
  log: Logger,
  level: Exclude<LogLevel, 'silent'> = 'info',
  onDone?: (done: RequestDone) => void,
): RequestHandler {
  return (req, res, next) => {
    logRequest(req, res, log, level, onDone);
    next();
  };
}

/** What {@link requestLog} does for one request: logs it (and tells `onDone`) when it ends. */
export function logRequest(
  req: LoggedRequest,
  res: LoggedResponse,
  log: Logger,
  level: Exclude<LogLevel, 'silent'>,
  onDone: ((done: RequestDone) => void) | undefined,
): void {
  // Nobody would hear of this request (its level is off, no journal): no listeners, no clock.
  if (!onDone && !log.isLevelEnabled(level)) return;
  const started = process.hrtime.bigint();
  // Read now: a destroyed request has no socket any more by the time it is logged.
  const remote = req.socket?.remoteAddress;
  const done = (finished: boolean): void => {
    const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
    const locals = res.locals as RequestLocals;
    const user = locals.account?.name ?? locals.user;
    const url = redactUrl(req.originalUrl ?? req.url ?? '/');
    const status = finished ? res.statusCode : undefined;
    const method = req.method ?? 'GET';
    log[level]({ method, url, status, ms, user, remote }, finished ? 'request' : 'request aborted');
    onDone?.({ method, url, status, ms, user, scheme: locals.scheme, remote, rpcError: locals.rpcError });
  };
  res.once('finish', () => done(true));
  res.once('close', () => {
    if (!res.writableFinished) done(false);
  });
}
