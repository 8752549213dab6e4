/**
 * Registers the route table on an Express router: for each route its body parser, then
 * one dispatcher that checks readiness and the device, validates the body and query
 * with the route's schemas, calls the handler and answers; for each path a 405 (with
 * Allow) for the methods it does not take.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { type Logger, redactUrl } from '../base/log';
import type { Scheduler } from '../scenario/scheduler';
import { answerChecker, answersChecked, checkNoAnswer } from './answer-check';
import type { ControlledEmulator } from './controlled-emulator';
import { ControlError, sendError } from './control-error';
import type { FeedHubs } from './feed-hubs';
import { validate } from './validate';
import { type ControlRoute, type ControlState, Reply } from './route';

/** The largest body a route takes. */
const MAX_BODY_BYTES = 1024 * 1024;

/** What the dispatcher needs besides the route. */
export interface DispatchContext {
  emulator: ControlledEmulator;
  state: () => ControlState;
  /** Serial of the device of this port, or how to read it from the response (a router shared by many ports). */
  device: string | ((res: Response) => string);
  log: Logger;
  document: () => object;
  scheduler: Scheduler;
  feeds: FeedHubs;
  /** Check every JSON answer against the route's schema for its status (./answer-check). Default: under the tests only. */
  checkAnswers?: boolean;
}

/** The context with the check decided. */
type Checked = DispatchContext & { readonly checkAnswers: boolean };

/** `/devices/{serial}/events` -> `/devices/:serial/events` (braces mean "optional" to Express 5). */
function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The body parsers of `route`: its text media types as text, anything else as JSON. */
function bodyParsers(route: ControlRoute): RequestHandler[] {
  if (!route.body) return [];
  const textTypes = [...(route.textBody?.types ?? [])];
  const text = textTypes.length > 0 ? [express.text({ type: textTypes, limit: MAX_BODY_BYTES })] : [];
  const isText = (req: Request): boolean => textTypes.length > 0 && req.is(textTypes) !== false;
  return [...text, express.json({ type: (req) => !isText(req as Request), limit: MAX_BODY_BYTES })];
}

/** The body as the route's schema sees it: a text body is put in its field. */
function bodyOf(route: ControlRoute, req: Request): unknown {
  const body: unknown = req.body;
  if (route.textBody && typeof body === 'string') return { [route.textBody.field]: body };
  return body;
}

/** The serial of the device a route acts on: the one in the path (which must exist), or this port's. */
function deviceOf(route: ControlRoute, req: Request, res: Response, ctx: DispatchContext): string {
  if (!route.params) return typeof ctx.device === 'string' ? ctx.device : ctx.device(res);
  const serial = String(validate(route.params, req.params, 'path').serial);
  if (!ctx.emulator.devices.some((listed) => listed.device.serial === serial))
    throw new ControlError('NO_SUCH_DEVICE', `no device has the serial "${serial}"`);
  return serial;
}

/** Runs `route` for a request and answers it (an event stream route answers by itself). */
async function dispatch(route: ControlRoute, req: Request, res: Response, ctx: Checked): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  try {
    const state = ctx.state();
    if (route.whenReady && state !== 'ready')
      throw new ControlError('NOT_READY', `the emulator is ${state}; GET /_emu/health answers 200 once ready`);
    const device = deviceOf(route, req, res, ctx);
    const body = route.body ? validate(route.body, bodyOf(route, req), 'body') : undefined;
    const query = route.query ? validate(route.query, req.query, 'query') : undefined;
    const { emulator, log, document, scheduler, feeds } = ctx;
    const call = { emulator, device, body, query, state, log, document, scheduler, feeds, signal: gone.signal };
    // An event stream owns the response from here: it ends it (and logs) itself.
    if (route.kind === 'event-stream') return route.open(call, { req, res });
    const answer = await route.handler(call);
    ctx.log.debug({ method: req.method, url: redactUrl(req.originalUrl), device }, 'control API: done');
    if (answer instanceof Reply) return void res.status(answer.status).set(answer.headers).json(answer.body);
    if (route.status === 204) {
      checkNoAnswer(route, answer, ctx.checkAnswers);
      return void res.status(204).end();
    }
    res.status(route.status).json(answer);
  } catch (err) {
    // A client that went away (a long poll given up) is not answered: nobody would read it.
    if (gone.signal.aborted && !res.headersSent)
      return ctx.log.debug({ method: req.method, url: redactUrl(req.originalUrl) }, 'control API: client went away');
    sendError(req, res, ctx.log, err);
  }
}

/** Registers every route of `routes`, then a 405 for the other methods of each of their paths. */
export function registerRoutes(
  router: express.Router,
  routes: readonly ControlRoute[],
  context: DispatchContext,
): void {
  const ctx: Checked = { ...context, checkAnswers: context.checkAnswers ?? answersChecked() };
  const methods = new Map<string, string[]>();
  for (const route of routes) {
    const path = expressPath(route.path);
    // The check comes first, so that it sees the body parsers' refusals too.
    const check = ctx.checkAnswers ? [answerChecker(route, ctx.log)] : [];
    router[route.method](path, ...check, ...bodyParsers(route), (req, res) => dispatch(route, req, res, ctx));
    const allowed = methods.get(path) ?? [];
    methods.set(path, [...allowed, ...(route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()])]);
  }
  for (const [path, allowed] of methods) {
    router.all(path, (req, res) => {
      res.setHeader('Allow', allowed.join(', '));
      const message = `${req.method} is not allowed here; allowed: ${allowed.join(', ')}`;
      sendError(req, res, ctx.log, new ControlError('METHOD_NOT_ALLOWED', message));
    });
  }
}
