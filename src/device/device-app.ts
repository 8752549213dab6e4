/** The Express app of one device: its CGIs behind auth, a 404 for the rest, a 500 for bugs. */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Authenticator } from '../auth/authenticator';
import { requireAuth } from '../auth/middleware';
import type { SessionTokens } from '../auth/session-tokens';
import type { JournalAuth, JournalWriter } from '../base/journal';
import { type Logger, redactUrl } from '../base/log';
import type { ResolvedDeviceOptions } from './device-options';
import { devicePaths } from './endpoints';
import type { FeatureFlags } from './feature-flags';
import { EVENT_STREAM_API } from '../events/configure';
import { API_DISCOVERY_API, apiDiscoveryCgi } from './apidiscovery-cgi';
import { BASIC_DEVICE_INFO_API, basicDeviceInfoCgi } from './basicdeviceinfo-cgi';
import { FEATURE_FLAG_API, featureFlagCgi } from './featureflag-cgi';
import { paramCgi } from './param-cgi';
import { requestLog } from '../base/request-log';
import { allowMethods } from './rpc-endpoint';
import { wssessionCgi } from './wssession-cgi';

/** Where the emulator's control API is served on every device port. */
const CONTROL_PATH = '/_emu';

/** A request target of the control API (its requests come from the test, not the client under test). */
const CONTROL_REQUEST = /^\/_emu(\/|\?|$)/;

/** Every API a device serves, as apidiscovery.cgi lists them. */
export const SERVED_APIS = [EVENT_STREAM_API, FEATURE_FLAG_API, API_DISCOVERY_API, BASIC_DEVICE_INFO_API] as const;

/** The parts of a device its HTTP routes use. */
export interface DeviceParts {
  authenticator: Authenticator;
  tokens: SessionTokens;
  flags: FeatureFlags;
  log: Logger;
  /** Where requests and refused logins are journaled (the control API's own requests are not). */
  journal: JournalWriter | undefined;
  /** The emulator's control API, served at `/_emu` without the device's auth. */
  control: RequestHandler | undefined;
}

/** Builds the app; routes live under the configured CGI prefix. */
export function buildDeviceApp(options: ResolvedDeviceOptions, parts: DeviceParts): express.Express {
  const { authenticator, tokens, flags, log, journal } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.use(
    requestLog(
      log,
      'info',
      journal &&
        ((done) => {
          if (CONTROL_REQUEST.test(done.url)) return;
          const auth = done.scheme as JournalAuth | undefined;
          const { method, url: path, status, user, ms, remote } = done;
          journal({ kind: 'http', method, path, status, auth, user, ms, remote });
        }),
    ),
  );
  if (parts.control) app.use(CONTROL_PATH, parts.control);
  const auth = requireAuth(authenticator, log, journal && ((refusal) => journal({ kind: 'auth-refused', ...refusal })));
  const paths = devicePaths(options.cgiPrefix, options.wsPrefix);
  const discoveryAuth = options.discoveryAuth === 'anonymous' ? [] : [auth];
  // One lookup by path instead of an Express route each: a route answers every HTTP method
  // and costs ~15 KB, which a fleet of a thousand devices would pay a thousand times.
  app.use(
    dispatchByPath([
      [paths.featureFlags, [allowMethods(['POST'], log), auth, featureFlagCgi(flags, options.maxBodyBytes, log)]],
      [paths.sessionToken, [allowMethods(['GET', 'POST'], log), auth, wssessionCgi(tokens, log)]],
      [
        paths.apiDiscovery,
        [allowMethods(['POST'], log), ...discoveryAuth, apiDiscoveryCgi(SERVED_APIS, options.maxBodyBytes, log)],
      ],
      [
        paths.basicDeviceInfo,
        [allowMethods(['POST'], log), auth, basicDeviceInfoCgi(options.identity, options.maxBodyBytes, log)],
      ],
      [paths.param, [allowMethods(['GET', 'POST'], log), auth, paramCgi(options.identity, log)]],
    ]),
  );
  app.use((req: Request, res: Response) => {
    res.status(404).type('text/plain').send(`Not found: ${req.path}\n`);
  });
  app.use((err: Error, req: Request, res: Response, _next: NextFunction) => {
    log.error({ err, url: redactUrl(req.originalUrl) }, 'unhandled error');
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal error\n');
    else res.destroy();
  });
  return app;
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
