/**
 * Every CGI a device serves, declared once: its file under the CGI prefix, the HTTP methods
 * it takes, how it authenticates, the API that discovery lists it as, and its handler. The
 * device's routes (./device-app), its paths and URLs (./endpoints, and so the dashboard's
 * `paths` and the banner's URLs) and apidiscovery.cgi's list are made from this table.
 */
import type { RequestHandler } from 'express';
import { EVENT_STREAM_API } from '../events/configure';
import type { RpcApiSpec } from '../protocol/rpc';
import { API_DISCOVERY_API, apiDiscoveryCgi, type DiscoverableApi } from './apidiscovery-cgi';
import { BASIC_DEVICE_INFO_API, basicDeviceInfoCgi } from './basicdeviceinfo-cgi';
import { FEATURE_FLAG_API, featureFlagCgi } from './featureflag-cgi';
import { PARAM_CGI_API, paramCgi } from './param-cgi';
import { wssessionCgi } from './wssession-cgi';

/**
 * How a CGI authenticates: `device`, with the device's accounts always; `discovery`, as the
 * device's `discoveryAuth` option says (anonymous: apidiscovery.cgi without, basicdeviceinfo.cgi
 * by method once it has read the body).
 */
export type CgiAuth = 'device' | 'discovery';

/** One CGI of a device. */
export interface CgiSpec {
  /** Its file name under the device's CGI prefix. */
  readonly file: string;
  /** The HTTP methods it answers; any other is answered 405. */
  readonly methods: readonly ('GET' | 'POST')[];
  readonly auth: CgiAuth;
  /** The API apidiscovery.cgi lists it as; none for a CGI real devices do not list. */
  readonly api?: DiscoverableApi;
  /** Its JSON-RPC API (methods an answer override may name); none for a CGI that is not JSON-RPC. */
  readonly rpc?: RpcApiSpec;
  /** Makes its handler (once per CGI prefix in use), given every API the device serves (apidiscovery.cgi lists them). */
  readonly handler: (served: readonly DiscoverableApi[]) => RequestHandler;
}

/** Every CGI, by the name of its path in `DevicePaths` (./endpoints), in the order the paths list them. */
export const DEVICE_CGIS = {
  /** `featureflag.cgi`: JSON-RPC feature flags (POST). */
  featureFlags: {
    file: 'featureflag.cgi',
    methods: ['POST'],
    auth: 'device',
    api: FEATURE_FLAG_API,
    rpc: FEATURE_FLAG_API,
    handler: () => featureFlagCgi,
  },
  /** `wssession.cgi`: a session token for the event stream (GET or POST). */
  sessionToken: { file: 'wssession.cgi', methods: ['GET', 'POST'], auth: 'device', handler: () => wssessionCgi },
  /** `apidiscovery.cgi`: the APIs the device serves (POST). */
  apiDiscovery: {
    file: 'apidiscovery.cgi',
    methods: ['POST'],
    auth: 'discovery',
    api: API_DISCOVERY_API,
    rpc: API_DISCOVERY_API,
    handler: (served) => apiDiscoveryCgi(served),
  },
  /** `basicdeviceinfo.cgi`: the device's identity properties (POST). */
  basicDeviceInfo: {
    file: 'basicdeviceinfo.cgi',
    methods: ['POST'],
    auth: 'discovery',
    api: BASIC_DEVICE_INFO_API,
    rpc: BASIC_DEVICE_INFO_API,
    handler: () => basicDeviceInfoCgi,
  },
  /** `param.cgi`: identity parameters as `root.Group.Name=value` lines (GET or POST). */
  param: { file: 'param.cgi', methods: ['GET', 'POST'], auth: 'device', api: PARAM_CGI_API, handler: () => paramCgi },
} as const satisfies Record<string, CgiSpec>;

/** A CGI's name: its key in {@link DEVICE_CGIS} and in the device's paths and URLs. */
export type CgiName = keyof typeof DEVICE_CGIS;

/** The names, in table order. */
export const CGI_NAMES = Object.keys(DEVICE_CGIS) as CgiName[];

/** Every API a device serves, as apidiscovery.cgi lists them: the event stream's, then the CGIs'. */
export const SERVED_APIS: readonly DiscoverableApi[] = [
  EVENT_STREAM_API,
  ...CGI_NAMES.flatMap((name) => {
    const cgi: CgiSpec = DEVICE_CGIS[name];
    return cgi.api === undefined ? [] : [cgi.api];
  }),
];
