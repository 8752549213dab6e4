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
import { ok, type Result } from '../base/result';
import { FilterCursor, type FilterSyntaxError, isSpace, syntaxError, truncate } from './filter-syntax';

/** Prefix aliases used when the caller gives none: clients of real devices write `onvif:` for `tns1:`. */
export const DEFAULT_TOPIC_ALIASES: Readonly<Record<string, string>> = Object.freeze({ onvif: 'tns1' });

/**
 * The spec's neutral vendor namespace prefix (`tns1:Device/tnsvendor:IO/Port`): scenarios
 * and the default states are written in it, and a device may publish it under another
 * word (`tnsaxis`), see the device option `namespace`.
 */
export const NEUTRAL_NAMESPACE = 'tnsvendor';

/**
 * `topic` with the prefix `from` of each of its names replaced by `to`
 * (`tns1:Device/tnsvendor:IO/Port` -> `tns1:Device/tnsaxis:IO/Port`). Only whole prefixes
 * change: `tnsvendor2:X` and a local name `tnsvendor` stay as they are.
 */
export function renameTopicPrefix(topic: string, from: string, to: string): string {
  if (from === to || !topic.includes(`${from}:`)) return topic;
  const written = `${from}:`;
  return topic
    .split('/')
    .map((name) => (name.startsWith(written) ? `${to}:${name.slice(written.length)}` : name))
    .join('/');
}

