/** Reading the collected exchanges: headers, the container and object of a path, and what kind of request it was. */
import { type Exchange, header, RETRIED_STATUSES } from '../swift-client';

/** A request header by its lower-case name (the body worn system sends mixed case). */
export function requestHeader(exchange: Exchange, name: string): string | undefined {
  return Object.entries(exchange.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];
}

/** A response header by its lower-case name; an exchange without an answer has none. */
export function responseHeader(exchange: Exchange, name: string): string | undefined {
  return header(exchange.responseHeaders ?? {}, name);
}

/** Whether a status is a success; no status (no answer) is not. */
export function is2xx(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/** Whether the destination really answered: a retried answer (503, 500, 429) says nothing about the interface. */
export function answered(exchange: Exchange): boolean {
  return exchange.status !== undefined && !RETRIED_STATUSES.includes(exchange.status);
}

/** A successful write (PUT or POST): what the destination should have stored. */
export function written(exchange: Exchange): boolean {
  return is2xx(exchange.status) && (exchange.method === 'PUT' || exchange.method === 'POST');
}

/** `/container/object/name` -> `['container', 'object/name']` (both still encoded). */
export function splitPath(path: string): [string, string] {
  const cut = path.indexOf('/', 1);
  if (cut < 0) return [path.slice(1), ''];
  return [path.slice(1, cut), path.slice(cut + 1)];
}

/** What a request addressed, read from its path; the auth request is told by its X-Auth-User. */
export function kindOf(exchange: Exchange): 'auth' | 'account' | 'container' | 'object' {
  if (requestHeader(exchange, 'x-auth-user') !== undefined) return 'auth';
  const [container, object] = splitPath(exchange.path);
  if (container === '') return 'account';
  if (object === '') return 'container';
  return 'object';
}

/** The X-*-Meta-* request headers of exchanges, later ones overriding earlier (case-insensitive names). */
export function metaOf(exchanges: Exchange[]): Record<string, string> {
  const byLower = new Map<string, [string, string]>();
  for (const e of exchanges)
    for (const [name, value] of Object.entries(e.requestHeaders))
      if (/^x-(container|object)-meta-/i.test(name)) byLower.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(byLower.values());
}

/** URL-decodes, or keeps the value as it is when it is not valid percent-encoding (a destination may send anything). */
export function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Whether a returned metadata value is the one sent (URL-encoded): equal once
 * URL-decoded (a destination may return either form), or the same UTF-8 sent back
 * raw (node reads header bytes as latin1, so `ö` arrives as two characters).
 */
export function sameMetaValue(got: string, sent: string): boolean {
  const meant = decode(sent);
  return decode(got) === meant || Buffer.from(got, 'latin1').toString('utf8') === meant;
}
