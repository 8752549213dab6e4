/**
 * The Swift object-storage rules the content destination subset keeps, as pure
 * functions: paths and names, metadata headers and their limits, listings. Used by
 * the reference destination (to judge requests) and by the body worn system (to
 * build them). No sockets, no file system.
 */
import { err, ok, type ErrorInfo, type Result } from '../base/result';

/** Swift's documented limits (its `/info` defaults), applied as a stock cluster does. */
export const SWIFT_LIMITS = {
  maxContainerNameBytes: 256,
  maxObjectNameBytes: 1024,
  maxMetaNameBytes: 128,
  maxMetaValueBytes: 256,
  maxMetaCount: 90,
  maxMetaOverallBytes: 4096,
  maxFileSize: 5 * 1024 ** 3,
  containerListingLimit: 10_000,
} as const;

/** What a `/v1/...` path names. `object` may contain `/`. */
export type SwiftPath =
  | { kind: 'account'; account: string }
  | { kind: 'container'; account: string; container: string }
  | { kind: 'object'; account: string; container: string; object: string };

/** A refused request: the status (also its `code`) and a one-line reason (sent as the body). */
export interface SwiftRefusal extends ErrorInfo<number> {
  readonly status: number;
}

/** Either a value or the refusal to send. */
export type SwiftResult<T> = Result<T, SwiftRefusal>;

/**
 * Parses the path of a storage request (the part before `?`, still percent-encoded).
 * Refuses with 400 anything that could name a place outside its container: `.` or
 * `..` segments (also percent-encoded), NUL, backslashes, an absolute object name.
 * Stock Swift accepts some of these; a destination that stores on a file system
 * must not, and the body worn system never sends them.
 */
export function parseSwiftPath(rawPath: string): SwiftResult<SwiftPath> {
  if (!rawPath.startsWith('/v1/')) return refuse(404, 'Not Found');
  const rest = rawPath.slice(4);
  const first = rest.indexOf('/');
  const second = first < 0 ? -1 : rest.indexOf('/', first + 1);
  const parts =
    first < 0
      ? [rest]
      : second < 0
        ? [rest.slice(0, first), rest.slice(first + 1)]
        : [rest.slice(0, first), rest.slice(first + 1, second), rest.slice(second + 1)];
  const decoded: string[] = [];
  for (const part of parts) {
    const text = decodePart(part);
    if (text === undefined) return refuse(400, 'Invalid UTF8 or contains NULL');
    decoded.push(text);
  }
  const [account, container, object] = decoded;
  if (!account) return refuse(400, 'Account name required');
  const accountProblem = account.includes('/') ? 'Account name must not contain "/"' : unsafeName(account, 'account');
  if (accountProblem) return refuse(400, accountProblem);
  if (container === undefined || (container === '' && !object)) return ok({ kind: 'account', account });
  if (container === '') return refuse(400, 'Container name required');
  const containerProblem = containerNameProblem(container);
  if (containerProblem) return refuse(400, containerProblem);
  if (object === undefined || object === '') return ok({ kind: 'container', account, container });
  const objectProblem = objectNameProblem(object);
  if (objectProblem) return refuse(400, objectProblem);
  return ok({ kind: 'object', account, container, object });
}

/** Why `name` is not a valid container name, or undefined when it is. */
export function containerNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Container name required';
  if (Buffer.byteLength(name) > SWIFT_LIMITS.maxContainerNameBytes)
    return `Container name length of ${Buffer.byteLength(name)} longer than ${SWIFT_LIMITS.maxContainerNameBytes}`;
  if (name.includes('/')) return 'Container name must not contain "/"';
  return unsafeName(name, 'container');
}

/** Why `name` is not a valid object name, or undefined when it is. */
export function objectNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Object name required';
  if (Buffer.byteLength(name) > SWIFT_LIMITS.maxObjectNameBytes)
    return `Object name length of ${Buffer.byteLength(name)} longer than ${SWIFT_LIMITS.maxObjectNameBytes}`;
  if (name.startsWith('/')) return 'Object name must not be an absolute path';
  if (name.split('/').some((segment) => segment === '.' || segment === '..'))
    return 'Object name must not contain "." or ".." segments';
  return unsafeName(name, 'object');
}

