/**
 * Topic filters of `events:configure` (ONVIF ConcreteSet dialect, plus what real
 * clients send):
 *
 * ```
 * TopicExpression ::= TopicPath ( '|' TopicPath )*
 * TopicPath       ::= RootTopic ( '/' ChildTopicName )* ( '//.' | '//' )?
 * RootTopic       ::= QName | NCName
 * ChildTopicName  ::= QName | NCName
 * ```
 *
 * A filter is compiled once per configure and then asked about every published
 * event, so all the work happens here: `matches()` is a Set lookup plus a few
 * `startsWith` calls, with no splitting, regexes or allocation.
 */
import type { FilterResult, FilterSyntaxError } from './filter-result';

/** Prefix aliases used when the caller gives none: clients of real devices write `onvif:` for `tns1:`. */
export const DEFAULT_TOPIC_ALIASES: Readonly<Record<string, string>> = Object.freeze({ onvif: 'tns1' });

/** A compiled topic expression. */
export interface TopicFilter {
  /** The expression exactly as the client sent it. */
  readonly source: string;
  /** True for `""`, whitespace only, or any alternative that is `//.`: every event matches. */
  readonly matchesAll: boolean;
  /** Whether a canonical topic (as the device publishes it) is selected; safe to call detached. */
  matches(topic: string): boolean;
}

/** How prefixes written in a filter map onto the prefixes the device publishes. */
export interface TopicFilterOptions {
  /**
   * Written prefix -> canonical prefix, applied to every QName in the filter, e.g.
   * `{ onvif: 'tns1', tnsaxis: 'tnsvendor' }`. Defaults to {@link DEFAULT_TOPIC_ALIASES};
   * pass `{}` to compare prefixes exactly as written.
   */
  readonly aliases?: Readonly<Record<string, string>>;
}

/**
 * Compiles a topic expression. Never throws: any input yields either a filter or an
 * error naming the problem and its 1-based column.
 */
export function compileTopicFilter(expression: string, options: TopicFilterOptions = {}): FilterResult<TopicFilter> {
  // The wire format is JSON, so guard against callers that forward unchecked values.
  if (typeof expression !== 'string') return fail('topic filter must be a string', 0);
  const parsed = parseExpression(expression, options.aliases ?? DEFAULT_TOPIC_ALIASES);
  if (!parsed.ok) return parsed;
  return { ok: true, filter: buildFilter(expression, parsed.paths) };
}

/** One alternative of the expression after alias resolution. */
interface CompiledPath {
  /** Canonical path, segments joined by '/'; empty for the match-all `//.`. */
  readonly path: string;
  /** True when the path ended in `//` or `//.`. */
  readonly subtree: boolean;
}

type ParseResult = { ok: true; paths: CompiledPath[] } | { ok: false; error: FilterSyntaxError };
type PathResult = { ok: true; path: CompiledPath; end: number } | { ok: false; error: FilterSyntaxError };
type NameResult = { ok: true; name: string; end: number } | { ok: false; error: FilterSyntaxError };

const MATCH_ALL: CompiledPath = { path: '', subtree: true };

function parseExpression(src: string, aliases: Readonly<Record<string, string>>): ParseResult {
  let i = skipSpace(src, 0);
  if (i === src.length) return { ok: true, paths: [MATCH_ALL] };
  const paths: CompiledPath[] = [];
  for (;;) {
    if (src[i] === '|') return fail(`'|' with nothing before it at column ${i + 1}`, i);
    const parsed = parsePath(src, i, aliases);
    if (!parsed.ok) return parsed;
    paths.push(parsed.path);
    const afterPath = parsed.end;
    const next = skipSpace(src, afterPath);
    if (next === src.length) return { ok: true, paths };
    if (src[next] !== '|') {
      // parsePath stops only at whitespace, '|' or the end, so we are past whitespace here.
      if (src[next] === '/')
        return fail(`${describeWhitespace(afterPath)}: whitespace is not allowed inside a topic path`, afterPath);
      return fail(
        `unexpected ${describeChar(src, next)} at column ${next + 1}: expected '|' between topic paths`,
        next,
      );
    }
    i = skipSpace(src, next + 1);
    if (i === src.length) return fail(`'|' with nothing after it at column ${next + 1}`, next);
  }
}

function parsePath(src: string, start: number, aliases: Readonly<Record<string, string>>): PathResult {
  if (src.startsWith('//.', start) && isPathEnd(src, start + 3)) return { ok: true, path: MATCH_ALL, end: start + 3 };
  let path = '';
  let i = start;
  for (;;) {
    const name = parseName(src, i, aliases);
    if (!name.ok) return name;
    path = path === '' ? name.name : `${path}/${name.name}`;
    i = name.end;
    if (isPathEnd(src, i)) return { ok: true, path: { path, subtree: false }, end: i };
    if (src[i] !== '/') return fail(unexpectedAfterName(src, i), i);
    if (src[i + 1] !== '/') {
      i += 1;
      continue;
    }
    i += src[i + 2] === '.' ? 3 : 2;
    if (isPathEnd(src, i)) return { ok: true, path: { path, subtree: true }, end: i };
    return fail(`unexpected ${describeChar(src, i)} at column ${i + 1}: '//' and '//.' may only end a topic path`, i);
  }
}

