/**
 * Loading YAML files checked by a zod schema, with every problem reported at once as
 * `file:line:col: message` at the node at fault. Shared by scenarios and plans; each
 * adds its own cross-field checks with {@link valueOffset} for positions.
 */
import { readFile } from 'node:fs/promises';
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
} from 'yaml';
import type { z } from 'zod';
import { err, type Err, type ErrorInfo, ok, type Result } from './result';

/** What kind of problem a {@link YamlError} is; loaders may add their own codes. */
export type YamlErrorCode =
  | 'READ_FAILED'
  | 'YAML_SYNTAX'
  | 'DUPLICATE_KEY'
  | 'UNKNOWN_KEY'
  | 'MISSING_KEY'
  | 'WRONG_TYPE'
  | 'INVALID_VALUE'
  | 'BAD_DURATION';

/** One problem in a file; `text` is `file:line:col: message`. Lines and columns count from 1. */
export interface YamlError<C extends string = YamlErrorCode> {
  readonly code: C | YamlErrorCode;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly text: string;
}

/** A problem found by a loader's own check, at an offset of the YAML text. */
export interface Found<C extends string = YamlErrorCode> {
  code: C | YamlErrorCode;
  offset: number;
  message: string;
}

/**
 * Why a file did not load: `READ_FAILED` or `INVALID`, with every error in file order;
 * `message` is their `text` lines, one a line.
 */
export interface YamlErrors<C extends string = YamlErrorCode> extends ErrorInfo<'READ_FAILED' | 'INVALID'> {
  readonly errors: YamlError<C>[];
}

/** The outcome of {@link loadYaml}: the value, or every error, in file order. */
export type YamlLoadResult<T, C extends string = YamlErrorCode> = Result<T, YamlErrors<C>>;

type Path = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;

/**
 * Parses `text` and validates it with `schema`; `check` adds cross-field problems (it gets
 * the raw data, and the validated value when there is one).
 * Never throws for bad input. `fileName` is used only in messages.
 */
export function loadYaml<S extends z.ZodType, C extends string = YamlErrorCode>(
  text: string,
  fileName: string,
  schema: S,
  check?: (doc: Document, data: unknown, value: z.output<S> | undefined) => Found<C>[],
): YamlLoadResult<z.output<S>, C> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors: YamlError<C>[] = [];
  const report = (code: C | YamlErrorCode, offset: number, message: string): void => {
    const { line, col } = offset >= 0 ? lineCounter.linePos(offset) : { line: 1, col: 1 };
    errors.push({ code, file: fileName, line, col, message, text: `${fileName}:${line}:${col}: ${message}` });
  };
  for (const error of doc.errors) {
    if (error.code === 'DUPLICATE_KEY')
      report(
        'DUPLICATE_KEY',
        error.pos[0],
        `duplicate key "${keyTextAt(doc, error.pos[0])}"; each key may appear once in a map`,
      );
    else report('YAML_SYNTAX', error.pos[0], `YAML syntax: ${error.message}`);
  }
  // yaml would turn such a key into its text with a process warning: it is an error of the file.
  const keys = collectionKeys(doc);
  for (const found of keys) report(found.code, found.offset, found.message);
  if (keys.length > 0) return yamlErrors(sorted(errors));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    report('YAML_SYNTAX', 0, (error as Error).message);
    return yamlErrors(sorted(errors));
  }
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      for (const found of locateIssue(doc, issue)) report(found.code, found.offset, found.message);
    }
  }
  for (const found of check?.(doc, data, parsed.success ? parsed.data : undefined) ?? [])
    report(found.code, found.offset, found.message);
  if (errors.length > 0 || !parsed.success) return yamlErrors(sorted(errors));
  return ok(parsed.data);
}

/** Reads and loads a file; a read failure is reported as `file:1:1: cannot read ...`. */
export async function loadYamlFile<S extends z.ZodType, C extends string = YamlErrorCode>(
  path: string,
  what: string,
  schema: S,
  check?: (doc: Document, data: unknown, value: z.output<S> | undefined) => Found<C>[],
): Promise<YamlLoadResult<z.output<S>, C>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return yamlErrors([readFailure(path, `cannot read the ${what}: ${(error as Error).message}`)]);
  }
  return loadYaml(text, path, schema, check);
}