/** Metadata of a container or an object: lower-case name (after the prefix) -> value as sent. */
export type SwiftMetadata = Map<string, string>;

/** Whose metadata a header names. */
export type MetadataKind = 'account' | 'container' | 'object';

/** Metadata found in request headers: what to set, and (containers) what to remove. */
export interface MetadataUpdate {
  set: SwiftMetadata;
  remove: string[];
}

/**
 * Reads `X-{Kind}-Meta-*` (and `X-Remove-{Kind}-Meta-*`) from Node's lower-cased
 * headers. An empty value removes the item, as in Swift. Values are kept exactly as
 * sent (clients URL-encode UTF-8 themselves).
 */
export function readMetadata(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  kind: MetadataKind,
): MetadataUpdate {
  const prefix = `x-${kind}-meta-`;
  const removePrefix = `x-remove-${kind}-meta-`;
  const set: SwiftMetadata = new Map();
  const remove: string[] = [];
  for (const [header, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (header.startsWith(prefix)) {
      const name = header.slice(prefix.length);
      if (value.trim() === '') remove.push(name);
      else set.set(name, value.trim());
    } else if (header.startsWith(removePrefix)) {
      remove.push(header.slice(removePrefix.length));
    }
  }
  return { set, remove };
}

/**
 * Object headers Swift keeps with an object besides its metadata and returns on GET and
 * HEAD (its `allowed_headers` without the large-object and expiry ones, which are refused).
 */
export const STORED_OBJECT_HEADERS = [
  'content-disposition',
  'content-encoding',
  'cache-control',
  'content-language',
  'expires',
  'x-robots-tag',
] as const;

/** The {@link STORED_OBJECT_HEADERS} a request sends, lower-case name -> value (empty values left out). */
export function readStoredObjectHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of STORED_OBJECT_HEADERS) {
    const raw = headers[name];
    const value = (Array.isArray(raw) ? raw.join(', ') : (raw ?? '')).trim();
    if (value !== '') kept[name] = value;
  }
  return kept;
}

/** Why `metadata` breaks Swift's limits (400), or undefined when it fits. */
export function metadataProblem(metadata: SwiftMetadata, kind: MetadataKind): string | undefined {
  let overall = 0;
  for (const [name, value] of metadata) {
    const header = canonicalHeaderName(`x-${kind}-meta-${name}`);
    if (name.length === 0) return 'Metadata name cannot be empty';
    if (Buffer.byteLength(name) > SWIFT_LIMITS.maxMetaNameBytes)
      return `Metadata name too long: ${header}; max ${SWIFT_LIMITS.maxMetaNameBytes}`;
    if (Buffer.byteLength(value) > SWIFT_LIMITS.maxMetaValueBytes)
      return `Metadata value longer than ${SWIFT_LIMITS.maxMetaValueBytes}: ${header}`;
    overall += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  if (metadata.size > SWIFT_LIMITS.maxMetaCount) return `Too many metadata items; max ${SWIFT_LIMITS.maxMetaCount}`;
  if (overall > SWIFT_LIMITS.maxMetaOverallBytes)
    return `Total metadata too large; max ${SWIFT_LIMITS.maxMetaOverallBytes}`;
  return undefined;
}

/** The response headers for stored metadata, in Swift's canonical form. */
export function metadataHeaders(metadata: SwiftMetadata, kind: MetadataKind): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of metadata) headers[canonicalHeaderName(`x-${kind}-meta-${name}`)] = value;
  return headers;
}

/**
 * Swift's header form: first letter and each letter after a hyphen upper case, the
 * rest lower case (`x-container-meta-triggerontimeiso` -> `X-Container-Meta-Triggerontimeiso`).
 */
export function canonicalHeaderName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** A listing request's parameters (`?format=json&prefix=...`). */
export interface ListingQuery {
  format: 'text' | 'json';
  limit: number;
  marker: string;
  endMarker: string;
  prefix: string;
  delimiter: string;
  reverse: boolean;
}

