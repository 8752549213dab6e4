/**
 * The dashboard: the page at `/`, its built files under `/dashboard/` and the device's facts
 * at `/dashboard/device.json`, for any device account. The page is built from web/dashboard
 * into dist/web/dashboard (`npm run build`); this route only serves those files. Its loads are
 * not the client under test: neither the requests nor a refused login are journaled.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import type { AuthGate } from '../auth/middleware';
import { redactUrl } from '../base/log';
import { type DeviceContext, deviceOf } from './device-context';
import { devicePaths, type DevicePaths } from './endpoints';
import { allowMethods } from './rpc-endpoint';

/** Where the built page is: dist/web/dashboard, two levels above src/device (Jest) and dist/device (the package). */
export const DASHBOARD_DIR = join(__dirname, '..', '..', 'dist', 'web', 'dashboard');

/** The page's file in {@link DASHBOARD_DIR}, served at `/`. */
const PAGE_FILE = 'index.html';

/** Where the built files are served, each by its name. */
const ASSET_PREFIX = '/dashboard/';

/** The only names served from {@link DASHBOARD_DIR}: one flat directory, no dots but the extension's. */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css)$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * Scripts and styles from the device only; fetches and the event stream (ws:, wss:) to it;
 * no forms posted anywhere, no framing, no `<base>`.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' ws: wss:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every dashboard answer carries. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': DASHBOARD_CSP,
};

/** What the dashboard reads of its device, besides the shared context. */
export interface DashboardDevice extends DeviceContext {
  /** The device's authentication without a journal: 401 with the usual challenges, refusal logged only. */
  readonly authenticatePage: AuthGate;
  /** Epoch ms the device started (again after a reboot), on the device's clock. */
  readonly startedAt: number;
  /** Where the control API is served (`/_emu`), undefined when it is off. */
  readonly controlPath: string | undefined;
}

/** What `/dashboard/device.json` answers: who the device is and where its interfaces are. */
export interface DashboardDeviceInfo {
  serial: string;
  realm: string;
  identity: { model: string; name: string; firmware: string; brand: string };
  /** Epoch ms the device started; with `now`, its uptime. */
  startedAt: number;
  /** Epoch ms on the device's clock when this was answered. */
  now: number;
  paths: DevicePaths;
  control: string | null;
}

/** What a dashboard path asks for. */
type Target = { kind: 'page' } | { kind: 'info' } | { kind: 'asset'; name: string };

/** Answers the dashboard answered (request log: not journaled). */
const answered = new WeakSet<object>();

/** Whether `res` is a dashboard answer: a page load, not the client under test, so not journaled. */
export function isDashboardAnswer(res: object): boolean {
  return answered.has(res);
}

const getOrHead = allowMethods(['GET', 'HEAD']);

/**
 * The dashboard's routes; any other path (an unknown `/dashboard/x` too) goes on to the next
 * handler, unauthenticated, as the rest of the device's 404s do.
 */
export const dashboardRoute: RequestHandler = async (req, res, next) => {
  const target = targetOf(req.path);
  if (!target) return next();
  if (target.kind === 'asset' && !(await isFile(join(DASHBOARD_DIR, target.name))) && (await isBuilt())) return next();
  answered.add(res);
  res.set(SECURITY_HEADERS);
  getOrHead(req, res, () => {
    const device = deviceOf<DashboardDevice>(res);
    if (!device.authenticatePage(req, res)) return;
    if (target.kind === 'info') return send(req, res, 'json', JSON.stringify(deviceInfo(device)));
    void serveFile(req, res, target.kind === 'page' ? PAGE_FILE : target.name);
  });
};

/** The facts of `device` the page shows (device.json). */
export function deviceInfo(device: DashboardDevice): DashboardDeviceInfo {
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

/** Sends built file `name`; a file missing (the page not built) is a 500 that says how to build it. */
async function serveFile(req: Request, res: Response, name: string): Promise<void> {
  let body: Buffer;
  try {
    body = await readFile(join(DASHBOARD_DIR, name));
  } catch (err) {
    deviceOf(res).log.error(
      { err, url: redactUrl(req.originalUrl), dir: DASHBOARD_DIR },
      'dashboard not built: run npm run build',
    );
    res.status(500).type('text/plain').send(`The dashboard is not built (${name} missing): run npm run build\n`);
    return;
  }
  send(req, res, extensionOf(name), body);
}

/** A 200 of `kind`, without a body for HEAD. */
function send(req: Request, res: Response, kind: string, body: string | Buffer): void {
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[kind] ?? 'application/octet-stream',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The dashboard target of request path `path`, undefined when it is not one. */
function targetOf(path: string): Target | undefined {
  if (path === '/') return { kind: 'page' };
  if (!path.startsWith(ASSET_PREFIX)) return undefined;
  const name = path.slice(ASSET_PREFIX.length);
  if (name === 'device.json') return { kind: 'info' };
  return ASSET_NAME.test(name) ? { kind: 'asset', name } : undefined;
}

/** `js` of `main.js`. */
function extensionOf(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

/** Whether the page has been built (so a missing asset is a 404, not a build to run). */
function isBuilt(): Promise<boolean> {
  return isFile(join(DASHBOARD_DIR, PAGE_FILE));
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
