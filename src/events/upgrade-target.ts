/**
 * The path and query of an upgrade request's target, as the WHATWG URL parser would give
 * them, without running it on every handshake (it costs several microseconds each).
 */

/** The parts of a request target the stream endpoint reads. */
export interface UpgradeTarget {
  pathname: string;
  searchParams: URLSearchParams;
}

/** A path the URL parser returns as it is, once `.` segments are ruled out (`//` would start a host). */
const PLAIN_PATH = /^\/(?!\/)[-\w/.~!$&'()*+,;=:@]*$/;
/** Characters the URL parser strips, encodes (anything not printable ASCII among them) or takes as the fragment's start. */
const NEEDS_PARSER = /[^\x21-\x7e]|[#"<>`{}|\\^]/;

/**
 * Splits `target` into its path and query. A plain origin-form target (what clients
 * send) is split as it is; anything else (percent-encoding or `.` segments in the path,
 * an absolute form, control characters, a fragment) goes through `new URL`. Undefined
 * when it is not a valid URL.
 */
export function parseUpgradeTarget(target: string | undefined): UpgradeTarget | undefined {
  const raw = target ?? '/';
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  if (PLAIN_PATH.test(path) && !path.includes('/.') && !NEEDS_PARSER.test(raw))
    return { pathname: path, searchParams: new URLSearchParams(query === -1 ? '' : raw.slice(query)) };
  try {
    return new URL(raw, 'http://device.invalid');
  } catch {
    return undefined;
  }
}
