/**
 * The HTTP face of a device: its CGIs behind auth, the dashboard, a 404 for the rest, a 500
 * for bugs, on one Express app shared by every device in the process.
 */
import type { RequestListener } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Authenticator } from '../auth/authenticator';
import { type CredentialRefusal, checkCredentials } from '../auth/middleware';
import { clientVia, type IgnoredTagLog } from '../base/client-tag';
import { bodyExcerpt } from '../base/body-excerpt';
import { type HttpEntry, type JournalAuth, type JournalWriter, writeVia } from '../base/journal';
import { hostAllowList } from '../base/host-allow-list';
import { HostCheck } from '../base/host-check';
import { redactUrl } from '../base/log';
import type { AnswerOverrides } from './answer-overrides';
import { dashboardRoute, type DashboardDevice } from './dashboard-route';
import { controlSockets, type DeviceContext, deviceOf, requestLocals, setDevice } from './device-context';
import type { HttpFaults } from './faults/fault-target';
import { devicePaths } from './endpoints';
import { CGI_NAMES, type CgiAuth, type CgiSpec, DEVICE_CGIS, SERVED_APIS } from './cgi-table';
import { type LoggedRequest, type LoggedResponse, logRequest } from '../base/request-log';
import { overrideStep } from './override-step';
import { allowMethods } from './rpc-endpoint';
import { serveSessionToken } from './wssession-cgi';

/** Where the emulator's control API is served on every device port. */
const CONTROL_PATH = '/_emu';

/** A request target of the control API (its requests come from the test, not the client under test). */
const CONTROL_REQUEST = /^\/_emu(\/|\?|$)/;

/** The parts of a device its HTTP routes use. */
export interface DeviceParts extends DeviceContext {
  authenticator: Authenticator;
  /** Where requests and refused logins are journaled (the control API's own requests are not). */
  journal: JournalWriter | undefined;
  /** The emulator's control API, served at `/_emu` without the device's auth. */
  control: RequestHandler | undefined;
  /** How the CGIs misbehave (the `cgi` fault switch). */
  http: HttpFaults;
  /** When the device started, on its clock: set again by a reboot (the dashboard shows the uptime). */
  boot: DeviceBoot;
  /** Where a request's ignored `X-BWC-Emu-Client` value is logged (shared with the event stream). */
  ignoredTags: IgnoredTagLog;
}

/** What holds a device's authentication, made at its first use. */
export interface AuthHolder {
  readonly authenticator: Authenticator;
}

/** What the routes of a device are built from: its parts, its authentication through its holder. */
export type DeviceRoutesParts = Omit<DeviceParts, 'authenticate' | 'authenticator'> & { auth: AuthHolder };

/** The device's start time, one small object a reboot updates. */
export interface DeviceBoot {
  startedAt: number;
}

/**
 * A device as the shared app sees it: its parts, its request log and its authentication.
 * A class, so that a fleet's thousand devices share the methods instead of a set of
 * closures each.
 */
class DeviceRoutes implements DeviceParts, DashboardDevice {
  readonly options: DeviceParts['options'];
  readonly tokens: DeviceParts['tokens'];
  readonly flags: DeviceParts['flags'];
  readonly log: DeviceParts['log'];
  readonly journal: JournalWriter | undefined;
  readonly control: RequestHandler | undefined;
  readonly http: HttpFaults;
  readonly boot: DeviceBoot;
  readonly ignoredTags: IgnoredTagLog;
  private hostChecked: HostCheck | undefined;

  /** Where the authentication is made at its first use (the device's makeup). */
  private readonly auth: AuthHolder;

  constructor(parts: DeviceRoutesParts) {
    this.auth = parts.auth;
    this.options = parts.options;
    this.tokens = parts.tokens;
    this.flags = parts.flags;
    this.log = parts.log;
    this.journal = parts.journal;
    this.control = parts.control;
    this.http = parts.http;
    this.boot = parts.boot;
    this.ignoredTags = parts.ignoredTags;
  }

  /** Read from the parts on each use: a device makes its authentication at the first request that needs it. */
  get authenticator(): Authenticator {
    return this.auth.authenticator;
  }

  get overrides(): AnswerOverrides | undefined {
    return this.http.overrides;
  }

  get startedAt(): number {
    return this.boot.startedAt;
  }

