/**
 * The control API serves its own origin only. A web page the user happens to have open
 * can send a "simple" request (a text/plain POST, an image GET) to a loopback port with
 * no CORS preflight, and the JSON body parser takes any media type: without this guard
 * any site could switch faults on or reset the emulator. Browsers say where a request
 * comes from (`Origin`, `Sec-Fetch-Site`); tools (curl, Python, Node fetch) send
 * neither and pass untouched. Behind a reverse proxy that rewrites `Host` or ends TLS, the
 * page's own origin no longer matches what the device sees, and its POSTs are refused:
 * point the browser at the device's port instead (docs/control-api.md).
 */
import type { RequestHandler } from 'express';
import { type Clock, systemClock } from '../base/clock';
import type { Logger } from '../base/log';
import { LogSummary } from '../base/log-summary';
import type { ControlCode } from './control-codes';
import { ControlError, refuse, sendError } from './control-error';

/** The code of the 403 answered to a request from another origin. */
export const CROSS_ORIGIN = 'CROSS_ORIGIN' satisfies ControlCode;

/** The longest `Origin` quoted back in a message. */
const MAX_QUOTED = 200;

/** Refusals logged one by one per interval; a hostile page sending more gets them counted in one line. */
const LOGGED_REFUSALS = { intervalMs: 10_000, burst: 10 };

/** What {@link crossOriginReason} reads of a request. */
export interface RequestOrigin {
  /** `http` or `https`: the scheme the request came in on. */
  protocol: string;
  /** The `Host` header. */
  host: string | undefined;
  /** The `Origin` header. */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header. */
  fetchSite: string | undefined;
}

/**
 * Why the request comes from another origin than its own (`protocol://Host`), or undefined
 * when it does not: an `Origin` that is another one (`null`, unparsable, or without a Host
 * to compare with counts as another), or `Sec-Fetch-Site: cross-site`.
 */
export function crossOriginReason(request: RequestOrigin): string | undefined {
  const { origin, fetchSite } = request;
  if (fetchSite?.trim().toLowerCase() === 'cross-site')
    return 'a cross-site request (Sec-Fetch-Site: cross-site): the control API serves its own origin only';
  if (origin === undefined) return undefined;
  // What a browser sends for a page of this server, as it is: no URL to parse.
  if (request.host !== undefined && origin === `${request.protocol}://${request.host}`) return undefined;
  const own = originOf(`${request.protocol}://${request.host ?? ''}`);
  if (own !== undefined && originOf(origin) === own) return undefined;
  const quoted = origin.length > MAX_QUOTED ? `${origin.slice(0, MAX_QUOTED)}...` : origin;
  const mine = own === undefined ? '' : ` (${own})`;
  return `Origin ${JSON.stringify(quoted)} is not this server's own${mine}: the control API serves its own origin only`;
}

/**
 * Refuses a request from another origin with 403 `CROSS_ORIGIN`, logged at info with the
 * reason: the first few of each interval one by one, the others counted into one warning
 * (a page can send them as fast as it likes). A request with neither header (a tool) is
 * passed on at once.
 */
export function originGuard(log: Logger, clock: Clock = systemClock): RequestHandler {
  const summary = new LogSummary(log, clock, {
    message: 'control API: cross-origin requests refused, not logged one by one',
    ...LOGGED_REFUSALS,
  });
  return (req, res, next) => {
    const origin = req.headers.origin;
    const fetchSite = req.get('Sec-Fetch-Site');
    if (origin === undefined && fetchSite === undefined) return next();
    const reason = crossOriginReason({ protocol: req.protocol, host: req.headers.host, origin, fetchSite });
    if (reason === undefined) return next();
    const refusal = new ControlError(CROSS_ORIGIN, reason);
    if (summary.admit(req.socket.remoteAddress)) sendError(req, res, log, refusal);
    else refuse(res, refusal);
  };
}

/** `scheme://host[:port]` of a URL, its default port left out; undefined for `null` or what does not parse. */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.host === '') return undefined;
  return parsed.origin;
}
