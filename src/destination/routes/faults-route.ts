/**
 * The fault control endpoint, `/_emu/faults`, and the middleware that applies the
 * rules: GET lists them with their hit counts, PUT replaces them (a JSON list),
 * POST adds one, DELETE clears them. Meant for a test harness on the same machine;
 * like the rest of the emulator it listens on 127.0.0.1 unless told otherwise.
 */
import express, { type RequestHandler, type Router } from 'express';
import type { DestinationContext } from '../destination-context';
import { sendError } from './swift-response';

/** The control routes. */
export function faultsRouter(ctx: DestinationContext): Router {
  const router = express.Router();
  const json = express.json({ limit: '64kb', strict: false, type: () => true });
  const reply = (res: express.Response, status = 200): void => {
    res.status(status).json(ctx.faults.list());
  };
  router.get('/', (_req, res) => reply(res));
  router.put('/', json, (req, res) => {
    if (!Array.isArray(req.body)) return void res.status(400).json({ error: 'PUT a JSON list of fault rules' });
    const replaced = ctx.faults.replace(req.body as unknown[]);
    if (!replaced.ok) return void res.status(400).json({ error: replaced.error.message });
    ctx.log.info({ faults: ctx.faults.list() }, 'fault rules replaced');
    reply(res);
  });
  router.post('/', json, (req, res) => {
    const added = ctx.faults.add(req.body as unknown);
    if (!added.ok) return void res.status(400).json({ error: added.error.message });
    ctx.log.info({ faults: ctx.faults.list() }, 'fault rule added');
    reply(res, 201);
  });
  router.delete('/', (_req, res) => {
    ctx.faults.replace([]);
    ctx.log.info('fault rules cleared');
    res.status(204).end();
  });
  router.use(((err, req, res, _next) => {
    res.status(400).json({ error: `the body is not JSON: ${(err as Error).message}` });
    ctx.log.info({ path: req.originalUrl }, 'fault control: body is not JSON');
  }) as express.ErrorRequestHandler);
  return router;
}

/** Applies the fault rules to a request: waits the latency, then answers the fault status or goes on. */
export function applyFaults(ctx: DestinationContext): RequestHandler {
  return (req, res, next) => {
    const path = req.originalUrl.split('?', 1)[0];
    const decision = ctx.faults.decide(req.method, path);
    if (decision.status === undefined && decision.latencyMs === 0) return next();
    const act = (): void => {
      if (decision.status === undefined) return next();
      ctx.log.info({ method: req.method, path, status: decision.status }, 'fault injected');
      sendError(
        req,
        res,
        decision.status,
        decision.status === 503
          ? 'Service Unavailable: busy, retry soon (injected fault)'
          : decision.status === 507
            ? 'Insufficient Storage (injected fault)'
            : 'Internal Server Error (injected fault)',
        decision.status === 503 ? { 'Retry-After': '1' } : {},
      );
    };
    if (decision.latencyMs > 0) void ctx.options.sleep(decision.latencyMs).then(act);
    else act();
  };
}
