/**
 * Conditional requests on an object, as OpenStack Swift answers them (swob's
 * conditional response, the object server's `If-None-Match` on PUT): pure, no sockets.
 *
 * Reads (GET, HEAD): a matching `If-None-Match` is 304, a failing `If-Match` is 412
 * (`If-Match: *` on a missing object too), not modified since `If-Modified-Since` is 304,
 * modified since `If-Unmodified-Since` is 412, in that order. Each header is judged on
 * its own, as Swift does. Text that is not an HTTP date is ignored.
 *
 * Writes (PUT): `If-None-Match` with `*` among its tags is 412 when the object exists;
 * one without `*` is 400 (Swift: "If-None-Match only supports *").
 *
 * Where this is stricter than Swift, on purpose: `If-Match` and `If-Unmodified-Since`
 * are also judged on PUT, POST and DELETE (Swift ignores them there and overwrites), so
 * a client relying on them is told, not silently given a 2xx.
 */
import { parseHttpDate } from './http-date';

/** The object the conditions are judged against (undefined when it does not exist). */
export interface ConditionTarget {
  readonly etag: string;
  /** Epoch ms; compared in whole seconds, as HTTP dates are. */
  readonly lastModified: number;
}

/** The request headers that make a request conditional (Node's lower-case names). */
export interface ConditionHeaders {
  readonly 'if-match'?: string | undefined;
  readonly 'if-none-match'?: string | undefined;
  readonly 'if-modified-since'?: string | undefined;
  readonly 'if-unmodified-since'?: string | undefined;
}

/** The verdict: go on, or answer with this status (and, for 400, this reason). */
export type ConditionVerdict =
  | { readonly kind: 'proceed' }
  | { readonly kind: 'not-modified'; readonly status: 304; readonly header: string }
  | { readonly kind: 'failed'; readonly status: 412; readonly header: string }
  | { readonly kind: 'bad'; readonly status: 400; readonly message: string };

const PROCEED: ConditionVerdict = { kind: 'proceed' };

/** Judges the conditions of a request with `method` on `target`. */
export function judgeConditions(
  method: string,
  headers: ConditionHeaders,
  target: ConditionTarget | undefined,
): ConditionVerdict {
  const ifMatch = tagList(headers['if-match']);
  const ifNoneMatch = tagList(headers['if-none-match']);
  if (method === 'PUT' && ifNoneMatch) {
    if (!ifNoneMatch.has('*')) return { kind: 'bad', status: 400, message: 'If-None-Match only supports *' };
    if (target) return failed('If-None-Match');
  }
  const reading = method === 'GET' || method === 'HEAD';
  if (reading && target && ifNoneMatch && matches(ifNoneMatch, target.etag))
    return { kind: 'not-modified', status: 304, header: 'If-None-Match' };
  if (ifMatch) {
    // A missing object matches no tag: a read of it is 404 unless it asked for `*`; a write is 412.
    const holds = target ? matches(ifMatch, target.etag) : reading && !ifMatch.has('*');
    if (!holds) return failed('If-Match');
  }
  const seconds = target === undefined ? undefined : lastModifiedSeconds(target.lastModified);
  const since = target && httpDateSeconds(headers['if-modified-since'], target.lastModified);
  if (reading && seconds !== undefined && since !== undefined && seconds <= since)
    return { kind: 'not-modified', status: 304, header: 'If-Modified-Since' };
  const unmodifiedSince = target && httpDateSeconds(headers['if-unmodified-since'], target.lastModified);
  if (seconds !== undefined && unmodifiedSince !== undefined && seconds > unmodifiedSince)
    return failed('If-Unmodified-Since');
  return PROCEED;
}

/** An object's `Last-Modified` in whole seconds: Swift rounds its timestamp up. */
export function lastModifiedSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * The tags of an `If-Match` / `If-None-Match` value, unquoted (`W/` kept, as Swift does);
 * undefined when the header is absent. A header sent empty is an empty set, which
 * matches nothing (Swift: an empty `If-Match` is 412).
 */
export function tagList(header: string | undefined): Set<string> | undefined {
  if (header === undefined) return undefined;
  const tags = new Set<string>();
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag) tags.add(unquote(tag));
  }
  return tags;
}

/**
 * An HTTP-date in epoch seconds, or undefined when the text is none, which the caller
 * then ignores, as Swift ignores `If-Modified-Since: 2030` or `1`. A two-digit RFC 850
 * year is read as the nearest one not over 50 years after `referenceMs` (the object's
 * last change: the date is compared with it).
 */
export function httpDateSeconds(header: string | undefined, referenceMs: number): number | undefined {
  if (!header) return undefined;
  const ms = parseHttpDate(header.trim(), referenceMs);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}

function matches(tags: ReadonlySet<string>, etag: string): boolean {
  return tags.has('*') || tags.has(unquote(etag));
}

function unquote(tag: string): string {
  return tag.length > 1 && tag.startsWith('"') && tag.endsWith('"') ? tag.slice(1, -1) : tag;
}

function failed(header: string): ConditionVerdict {
  return { kind: 'failed', status: 412, header };
}
