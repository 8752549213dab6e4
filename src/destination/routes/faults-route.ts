/**
 * The fault control endpoint, `/_emu/faults`, and the middleware that applies the
 * rules: GET lists them with their hit counts, PUT replaces them (a JSON list),
 * POST adds one, DELETE clears them. Behind the destination's own credentials, since
 * a fault can make every storage request fail: an `X-Auth-Token` from `/auth/v1.0`, or
 * Basic/Digest with a login and its key; a read-only login may not use it (403).
 */
import express, { type RequestHandler, type Router } from 'express';
import type { DestinationContext } from '../destination-context';
import type { FaultRule } from '../faults';
import { pageLogin } from './page-login';
import { sendError } from './swift-response';

/** The control routes. */
export function faultsRouter(ctx: DestinationContext): Router {
  const router = express.Router();
  router.use(controlLogin(ctx));
  const json = express.json({ limit: '64kb', strict: false, type: () => true });
  const reply = (res: express.Response, status = 200): void => {
    res.status(status).json(ctx.faults.list());
  };
  router.get('/', (_req, res) => reply(res));
  router.put('/', json, (req, res) => {
    if (!Array.isArray(req.body)) return void res.status(400).json({ error: 'PUT a JSON list of fault rules' });
    const replaced = ctx.faults.replace(req.body as unknown[]);
    if (!replaced.ok) return void res.status(400).json({ error: replaced.error.message });
    ctx.log.info({ faults: ctx.faults.list().map(ruleText) }, 'fault rules replaced');
    reply(res);
  });
  router.post('/', json, (req, res) => {
    const added = ctx.faults.add(req.body as unknown);
    if (!added.ok) return void res.status(400).json({ error: added.error.message });
    ctx.log.info({ faults: ctx.faults.list().map(ruleText) }, 'fault rule added');
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

/** Lets a request on the control endpoint go on only with the credentials of a login that may write. */
function controlLogin(ctx: DestinationContext): RequestHandler {
  const check = pageLogin(ctx, 'fault control');
  return (req, res, next) => {
    const token = req.headers['x-auth-token'];
    let user: string | undefined;
    if (typeof token === 'string') {
      const verdict = ctx.tokens.verify(token);
      if (!verdict.ok) {
        ctx.log.info({ path: req.originalUrl, reason: verdict.error.code }, 'fault control: token refused');
        return sendError(req, res, 401, verdict.error.message);
      }
      user = verdict.value.user;
    } else {
      user = check(req, res)?.user;
      if (user === undefined) return;
    }
    if (ctx.options.users.find((u) => u.user === user)?.readOnly) {
      ctx.log.info({ path: req.originalUrl, user }, 'fault control: read-only login refused');
      return sendError(req, res, 403, `Forbidden: user ${user} is read-only`);
    }
    next();
  };
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

/** A fault rule in one line for the log: `503 PUT /v1/AUTH_bws share=0.5 latencyMs=200 times=3 hits=1`. */
function ruleText(rule: FaultRule & { hits: number }): string {
  const { status, methods, pathPrefix, share, latencyMs, times, hits } = rule;
  const parts = [status ?? 'delay', methods?.join(',') ?? 'any', pathPrefix ?? '/'];
  if (share !== undefined) parts.push(`share=${share}`);
  if (latencyMs !== undefined) parts.push(`latencyMs=${latencyMs}`);
  if (times !== undefined) parts.push(`times=${times}`);
  return [...parts, `hits=${hits}`].join(' ');
}