/** The failure of a load with these errors: `READ_FAILED` when that is all there is, else `INVALID`. */
export function yamlErrors<C extends string>(errors: YamlError<C>[]): Err<YamlErrors<C>> {
  const code = errors.length > 0 && errors.every((e) => e.code === 'READ_FAILED') ? 'READ_FAILED' : 'INVALID';
  return err({ code, message: errors.map((e) => e.text).join('\n'), errors });
}

/** A file that cannot be read (or is gone), reported at `file:1:1`. */
export function readFailure<C extends string = YamlErrorCode>(file: string, message: string): YamlError<C> {
  return { code: 'READ_FAILED', file, line: 1, col: 1, message, text: `${file}:1:1: ${message}` };
}

/** Turns one zod issue into positioned errors (an unknown-keys issue names several keys). */
function locateIssue(doc: Document, issue: Issue): Found[] {
  const path = issue.path as Path;
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      code: 'UNKNOWN_KEY',
      offset: keyOffset(doc, [...path, key]),
      message: `unknown key "${key}"${whereText(path)}`,
    }));
  }
  if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) {
    const key = path[path.length - 1];
    return [
      {
        code: 'MISSING_KEY',
        offset: valueOffset(doc, path),
        message: `missing required key "${String(key)}"${whereText(path.slice(0, -1))}`,
      },
    ];
  }
  const params = issue.code === 'custom' ? (issue.params ?? {}) : {};
  const offset = params.at === 'key' ? keyOffset(doc, path) : valueOffset(doc, path);
  if (params.kind === 'duration' || /^(duration|expected a duration)\b/.test(issue.message))
    return [{ code: 'BAD_DURATION', offset, message: issue.message }];
  if (issue.code === 'invalid_type') return [{ code: 'WRONG_TYPE', offset, message: typeMessage(issue) }];
  return [{ code: 'INVALID_VALUE', offset, message: issue.message }];
}

/** Offset of the node at `path`, or of the nearest ancestor that exists (a missing key points at its map). */
export function valueOffset(doc: Document, path: Path): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return node.range[0];
    if (depth > 0) {
      const keyAt = pairKeyOffset(doc, path.slice(0, depth)); // `key:` with no value
      if (keyAt >= 0) return keyAt;
    }
  }
  return 0;
}

/** Offset of the key of the pair at `path` (the last element is the key); falls back to the value. */
function keyOffset(doc: Document, path: Path): number {
  const at = pairKeyOffset(doc, path);
  return at >= 0 ? at : valueOffset(doc, path.slice(0, -1));
}

function pairKeyOffset(doc: Document, path: Path): number {
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return -1;
  const key = path[path.length - 1];
  const pair = parent.items.find(
    (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key),
  );
  return pair && isNode(pair.key) && pair.key.range ? pair.key.range[0] : -1;
}

/** "expected string, got number" is easier to read than zod's default. */
function typeMessage(issue: Issue): string {
  if (issue.code !== 'invalid_type' || !issue.message.startsWith('Invalid input')) return issue.message;
  return `expected ${issue.expected}, got ${describe((issue as { input?: unknown }).input)}`;
}

function describe(value: unknown): string {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function whereText(path: Path): string {
  return path.length > 0 ? ` in ${path.map(String).join('.')}` : ' at the top level';
}

/** The text of the map key that starts at `offset` (yaml reports a duplicate key by its first character). */
function keyTextAt(doc: Document, offset: number): string {
  let found = '?';
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.range?.[0] === offset) {
        found = String(pair.key.value);
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Every map key that is itself a map or a list: keys are words or numbers in every file we read. */
function collectionKeys(doc: Document): Found[] {
  const found: Found[] = [];
  visit(doc, {
    Pair(_, pair) {
      // An alias (`*a: x`) stands for what its anchor names, which may be a map or a list.
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      if (isCollection(key))
        found.push({
          code: 'WRONG_TYPE',
          offset: (isNode(pair.key) ? pair.key.range?.[0] : undefined) ?? 0,
          message: `a key must be a word or a number, not ${isSeq(key) ? 'a list' : 'a map'}`,
        });
      return undefined;
    },
  });
  return found;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function sorted<C extends string>(errors: YamlError<C>[]): YamlError<C>[] {
  return errors.sort((a, b) => a.line - b.line || a.col - b.col);
}
