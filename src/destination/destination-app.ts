/**
 * The destination's Express app: transfer codings checked first, then faults, auth,
 * `/info` and `/healthcheck`, storage, the recordings page, control.
 */
import express, { type Express, type RequestHandler } from 'express';
import type { DestinationContext } from './destination-context';
import { requestLog } from '../base/request-log';
import { applyFaults, faultsRouter } from './routes/faults-route';
import type * as RecordingsPageModule from './routes/recordings-page';
import { isPagePath } from './routes/page-paths';
import { storageRoute } from './routes/storage-route';
import { healthcheckRoute, infoRoute } from './routes/info-route';
import { authRoute } from './routes/swift-auth-route';
import { transferCodingProblem } from '../protocol/swift-request-limits';
import { sendError, setTransactionId } from './routes/swift-response';

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
  // The pages (and their login) are loaded by the first request for one: a destination
  // that only serves Swift clients never needs them.
  let pages: RequestHandler | undefined;
  app.use((req, res, next) => {
    if (!isPagePath(req.path)) return next();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pages ??= (require('./routes/recordings-page') as typeof RecordingsPageModule).recordingsPage(ctx);
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
