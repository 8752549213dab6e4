/**
 * What a param.cgi request asks for and the answer's lines, without HTTP: the arguments
 * (query and form body), the group patterns (`root.` prefix, comma lists, `*` wildcards)
 * and the `root.Group.Key=value` or `# Error: ...` lines real devices answer with.
 */
import { type ErrorInfo, fail, ok, type Result } from '../base/result';
import type { Parameter } from './parameter-tree';

/** The arguments of one request. */
export interface ParamArguments {
  /** The last `action` given (the form body's over the query's); undefined when none is. */
  action: string | undefined;
  /** Each group pattern as sent, comma lists split; undefined for "every group". */
  groups: string[] | undefined;
}

/** Why a group pattern selects nothing by its form alone. */
export type GroupPatternError = ErrorInfo<'empty-group' | 'empty-segment'>;

/** The lines of a `list` answer and the patterns that selected nothing (each answered by an error line). */
export interface ParamListing {
  lines: string[];
  unmatched: string[];
}

/**
 * Reads `action` and `group` from the query string and the request body. The body is read as
 * a form whatever its Content-Type says: a widely used client library posts
 * `action=list&group=root.Brand` as `text/plain`, and real devices answer it.
 */
export function paramArguments(query: string, body = ''): ParamArguments {
  const pairs = [...new URLSearchParams(query), ...new URLSearchParams(body)];
  const actions = pairs.filter(([name]) => name === 'action').map(([, value]) => value);
  const groupValues = pairs.filter(([name]) => name === 'group').map(([, value]) => value);
  const given = groupValues.filter((value) => value !== '');
  return {
    action: actions.length > 0 ? actions[actions.length - 1] : undefined,
    groups: given.length > 0 ? given.flatMap((value) => value.split(',')) : undefined,
  };
}

/**
 * The segments of a group pattern: `root.` (or `root` alone, the whole tree) dropped,
 * split at `.`. A segment may hold `*`, which matches any run of characters within one
 * segment (`IOPort.*.Direction`, `Image.*.Name`, `Brand.Prod*`).
 */
export function parseGroupPattern(raw: string): Result<string[], GroupPatternError> {
  const pattern = raw.trim();
  if (pattern === '') return fail('empty-group', 'empty group name');
  if (pattern === 'root') return ok([]);
  const segments = (pattern.startsWith('root.') ? pattern.slice('root.'.length) : pattern).split('.');
  if (segments.some((s) => s === '')) return fail('empty-segment', `group "${pattern}" has an empty name between dots`);
  return ok(segments);
}

/**
 * The parameters a pattern selects: those whose path starts with segments the pattern's
 * segments match, so a group selects everything below it and a full path one parameter.
 */
export function selectParameters(tree: readonly Parameter[], segments: readonly string[]): Parameter[] {
  const matchers = segments.map(segmentMatcher);
  return tree.filter((parameter) => {
    const parts = parameter.path.split('.');
    return parts.length >= matchers.length && matchers.every((matches, i) => matches(parts[i]));
  });
}

/**
 * The answer to `action=list`: for each pattern in order its parameters as
 * `root.Path=value`, or `# Error: Error -1 getting param in group 'PATTERN'` (the real
 * device's text) when it selects none. No pattern lists the whole tree.
 */
export function listParameters(tree: readonly Parameter[], groups: readonly string[] | undefined): ParamListing {
  if (groups === undefined) return { lines: tree.map(line), unmatched: [] };
  const lines: string[] = [];
  const unmatched: string[] = [];
  for (const raw of groups) {
    const segments = parseGroupPattern(raw);
    const selected = segments.ok ? selectParameters(tree, segments.value) : [];
    if (selected.length === 0) {
      unmatched.push(raw.trim());
      lines.push(`# Error: Error -1 getting param in group '${raw.trim()}'`);
    } else lines.push(...selected.map(line));
  }
  return { lines, unmatched };
}

function line(parameter: Parameter): string {
  return `root.${parameter.path}=${parameter.value}`;
}

function segmentMatcher(pattern: string): (name: string) => boolean {
  return pattern.includes('*') ? (name) => globMatches(pattern, name) : (name) => name === pattern;
}

/**
 * `*` matches any run of characters. The classic two-pointer walk: at most
 * pattern × name steps whatever the pattern, where a regular expression of many
 * stars could backtrack for minutes on a hostile request.
 */
function globMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
