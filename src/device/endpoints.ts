/**
 * Where a device serves each interface: paths from its CGI and stream prefixes, and
 * the full URLs a client (or a banner, or a test) uses. The one place they are built.
 */
import { CGI_NAMES, type CgiName, DEVICE_CGIS } from './cgi-table';

/**
 * Request paths of a device's endpoints (no scheme, host or query): one per CGI of the CGI
 * table (./cgi-table, each documented there), and the event stream.
 */
export type DevicePaths = { -readonly [K in keyof typeof DEVICE_CGIS]: string } & {
  /** `ws-data-stream`: the WebSocket event stream (upgrade). */
  eventStream: string;
};

/** Full URLs of a device's endpoints; `eventStream` is the `ws(s)://` URL with `?sources=events`. */
export interface DeviceUrls extends DevicePaths {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  base: string;
}

/**
 * The paths under `cgiPrefix` and `wsPrefix` (both start with `/`, no trailing `/`): made once
 * per pair and frozen, so that a fleet's devices share them.
 */
export function devicePaths(cgiPrefix: string, wsPrefix: string): DevicePaths {
  const key = `${cgiPrefix}\n${wsPrefix}`;
  let paths = madePaths.get(key);
  if (paths === undefined) {
    paths = Object.freeze({
      ...perCgi((name) => `${cgiPrefix}/${DEVICE_CGIS[name].file}`),
      eventStream: `${wsPrefix}/ws-data-stream`,
    });
    if (madePaths.size < MAX_PATH_SETS) madePaths.set(key, paths);
  }
  return paths;
}

/** The path sets made so far, by prefix pair (a bounded few: past it each is made anew). */
const madePaths = new Map<string, DevicePaths>();
const MAX_PATH_SETS = 100;

/** The URLs of `paths` on a device whose base URL is `base` (`http://...` or `https://...`). */
export function deviceUrls(base: string, paths: DevicePaths): DeviceUrls {
  const ws = base.replace(/^http/, 'ws');
  return {
    base,
    ...perCgi((name) => `${base}${paths[name]}`),
    eventStream: `${ws}${paths.eventStream}?sources=events`,
  };
}

/** One text per CGI, by name, in table order. */
function perCgi(text: (name: CgiName) => string): Record<CgiName, string> {
  return Object.fromEntries(CGI_NAMES.map((name) => [name, text(name)])) as Record<CgiName, string>;
}
