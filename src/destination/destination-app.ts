/**
 * The destination's Express app: transfer codings checked first, then faults, auth,
 * `/info` and `/healthcheck`, storage, the recordings page, control.
 */
import express, { type Express } from 'express';
import type { DestinationContext } from './destination-context';
import { requestLog } from '../base/request-log';
import { applyFaults, faultsRouter } from './routes/faults-route';
import { recordingsPage } from './routes/recordings-page';
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
  app.use(recordingsPage(ctx));
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
