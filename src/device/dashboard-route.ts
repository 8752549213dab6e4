/**
 * The dashboard: the page at `/`, its built files under `/dashboard/` and the device's facts
 * at `/dashboard/device.json`, for any device account, under the device's own Host names only
 * (DNS rebinding: ../base/host-allow-list). The page is built from web/dashboard
 * into dist/web/dashboard (`npm run build`); this route only serves those files. Its loads are
 * not the client under test: neither the requests nor a refused login are journaled (it says
 * so in the request's locals, which the journal reads).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { contentType } from 'mime-types';
import { type HostCheck, hostNotAllowedMessage } from '../base/host-check';
import { redactUrl } from '../base/log';
import { PAGE_SECURITY_HEADERS, sendPageBody } from '../base/page-answer';
import type { DashboardDeviceInfo } from './dashboard-info';
import { type DeviceContext, deviceOf, requestLocals } from './device-context';
import { devicePaths } from './endpoints';
import { allowMethods } from './rpc-endpoint';

/** Where the built page is: dist/web/dashboard, two levels above src/device (Jest) and dist/device (the package). */
export const DASHBOARD_DIR = join(__dirname, '..', '..', 'dist', 'web', 'dashboard');

/** The page's file in {@link DASHBOARD_DIR}, served at `/`. */
const PAGE_FILE = 'index.html';

/** Where the built files are served, each by its name. */
const ASSET_PREFIX = '/dashboard/';

/** The only names served from {@link DASHBOARD_DIR}: one flat directory, no dots but the extension's. */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css)$/;

/**
 * Scripts and styles from the device only; fetches and the event stream (ws:, wss:) to it;
 * no forms posted anywhere, no framing, no `<base>`.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' ws: wss:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every dashboard answer carries (its 401 and 405 too). */
const SECURITY_HEADERS = { ...PAGE_SECURITY_HEADERS, 'Content-Security-Policy': DASHBOARD_CSP } as const;

/** What the dashboard reads of its device, besides the shared context. */
export interface DashboardDevice extends DeviceContext {
  /** The device's Host check (DNS rebinding): the page and its files are served under its own names only. */
  readonly hostCheck: HostCheck;
  /** Epoch ms the device started (again after a reboot), on the device's clock. */
  readonly startedAt: number;
  /** Where the control API is served (`/_emu`), undefined when it is off. */
  readonly controlPath: string | undefined;
}

/** What `/dashboard/device.json` answers: declared with its schema (./dashboard-info). */
export type { DashboardDeviceInfo };

/** What a dashboard path asks for. */
type Target = { kind: 'page' } | { kind: 'info' } | { kind: 'asset'; name: string };

const PAGE: Target = { kind: 'page' };
const INFO: Target = { kind: 'info' };

/**
 * The built files there were at the last look, so that a request before a login reads no file:
 * a name not among them is the device's 404 at once, one among them asks for the login first.
 * Every page load looks again (a checkout rebuilt or cleaned while the device runs is seen at
 * the next load), and so does every asset request while the page is not built (only an unbuilt
 * checkout pays that, and it answers 500 anyway). Undefined until the first look.
 */
let built: ReadonlySet<string> | undefined;

const getOrHead = allowMethods(['GET', 'HEAD']);

/**
 * The dashboard's routes; any other path (an unknown `/dashboard/x` too) goes on to the next
 * handler, unauthenticated, as the rest of the device's 404s do. Every device request passes
 * here: those not for the dashboard go on at once, synchronously; only the page and its files
 * are read, asynchronously, their errors handed to `next`.
 */
export const dashboardRoute: RequestHandler = (req, res, next) => {
  const target = targetOf(req.path);
  if (!target) return next();
  if (target.kind === 'asset') return void serveAsset(req, res, next, target.name).catch(next);
  answer(req, res, (device) => {
    if (target.kind === 'info') return send(req, res, 'device.json', JSON.stringify(deviceInfo(device)));
    lookAgain()
      .then(() => readBuilt(PAGE_FILE))
      .then((page) => (page ? send(req, res, PAGE_FILE, page) : notBuilt(req, res, PAGE_FILE)))
      .catch(next);
  });
};

/** The facts of `device` the page shows (device.json). */
function deviceInfo(device: DashboardDevice): DashboardDeviceInfo {
  const { options } = device;
  const { identity } = options;
  return {
    serial: options.serial,
    realm: options.realm,
    identity: {
      model: identity.ProdNbr,
      name: identity.ProdFullName,
      firmware: identity.Version,
      brand: identity.Brand,
    },
    startedAt: device.startedAt,
    now: options.clock.now(),
    paths: devicePaths(options.cgiPrefix, options.wsPrefix),
    control: device.controlPath ?? null,
  };
}

/**
 * Serves built file `name`, read once the login passed; one that is not among the built files
 * goes on to the device's 404 without a login, as any unknown path does.
 */
async function serveAsset(req: Request, res: Response, next: NextFunction, name: string): Promise<void> {
  let names = built ?? (await lookAgain());
  if (!names.has(PAGE_FILE)) names = await lookAgain();
  if (!names.has(PAGE_FILE)) return answer(req, res, () => notBuilt(req, res, name));
  if (!names.has(name)) return next();
  answer(req, res, () => {
    readBuilt(name)
      .then((body) => (body ? send(req, res, name, body) : next()))
      .catch(next);
  });
}

/**
 * A dashboard answer: not journaled, with its security headers, for one of the device's own
 * Host names only (403 first), GET or HEAD only (405 before a login), then `then` once the
 * device's login passed (401 with its challenges until it does).
 */
function answer(req: Request, res: Response, then: (device: DashboardDevice) => void): void {
  requestLocals(res).journaled = false;
  res.set(SECURITY_HEADERS);
  const device = deviceOf<DashboardDevice>(res);
  // Before the login: a rebinding page must not even make the browser ask for the password under its name.
  if (!device.hostCheck.admit(req)) {
    res
      .status(403)
      .type('text/plain')
      .send(`Forbidden: ${hostNotAllowedMessage(req.headers.host, false)}\n`);
    return;
  }
  getOrHead(req, res, () => {
    if (device.authenticate(req, res)) then(device);
  });
}

/** The names in {@link DASHBOARD_DIR} now (none when it is missing), kept in {@link built}. */
async function lookAgain(): Promise<ReadonlySet<string>> {
  try {
    built = new Set(await readdir(DASHBOARD_DIR));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    built = new Set();
  }
  return built;
}

/** Built file `name`, undefined when it is missing (any other read error is thrown). */
async function readBuilt(name: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(DASHBOARD_DIR, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The 500 of a page not built, saying how to build it; logged as an error. */
function notBuilt(req: Request, res: Response, name: string): void {
  deviceOf(res).log.error(
    { url: redactUrl(req.originalUrl), dir: DASHBOARD_DIR },
    'dashboard not built: run npm run build',
  );
  res.status(500).type('text/plain').send(`The dashboard is not built (${name} missing): run npm run build\n`);
}

/** A 200 with `body`, typed by the extension of `name`, without the body for HEAD. */
function send(req: Request, res: Response, name: string, body: string | Buffer): void {
  sendPageBody(req, res, 200, contentType(name) || 'application/octet-stream', body);
}

/** The dashboard target of request path `path`, undefined when it is not one. */
function targetOf(path: string): Target | undefined {
  if (path === '/') return PAGE;
  if (!path.startsWith(ASSET_PREFIX)) return undefined;
  const name = path.slice(ASSET_PREFIX.length);
  if (name === 'device.json') return INFO;
  return ASSET_NAME.test(name) ? { kind: 'asset', name } : undefined;
}
