/**
 * Where a device serves each interface: paths from its CGI and stream prefixes, and
 * the full URLs a client (or a banner, or a test) uses. The one place they are built.
 */

/** Request paths of a device's endpoints (no scheme, host or query). */
export interface DevicePaths {
  /** `featureflag.cgi`: JSON-RPC feature flags (POST). */
  featureFlags: string;
  /** `wssession.cgi`: a session token for the event stream (GET or POST). */
  sessionToken: string;
  /** `apidiscovery.cgi`: the APIs the device serves (POST). */
  apiDiscovery: string;
  /** `basicdeviceinfo.cgi`: the device's identity properties (POST). */
  basicDeviceInfo: string;
  /** `param.cgi`: identity parameters as `root.Group.Name=value` lines (GET or POST). */
  param: string;
  /** `ws-data-stream`: the WebSocket event stream (upgrade). */
  eventStream: string;
}

/** Full URLs of a device's endpoints; `eventStream` is the `ws(s)://` URL with `?sources=events`. */
export interface DeviceUrls extends DevicePaths {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  base: string;
}

/** The paths under `cgiPrefix` and `wsPrefix` (both start with `/`, no trailing `/`). */
export function devicePaths(cgiPrefix: string, wsPrefix: string): DevicePaths {
  return {
    featureFlags: `${cgiPrefix}/featureflag.cgi`,
    sessionToken: `${cgiPrefix}/wssession.cgi`,
    apiDiscovery: `${cgiPrefix}/apidiscovery.cgi`,
    basicDeviceInfo: `${cgiPrefix}/basicdeviceinfo.cgi`,
    param: `${cgiPrefix}/param.cgi`,
    eventStream: `${wsPrefix}/ws-data-stream`,
  };
}

/** The URLs of `paths` on a device whose base URL is `base` (`http://...` or `https://...`). */
export function deviceUrls(base: string, paths: DevicePaths): DeviceUrls {
  const ws = base.replace(/^http/, 'ws');
  return {
    base,
    featureFlags: `${base}${paths.featureFlags}`,
    sessionToken: `${base}${paths.sessionToken}`,
    apiDiscovery: `${base}${paths.apiDiscovery}`,
    basicDeviceInfo: `${base}${paths.basicDeviceInfo}`,
    param: `${base}${paths.param}`,
    eventStream: `${ws}${paths.eventStream}?sources=events`,
  };
}
