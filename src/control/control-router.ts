/**
 * The control API of the emulator, `/_emu/...` on each device's server: JSON routes to
 * drive the devices from a test (events, states, flags, sessions, journal, scenario,
 * reset), a live feed of them for the dashboard, and their OpenAPI document at `/_emu/openapi.json`. Mount the router at `/_emu`
 * ahead of the device's auth: it has its own rules (its own origin only; a bearer token,
 * or loopback only and for one of the server's own Host names).
 */
import express, { type ErrorRequestHandler, type RequestHandler, type Response } from 'express';
import { type HostAllowList, hostAllowList } from '../base/host-allow-list';
import type { Logger } from '../base/log';
import { realScheduler, type Scheduler } from '../scenario/scheduler';
import type { ControlledEmulator } from './controlled-emulator';
import { accessGuard } from './access-guard';
import { ControlError, sendError } from './control-error';
import { hostGuard } from './host-guard';
import { FeedHubs } from './feed-hubs';
import { originGuard } from './origin-guard';
import { controlDocument } from './openapi';
import { registerRoutes } from './register-routes';
import type { ControlState } from './route';
import { controlRoutes } from './route-table';

export { FeedHubs } from './feed-hubs';

/** How to build the control router of one device's port. */
export interface ControlOptions {
  /** The emulator's `EmulatorHandle`; its methods are used only once `state()` is `ready`. */
  emulator: ControlledEmulator;
  state: () => ControlState;
  /**
   * Serial of the device whose port this is; or, for one router shared by many ports, how
   * to read it from the response (the emulator puts it in `res.locals` per port).
   */
  device: string | ((res: Response) => string);
  /** Also serve `/_emu/devices/{serial}/...` (on the first device only). */
  fleetRoutes: boolean;
  /** When set, every route needs `Authorization: Bearer <token>`; without it, loopback clients only. */
  token: string | undefined;
  /**
   * The Host names served without a token (DNS rebinding: ../base/host-allow-list); the loopback
   * names are always in. Default: the loopback names only.
   */
  hosts?: HostAllowList;
  log: Logger;
  /** Time and timers of the live feed (`GET /feed`): its batches, snapshots and keepalives. Default: the wall clock. */
  scheduler?: Scheduler;
  /**
   * The live feeds and their cap, shared by every router of an emulator (the cap is the
   * emulator's). Default: this router's own, with the default cap.
   */
  feeds?: FeedHubs;
}

/** 404 `NOT_FOUND` for a path under `/_emu` that no route has. */
function notFound(log: Logger): RequestHandler {
  return (req, res) => {
    const message = `no control route ${req.method} /_emu${req.path}; see /_emu/openapi.json`;
    sendError(req, res, log, new ControlError('NOT_FOUND', message));
  };
}

/** The refusals of the body parsers (413 over 1 MiB, 400 not JSON, 415 bad charset or encoding). */
function bodyErrors(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const { status, type, message } = (err ?? {}) as { status?: unknown; type?: unknown; message?: unknown };
    if (typeof status !== 'number' || status < 400 || status >= 500) return sendError(req, res, log, err);
    const text = typeof message === 'string' ? message : 'bad body';
    const refusal =
      type === 'entity.too.large'
        ? new ControlError('PAYLOAD_TOO_LARGE', 'the body is over 1 MiB')
        : type === 'entity.parse.failed'
          ? new ControlError('BAD_REQUEST', `body: not JSON: ${text}`)
          : new ControlError(status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', `body: ${text}`, {}, status);
    sendError(req, res, log, refusal);
  };
}

/** The router of the control API, to mount at `/_emu` on a device's server (or on many, sharing it). */
export function controlRouter(options: ControlOptions): express.Router {
  const { emulator, state, device, token, log } = options;
  const routes = controlRoutes(options.fleetRoutes);
  let document: object | undefined;
  const router = express.Router();
  // A page from another origin is refused before anything else: even a wrong token would
  // count towards the address's throttle.
  router.use(originGuard(log));
  router.use(accessGuard(token, log));
  // Without a token, a loopback request is served only for one of the server's own Host names.
  router.use(hostGuard(options.hosts ?? hostAllowList('127.0.0.1'), token, log));
  registerRoutes(router, routes, {
    emulator,
    state,
    device,
    log,
    scheduler: options.scheduler ?? realScheduler,
    feeds: options.feeds ?? new FeedHubs(),
    // Made by the first request for the document. The module loads at start: loading it on
    // first use saved 0.7 MB and no measurable time (bench/lazy-load.js, case openapi).
    document: () => (document ??= controlDocument(routes)),
  });
  router.use(notFound(log));
  router.use(bodyErrors(log));
  return router;
}