/** Parses `NCName` or `prefix:NCName` at `i`, resolving the prefix through the aliases. */
function parseName(src: string, i: number, aliases: Readonly<Record<string, string>>): NameResult {
  const first = matchNcName(src, i);
  if (first === i) return fail(expectedName(src, i, 'a topic name'), i);
  if (src[first] !== ':') return { ok: true, name: src.slice(i, first), end: first };
  const written = src.slice(i, first);
  const local = matchNcName(src, first + 1);
  if (local === first + 1) return fail(expectedName(src, local, `a local name after '${truncate(written)}:'`), local);
  if (src[local] === ':')
    return fail(`unexpected ':' at column ${local + 1}: a topic name has at most one prefix`, local);
  // Object.hasOwn keeps prefixes such as "constructor" away from Object.prototype.
  const prefix = Object.hasOwn(aliases, written) ? aliases[written] : written;
  return { ok: true, name: `${prefix}:${src.slice(first + 1, local)}`, end: local };
}

function buildFilter(source: string, paths: readonly CompiledPath[]): TopicFilter {
  if (paths.some((p) => p === MATCH_ALL)) {
    return Object.freeze({ source, matchesAll: true, matches: (_topic: string) => true });
  }
  // A subtree includes its own node, so its path joins the exact set and only the
  // "path/" prefix is needed for descendants; the trailing '/' keeps DeviceX out of Device//.
  const exact = new Set<string>(paths.map((p) => p.path));
  const prefixes = [...new Set(paths.filter((p) => p.subtree).map((p) => `${p.path}/`))];
  const matches =
    prefixes.length === 0
      ? (topic: string): boolean => exact.has(topic)
      : (topic: string): boolean => {
          if (exact.has(topic)) return true;
          for (let k = 0; k < prefixes.length; k++) if (topic.startsWith(prefixes[k])) return true;
          return false;
        };
  return Object.freeze({ source, matchesAll: false, matches });
}

// ---- small helpers -------------------------------------------------------------

/**
 * XML NCName, with unicode letters, marks and digits; sticky so it can scan in place.
 * Compile-time only: matching never touches it.
 */
const NCNAME = /[\p{L}_][\p{L}\p{M}\p{Nd}._-]*/uy;
const NAME_CHAR = /[\p{L}\p{M}\p{Nd}._-]/uy;

/** Returns the index after the NCName starting at `i`, or `i` when there is none. */
function matchNcName(src: string, i: number): number {
  NCNAME.lastIndex = i;
  return NCNAME.test(src) ? NCNAME.lastIndex : i;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

function skipSpace(src: string, i: number): number {
  while (i < src.length && isSpace(src[i])) i++;
  return i;
}

function isPathEnd(src: string, i: number): boolean {
  return i >= src.length || src[i] === '|' || isSpace(src[i]);
}

/** Message for a position where a name was required but something else is there. */
function expectedName(src: string, i: number, what: string): string {
  if (i >= src.length) return `expected ${what} at column ${i + 1}, found end of expression`;
  const ch = src[i];
  if (ch === '/') return `unexpected '/' at column ${i + 1}: empty topic name`;
  if (isSpace(ch)) return `${describeWhitespace(i)}: whitespace is not allowed inside a topic path`;
  if (ch === '|') return `unexpected '|' at column ${i + 1}: expected ${what}`;
  if (ch === ':') return `unexpected ':' at column ${i + 1}: expected ${what}`;
  NAME_CHAR.lastIndex = i;
  if (NAME_CHAR.test(src))
    return `unexpected ${describeChar(src, i)} at column ${i + 1}: a topic name must start with a letter or '_'`;
  return `invalid character ${describeChar(src, i)} at column ${i + 1}`;
}

/** Message for a character after a complete name that is not '/', '|', whitespace or the end. */
function unexpectedAfterName(src: string, i: number): string {
  if (src[i] === ':') return `unexpected ':' at column ${i + 1}: a topic name has at most one prefix`;
  return `invalid character ${describeChar(src, i)} at column ${i + 1}`;
}

function describeWhitespace(i: number): string {
  return `unexpected whitespace at column ${i + 1}`;
}

/** Quotes a printable character; names invisible ones by code point so the message stays readable. */
function describeChar(src: string, i: number): string {
  if (i >= src.length) return 'end of expression';
  const cp = src.codePointAt(i) ?? 0;
  const invisible =
    cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || /\s/u.test(String.fromCodePoint(cp));
  if (invisible) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${String.fromCodePoint(cp)}'`;
}

/** Keeps error messages short when a client sends a huge name. */
function truncate(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 40)}...`;
}

function fail(message: string, index: number): { ok: false; error: FilterSyntaxError } {
  return { ok: false, error: { message, column: index + 1 } };
}