  get controlPath(): string | undefined {
    return this.control ? CONTROL_PATH : undefined;
  }

  /** Made on the first dashboard request: most devices of a fleet never serve the page. */
  get hostCheck(): HostCheck {
    const { host, allowedHosts, clock } = this.options;
    return (this.hostChecked ??= new HostCheck(hostAllowList(host, allowedHosts), this.log, clock, 'dashboard'));
  }

  /**
   * Request log and journal (the control API's own requests and the dashboard's page loads are
   * not journaled; the dashboard's CGI calls, told by its header, are, marked `via`). Reads
   * what the request listener and the routes put in the request's locals.
   */
  logRequest(req: LoggedRequest, res: LoggedResponse, next: () => void): void {
    const { journal } = this;
    logRequest(
      req,
      res,
      this.log,
      'info',
      journal &&
        ((done) => {
          const locals = requestLocals(res);
          if (!locals.journaled || CONTROL_REQUEST.test(done.url)) return;
          const scheme = done.scheme as JournalAuth | undefined;
          const { method, url: path, status, user, ms, remote, rpcError: error } = done;
          const http: HttpRecord = { kind: 'http', method, path, status, auth: scheme, user, ms, remote, error };
          if (locals.rpcMethod !== undefined) http.call = locals.rpcMethod;
          if (locals.token !== undefined) http.token = locals.token;
          if (locals.override !== undefined) http.override = locals.override;
          if (locals.refusedBody !== undefined && refused(status, error)) http.body = bodyExcerpt(locals.refusedBody);
          writeVia(journal, http, locals.via);
        }),
    );
    next();
  }

  authenticate(req: LoggedRequest, res: LoggedResponse): boolean {
    return checkCredentials(req, res, this.authenticator, this.journal && journalRefusal);
  }
}

/** An `http` record as the request log builds it: its optional fields added only when there is something to say. */
type HttpRecord = { -readonly [K in keyof Omit<HttpEntry, 'seq' | 'time' | 'device'>]: HttpEntry[K] };

/**
 * Whether a request's answer refused it, so that the journal keeps what it sent: a JSON-RPC error,
 * or a 4xx but 401 (whose credentials the `auth-refused` entry tells of, and whose body is not kept).
 */
function refused(status: number | undefined, error: HttpEntry['error']): boolean {
  return error !== undefined || (status !== undefined && status >= 400 && status < 500 && status !== 401);
}

/**
 * Journals a refused login as the request's (marked with its `via`), unless its route said the
 * request is not the client's. One function for every device: it finds the journal through `res`.
 */
function journalRefusal(refusal: CredentialRefusal, res: LoggedResponse): void {
  const locals = requestLocals(res);
  const { journal } = deviceOf<DeviceRoutes>(res);
  if (journal && locals.journaled) writeVia(journal, { kind: 'auth-refused', ...refusal }, locals.via);
}

const routesOf = (res: Response): DeviceRoutes => deviceOf<DeviceRoutes>(res);

/** The device's authentication, for the shared routes. */
const auth: RequestHandler = (req, res, next) => {
  if (routesOf(res).authenticate(req, res)) next();
};

/**
 * Discovery and device info: with `discoveryAuth: 'required'` authenticated first, like the
 * other CGIs; with `anonymous` apidiscovery.cgi goes without, and basicdeviceinfo.cgi
 * authenticates by method once it has read the body (see rpcEndpoint's `anonymousMethods`).
 */
const discoveryAuth: RequestHandler = (req, res, next) => {
  if (routesOf(res).options.discoveryAuth === 'anonymous') next();
  else auth(req, res, next);
};

/** The authentication step of each kind of CGI. */
const AUTH_STEPS: Record<CgiAuth, RequestHandler> = { device: auth, discovery: discoveryAuth };

/** The CGI routes of every device with these prefixes, made once per prefix pair. */
const dispatchers = new Map<string, RequestHandler>();

