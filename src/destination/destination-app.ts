/**
 * The destination's Express app: transfer codings checked first, then faults, auth,
 * `/info` and `/healthcheck`, storage, the recordings page, control; and the request
 * listener that serves a plain Swift login without it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { DestinationContext } from './destination-context';
import { errorOf } from '../base/log';
import { logRequest, requestLog } from '../base/request-log';
import { applyFaults, faultsRouter } from './routes/faults-route';
import { recordingsPage } from './routes/recordings-page';
import { isPagePath } from './routes/page-paths';
import { storageRoute } from './routes/storage-route';
import { healthcheckRoute, infoRoute } from './routes/info-route';
import { type AuthHandler, authRoute } from './routes/swift-auth-route';
import { transferCodingProblem } from '../protocol/swift-request-limits';
import { sendError, setTransactionId } from './routes/swift-response';

/**
 * The destination's request listener. A plain Swift login (`GET /auth/v1.0`, no query, no
 * transfer coding) while no fault rule is set goes straight to its handler after the app's
 * first steps (the transaction id, the debug request log), without Express's routing: under a
 * flood of refused logins that routing was a third of what each refusal cost (issue 29). The
 * answer is the same either way; every other request goes through the app.
 */
export function buildDestinationListener(ctx: DestinationContext): RequestListener {
  const app = buildDestinationApp(ctx);
  const login = authRoute(ctx);
  return (req, res) => {
    if (!ctx.faults.empty || !isPlainLogin(req)) {
      app(req, res);
      return;
    }
    setTransactionId(res);
    // Nothing is gathered for a level that is off, as the app's requestLog does.
    if (ctx.log.isLevelEnabled('debug'))
      logRequest(req, Object.assign(res, { locals: {} }), ctx.log, 'debug', undefined);
    serveLogin(ctx, login, req, res);
  };
}

/** A login with nothing for the app's other steps to do: no query, no transfer coding (501), GET as routed. */
function isPlainLogin(req: IncomingMessage): boolean {
  return (
    req.method === 'GET' &&
    (req.url === '/auth/v1.0' || req.url === '/auth/v1.0/') &&
    req.headers['transfer-encoding'] === undefined
  );
}

/** Runs the login handler as the app would, answering 500 (and logging why) if it throws. */
function serveLogin(ctx: DestinationContext, login: AuthHandler, req: IncomingMessage, res: ServerResponse): void {
  try {
    login(req, res);
  } catch (err) {
    ctx.log.error({ err: errorOf(err), method: req.method, url: req.url }, 'login failed with an error');
    if (!res.headersSent) sendError(req, res, 500, 'Internal Server Error');
    else res.destroy();
  }
}

/** Builds the app. No body parser runs globally: object bodies stream straight to the store. */
export function buildDestinationApp(ctx: DestinationContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req, res, next) => {
    setTransactionId(res);
    const coding = transferCodingProblem(req.headers['transfer-encoding']);
    if (coding === undefined) return next();
    ctx.log.info({ method: req.method, url: req.originalUrl, reason: coding }, 'request refused: transfer coding');
    sendError(req, res, 501, coding);
  });
  // One line per request at debug: an upload is many requests, the recordings have their own info lines.
  app.use(requestLog(ctx.log, 'debug'));
  app.use('/_emu/faults', faultsRouter(ctx));
  app.use(['/auth', '/v1'], applyFaults(ctx));
  app.get(['/auth/v1.0', '/auth/v1.0/'], authRoute(ctx));
  app.all('/info', infoRoute(ctx));
  app.all('/healthcheck', healthcheckRoute());
  const storage = storageRoute(ctx);
  app.use((req, res, next) => (req.path === '/v1' || req.path.startsWith('/v1/') ? storage(req, res, next) : next()));
  // The pages (and their login) are made by the first request for one: a destination that
  // only serves Swift clients never needs them. Their modules load at start: loading them on
  // first use saved 0.6 MB and no measurable time (bench/lazy-load.js, case destination-pages).
  let pages: RequestHandler | undefined;
  app.use((req, res, next) => {
    if (!isPagePath(req.path)) return next();
    pages ??= recordingsPage(ctx);
    pages(req, res, next);
  });
  app.use((req, res) => {
    ctx.log.info({ method: req.method, url: req.originalUrl }, 'no such route');
    sendError(
      req,
      res,
      404,
      `Not Found: ${req.method} ${req.path} (storage is under /v1/{account}, auth at /auth/v1.0, capabilities at /info)`,
    );
  });
  return app;
}