/** Reads a listing query: an unknown format is 400, xml (not kept) 406, a bad limit or delimiter 412. */
export function parseListingQuery(query: URLSearchParams, accept = ''): SwiftResult<ListingQuery> {
  const formatParam = query.get('format')?.toLowerCase();
  let format: 'text' | 'json' = formatParam === undefined && /application\/json/i.test(accept) ? 'json' : 'text';
  if (formatParam === 'json') format = 'json';
  else if (formatParam === 'xml')
    return refuse(406, 'XML listings are not served by this destination; use format=json');
  else if (formatParam !== undefined && formatParam !== 'plain' && formatParam !== 'text')
    return refuse(400, `Unknown format "${formatParam}"`);
  const limitText = query.get('limit');
  if (limitText !== null && !/^\d+$/.test(limitText)) return refuse(412, 'Value of limit must be a positive integer');
  const limit = limitText === null ? SWIFT_LIMITS.containerListingLimit : Number(limitText);
  if (limit > SWIFT_LIMITS.containerListingLimit)
    return refuse(412, `Maximum limit is ${SWIFT_LIMITS.containerListingLimit}`);
  const delimiter = query.get('delimiter') ?? '';
  if (delimiter.length > 1) return refuse(412, 'Bad delimiter');
  const reverse = /^(1|true|yes|on|t|y)$/i.test(query.get('reverse') ?? '');
  return ok({
    format,
    limit,
    marker: query.get('marker') ?? '',
    endMarker: query.get('end_marker') ?? '',
    prefix: query.get('prefix') ?? '',
    delimiter,
    reverse,
  });
}

/** One listed entry: a stored item, or a pseudo-directory folded by the delimiter. */
export type ListingEntry<T extends { name: string }> = { item: T } | { subdir: string };

/**
 * Selects a page of `items` (sorted by name) as Swift does: prefix, markers,
 * delimiter (names past the prefix that contain it fold into one `subdir`), limit.
 */
export function selectListing<T extends { name: string }>(items: readonly T[], query: ListingQuery): ListingEntry<T>[] {
  const ordered = query.reverse ? [...items].reverse() : items;
  const out: ListingEntry<T>[] = [];
  let lastSubdir: string | undefined;
  for (const item of ordered) {
    if (out.length >= query.limit) break;
    const name = item.name;
    if (query.prefix && !name.startsWith(query.prefix)) continue;
    if (query.marker && (query.reverse ? compareNames(name, query.marker) >= 0 : compareNames(name, query.marker) <= 0))
      continue;
    if (
      query.endMarker &&
      (query.reverse ? compareNames(name, query.endMarker) <= 0 : compareNames(name, query.endMarker) >= 0)
    )
      continue;
    if (query.delimiter) {
      const cut = name.indexOf(query.delimiter, query.prefix.length);
      if (cut >= 0) {
        const subdir = name.slice(0, cut + 1);
        // A client pages with the last entry as marker: a subdir equal to it was listed already.
        if (subdir !== lastSubdir && subdir !== query.marker) out.push({ subdir });
        lastSubdir = subdir;
        continue;
      }
    }
    out.push({ item });
  }
  return out;
}

/** Swift's name order: by UTF-8 bytes (JavaScript's `<` orders UTF-16 units, which differs above U+FFFF). */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** True when `value` is a 32-digit MD5 hex (an ETag without quotes, any case). */
export function isMd5Hex(value: string): boolean {
  return /^[0-9a-f]{32}$/i.test(value);
}

/** An `ETag` request header without its optional quotes. */
export function unquoteEtag(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

function refuse<T>(status: number, message: string): SwiftResult<T> {
  return err({ code: status, status, message });
}

/** Percent-decodes one path part; undefined for broken escapes or invalid UTF-8. */
function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function unsafeName(name: string, what: string): string | undefined {
  if (name.includes('\0')) return 'Invalid UTF8 or contains NULL';
  if (name.includes('\\')) return `The ${what} name must not contain a backslash`;
  if (name === '.' || name === '..') return `The ${what} name must not be "." or ".."`;
  if (name.includes('\ufffd')) return 'Invalid UTF8 or contains NULL';
  return undefined;
}