function dispatcherFor(cgiPrefix: string, wsPrefix: string): RequestHandler {
  const key = `${cgiPrefix}\n${wsPrefix}`;
  let dispatch = dispatchers.get(key);
  if (dispatch) return dispatch;
  const paths = devicePaths(cgiPrefix, wsPrefix);
  // One lookup by path instead of an Express route each: a route answers every HTTP method
  // and costs ~15 KB.
  dispatch = dispatchByPath(
    CGI_NAMES.map((name) => {
      const cgi: CgiSpec = DEVICE_CGIS[name];
      const steps = [allowMethods(cgi.methods), AUTH_STEPS[cgi.auth]];
      // A JSON-RPC CGI applies overrides itself, once it has read the method from the body.
      if (cgi.rpc === undefined) steps.push(overrideStep(cgi.file));
      return [paths[name], [...steps, cgi.handler(SERVED_APIS)]];
    }),
  );
  dispatchers.set(key, dispatch);
  return dispatch;
}

/**
 * The `cgi` fault switch: every answer after the control API delayed, or 503 (as from an
 * overloaded or starting device).
 */
const cgiFault: RequestHandler = (req, res, next) => {
  const fault = routesOf(res).http.cgi;
  if (!fault) return next();
  const answer = (): void => {
    if (fault.status === undefined) return next();
    routesOf(res).log.info({ url: redactUrl(req.originalUrl) }, 'cgi fault: 503');
    res.status(503).set('Retry-After', '5').type('text/plain').send('Service Unavailable\n');
  };
  if (fault.delayMs > 0) setTimeout(answer, fault.delayMs);
  else answer();
};

let sharedApp: express.Express | undefined;

/**
 * The one Express app every device in the process runs on: it holds no device, each
 * request carries its own. An app with its routes costs ~16 KB, which a fleet of a
 * thousand devices would otherwise pay a thousand times.
 */
function deviceApp(): express.Express {
  if (sharedApp) return sharedApp;
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => routesOf(res).logRequest(req, res, next));
  app.use(CONTROL_PATH, (req, res, next) => {
    const { control } = routesOf(res);
    if (!control) return next();
    // The test's own connection: a simulated reboot spares it (../base/listening-server).
    controlSockets.add(req.socket);
    control(req, res, next);
  });
  // Before the cgi fault switch: the page loads while its CGI calls show the fault.
  app.use(dashboardRoute);
  app.use(cgiFault);
  app.use((req, res, next) => {
    const { options } = routesOf(res);
    dispatcherFor(options.cgiPrefix, options.wsPrefix)(req, res, next);
  });
  app.use((req: Request, res: Response) => {
    res.status(404).type('text/plain').send(`Not found: ${req.path}\n`);
  });
  app.use((err: Error, req: Request, res: Response, _next: NextFunction) => {
    routesOf(res).log.error({ err, url: redactUrl(req.originalUrl) }, 'unhandled error');
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal error\n');
    else res.destroy();
  });
  sharedApp = app;
  return app;
}

/** The request listener of one device: the shared app, with this device in each request. */
export function buildDeviceApp(parts: DeviceRoutesParts): RequestListener {
  const routes = new DeviceRoutes(parts);
  const app = deviceApp();
  const { sessionToken } = devicePaths(parts.options.cgiPrefix, parts.options.wsPrefix);
  // A token request takes the app's steps without Express (see serveSessionToken); the
  // control API and the cgi fault switch stay with the app.
  const tokenPath = CONTROL_REQUEST.test(sessionToken) ? undefined : sessionToken;
  return (req, res) => {
    // Once per request, for every step after (the fast token path too): which client sent it.
    setDevice(res, routes, clientVia(req.headers, routes.ignoredTags, req.socket.remoteAddress));
    const withLocals = res as typeof res & { locals: object };
    if (
      tokenPath !== undefined &&
      !routes.http.cgi &&
      !routes.http.overrides?.size &&
      serveSessionToken(req, withLocals, routes, tokenPath)
    )
      return;
    app(req, res);
  };
}

/**
 * Runs the handlers of the request's path in order, each calling the next as Express
 * does; paths match as Express's do by default (case-insensitive, one trailing `/`).
 */
function dispatchByPath(routes: readonly (readonly [string, readonly RequestHandler[]])[]): RequestHandler {
  const byPath = new Map(routes.map(([path, handlers]) => [routeKey(path), handlers]));
  return (req, res, next) => {
    const handlers = byPath.get(routeKey(req.path));
    if (!handlers) return next();
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        void Promise.resolve(handler(req, res, step)).catch(step);
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}

/** A path as routes compare it: lower case, without one trailing `/`. */
function routeKey(path: string): string {
  return (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();
}