/** A compiled topic expression. */
export interface TopicFilter {
  /** The expression exactly as the client sent it. */
  readonly source: string;
  /** True for `""`, whitespace only, or any alternative that is `//.`: every event matches. */
  readonly matchesAll: boolean;
  /** Whether a canonical topic (as the device publishes it) is selected; safe to call detached. */
  readonly matches: (topic: string) => boolean;
  /** Alternatives (`a|b|c` has 3; match-all has 1): the filter's size for the device's limits. */
  readonly terms: number;
  /** Canonical topics selected exactly (a subtree's own root included); empty for match-all. */
  readonly exact: readonly string[];
  /** Canonical prefixes (`path/`) whose descendants are selected, one per subtree; empty for match-all. */
  readonly subtrees: readonly string[];
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
export function compileTopicFilter(
  expression: string,
  options: TopicFilterOptions = {},
): Result<TopicFilter, FilterSyntaxError> {
  // The wire format is JSON, so guard against callers that forward unchecked values.
  if (typeof expression !== 'string') return syntaxError('topic filter must be a string', 0);
  const parsed = parseExpression(new FilterCursor(expression), options.aliases ?? DEFAULT_TOPIC_ALIASES);
  if (!parsed.ok) return parsed;
  return ok(buildFilter(expression, parsed.value));
}

/** One alternative of the expression after alias resolution. */
interface CompiledPath {
  /** Canonical path, segments joined by '/'; empty for the match-all `//.`. */
  readonly path: string;
  /** True when the path ended in `//` or `//.`. */
  readonly subtree: boolean;
}

type Aliases = Readonly<Record<string, string>>;

const MATCH_ALL: CompiledPath = { path: '', subtree: true };

/** TopicExpression: the alternatives in order, or the first error by position. */
function parseExpression(cur: FilterCursor, aliases: Aliases): Result<CompiledPath[], FilterSyntaxError> {
  cur.skipSpace();
  if (cur.atEnd()) return ok([MATCH_ALL]);
  const paths: CompiledPath[] = [];
  for (;;) {
    if (cur.peek() === '|') return cur.fail(`'|' with nothing before it at column ${cur.column}`);
    const parsed = parsePath(cur, aliases);
    if (!parsed.ok) return parsed;
    paths.push(parsed.value);
    const afterPath = cur.pos;
    cur.skipSpace();
    if (cur.atEnd()) return ok(paths);
    if (cur.peek() !== '|') {
      // parsePath stops only at whitespace, '|' or the end, so we are past whitespace here.
      if (cur.peek() === '/')
        return cur.fail(`${describeWhitespace(afterPath)}: whitespace is not allowed inside a topic path`, afterPath);
      return cur.fail(`unexpected ${cur.describeChar()} at column ${cur.column}: expected '|' between topic paths`);
    }
    const bar = cur.pos;
    cur.skip(1);
    cur.skipSpace();
    if (cur.atEnd()) return cur.fail(`'|' with nothing after it at column ${bar + 1}`, bar);
  }
}

/** TopicPath: names joined by '/', optionally ending in `//` or `//.`; leaves the cursor after it. */
function parsePath(cur: FilterCursor, aliases: Aliases): Result<CompiledPath, FilterSyntaxError> {
  if (cur.lookingAt('//.') && isPathEnd(cur, 3)) {
    cur.skip(3);
    return ok(MATCH_ALL);
  }
  let path = '';
  for (;;) {
    const name = parseName(cur, aliases);
    if (!name.ok) return name;
    path = path === '' ? name.value : `${path}/${name.value}`;
    if (isPathEnd(cur)) return ok({ path, subtree: false });
    if (cur.peek() !== '/') return cur.fail(unexpectedAfterName(cur));
    if (cur.peek(1) !== '/') {
      cur.skip(1);
      continue;
    }
    cur.skip(cur.peek(2) === '.' ? 3 : 2);
    if (isPathEnd(cur)) return ok({ path, subtree: true });
    return cur.fail(
      `unexpected ${cur.describeChar()} at column ${cur.column}: '//' and '//.' may only end a topic path`,
    );
  }
}

/** Parses `NCName` or `prefix:NCName` at the cursor, resolving the prefix through the aliases. */
function parseName(cur: FilterCursor, aliases: Aliases): Result<string, FilterSyntaxError> {
  const written = cur.readNcName();
  if (written === '') return cur.fail(expectedName(cur, 'a topic name'));
  if (cur.peek() !== ':') return ok(written);
  cur.skip(1);
  const local = cur.readNcName();
  if (local === '') return cur.fail(expectedName(cur, `a local name after '${truncate(written)}:'`));
  if (cur.peek() === ':')
    return cur.fail(`unexpected ':' at column ${cur.column}: a topic name has at most one prefix`);
  // Object.hasOwn keeps prefixes such as "constructor" away from Object.prototype.
  const prefix = Object.hasOwn(aliases, written) ? aliases[written] : written;
  return ok(`${prefix}:${local}`);
}

/** Turns the parsed alternatives into the frozen filter whose `matches()` does no parsing at all. */
function buildFilter(source: string, paths: readonly CompiledPath[]): TopicFilter {
  if (paths.some((p) => p === MATCH_ALL)) {
    return Object.freeze({ source, matchesAll: true, matches: matchEverything, terms: 1, exact: [], subtrees: [] });
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
  return Object.freeze({
    source,
    matchesAll: false,
    matches,
    terms: paths.length,
    exact: Object.freeze([...exact]),
    subtrees: Object.freeze(prefixes),
  });
}

/** The match-all filter's test: one function for every such filter. */
function matchEverything(_topic: string): boolean {
  return true;
}

// ---- small helpers -------------------------------------------------------------

/** Characters that may continue an NCName: tells "bad first character" from "invalid character". */
const NAME_CHAR = /[\p{L}\p{M}\p{Nd}._-]/uy;

/** Whether a topic path ends `offset` characters past the cursor: at the end, a '|' or whitespace. */
function isPathEnd(cur: FilterCursor, offset = 0): boolean {
  const ch = cur.peek(offset);
  return ch === undefined || ch === '|' || isSpace(ch);
}

/** Message for the cursor's position, where a name was required but something else is there. */
function expectedName(cur: FilterCursor, what: string): string {
  if (cur.atEnd()) return `expected ${what} at column ${cur.column}, found end of expression`;
  const ch = cur.peek();
  if (ch === '/') return `unexpected '/' at column ${cur.column}: empty topic name`;
  if (isSpace(ch)) return `${describeWhitespace(cur.pos)}: whitespace is not allowed inside a topic path`;
  if (ch === '|') return `unexpected '|' at column ${cur.column}: expected ${what}`;
  if (ch === ':') return `unexpected ':' at column ${cur.column}: expected ${what}`;
  NAME_CHAR.lastIndex = cur.pos;
  if (NAME_CHAR.test(cur.src))
    return `unexpected ${cur.describeChar()} at column ${cur.column}: a topic name must start with a letter or '_'`;
  return `invalid character ${cur.describeChar()} at column ${cur.column}`;
}

/** Message for a character after a complete name that is not '/', '|', whitespace or the end. */
function unexpectedAfterName(cur: FilterCursor): string {
  if (cur.peek() === ':') return `unexpected ':' at column ${cur.column}: a topic name has at most one prefix`;
  return `invalid character ${cur.describeChar()} at column ${cur.column}`;
}

/** The start of a whitespace message; whitespace is reported where it begins, not where the next token is. */
function describeWhitespace(i: number): string {
  return `unexpected whitespace at column ${i + 1}`;
}
