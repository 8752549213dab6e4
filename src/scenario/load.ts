/**
 * Loads a scenario file: YAML (with source positions) checked against ./schema.
 * Every problem is reported at once as `file:line:col: message`, with the position
 * of the node at fault, so an editor or terminal can jump straight to it.
 */
import { readFile } from 'node:fs/promises';
import { isMap, isNode, isPair, isScalar, LineCounter, parseDocument, visit, type Document, type YAMLMap } from 'yaml';
import type { z } from 'zod';
import { ScenarioSchema, type Scenario } from './schema';

/** What kind of problem a {@link ScenarioError} is. */
export type ScenarioErrorCode =
  | 'READ_FAILED'
  | 'YAML_SYNTAX'
  | 'DUPLICATE_KEY'
  | 'UNKNOWN_KEY'
  | 'MISSING_KEY'
  | 'WRONG_TYPE'
  | 'INVALID_VALUE'
  | 'BAD_DURATION'
  | 'UNKNOWN_GROUP'
  | 'GROUP_CYCLE';

/** One problem in a scenario file; `text` is `file:line:col: message`. Lines and columns count from 1. */
export interface ScenarioError {
  readonly code: ScenarioErrorCode;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly text: string;
}

/** The outcome of {@link loadScenario}: the scenario, or every error found in it, in file order. */
export type LoadScenarioResult = { ok: true; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

type Path = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;

/**
 * Parses and validates scenario text. Never throws for bad input: every YAML syntax error,
 * duplicate key, unknown or missing key, wrong type, bad duration and unknown or cyclic
 * group is returned, each at its own position. `fileName` is used only in messages.
 */
export function loadScenario(text: string, fileName: string): LoadScenarioResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const errors: ScenarioError[] = [];
  const report = (code: ScenarioErrorCode, offset: number, message: string): void => {
    const { line, col } = offset >= 0 ? lineCounter.linePos(offset) : { line: 1, col: 1 };
    errors.push({ code, file: fileName, line, col, message, text: `${fileName}:${line}:${col}: ${message}` });
  };
  for (const error of doc.errors) {
    if (error.code === 'DUPLICATE_KEY') report('DUPLICATE_KEY', error.pos[0], `duplicate key "${keyTextAt(doc, error.pos[0])}"; each key may appear once in a map`);
    else report('YAML_SYNTAX', error.pos[0], `YAML syntax: ${error.message}`);
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    report('YAML_SYNTAX', 0, (error as Error).message);
    return { ok: false, errors: sorted(errors) };
  }
  const parsed = ScenarioSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      for (const found of locateIssue(doc, issue)) report(found.code, found.offset, found.message);
    }
  }
  for (const found of checkGroups(doc, data)) report(found.code, found.offset, found.message);

  if (errors.length > 0 || !parsed.success) return { ok: false, errors: sorted(errors) };
  return { ok: true, scenario: parsed.data };
}

/** Reads and loads a scenario file; a read failure is reported as `file:1:1: cannot read ...`. */
export async function loadScenarioFile(path: string): Promise<LoadScenarioResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const message = `cannot read the scenario file: ${(error as Error).message}`;
    return { ok: false, errors: [{ code: 'READ_FAILED', file: path, line: 1, col: 1, message, text: `${path}:1:1: ${message}` }] };
  }
  return loadScenario(text, path);
}

interface Found {
  code: ScenarioErrorCode;
  offset: number;
  message: string;
}

/** Turns one zod issue into positioned errors (an unknown-keys issue names several keys). */
function locateIssue(doc: Document, issue: Issue): Found[] {
  const path = issue.path as Path;
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ code: 'UNKNOWN_KEY', offset: keyOffset(doc, [...path, key]), message: `unknown key "${key}"${whereText(path)}` }));
  }
  if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) {
    const key = path[path.length - 1];
    return [{ code: 'MISSING_KEY', offset: valueOffset(doc, path), message: `missing required key "${String(key)}"${whereText(path.slice(0, -1))}` }];
  }
  const params = issue.code === 'custom' ? (issue.params ?? {}) : {};
  const offset = params.at === 'key' ? keyOffset(doc, path) : valueOffset(doc, path);
  if (params.kind === 'duration' || /^(duration|expected a duration)\b/.test(issue.message)) return [{ code: 'BAD_DURATION', offset, message: issue.message }];
  if (issue.code === 'invalid_type') return [{ code: 'WRONG_TYPE', offset, message: typeMessage(issue) }];
  return [{ code: 'INVALID_VALUE', offset, message: issue.message }];
}

/** Checks every `run:` names a group in `groups`, and that groups do not run themselves. */
function checkGroups(doc: Document, data: unknown): Found[] {
  const found: Found[] = [];
  const root = asRecord(data);
  if (!root) return found;
  const groupsValue = root.groups;
  const groups = asRecord(groupsValue);
  if (groupsValue !== undefined && groupsValue !== null && !groups) return found; // already a type error
  const names = Object.keys(groups ?? {});
  const known = names.length > 0 ? `groups defined: ${names.join(', ')}` : 'no groups are defined';
  const runsOf = new Map<string, { name: string; path: Path }[]>();
  const visit = (steps: unknown, path: Path, runs: { name: string; path: Path }[]): void => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step, i) => {
      const record = asRecord(step);
      if (!record) return;
      if (typeof record.run === 'string') {
        const runPath = [...path, i, 'run'];
        runs.push({ name: record.run, path: runPath });
        if (!names.includes(record.run)) found.push({ code: 'UNKNOWN_GROUP', offset: valueOffset(doc, runPath), message: `unknown group "${record.run}"; ${known}` });
      }
      visit(record.steps, [...path, i, 'steps'], runs);
    });
  };
  visit(root.timeline, ['timeline'], []);
  for (const name of names) {
    const runs: { name: string; path: Path }[] = [];
    visit(groups?.[name], ['groups', name], runs);
    runsOf.set(name, runs);
  }
  // Depth-first search: a run that reaches a group still on the stack closes a cycle.
  const state = new Map<string, 'visiting' | 'done'>();
  const walk = (name: string, stack: string[]): void => {
    state.set(name, 'visiting');
    for (const run of runsOf.get(name) ?? []) {
      if (state.get(run.name) === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(run.name)), run.name].join(' -> ');
        found.push({ code: 'GROUP_CYCLE', offset: valueOffset(doc, run.path), message: `group "${run.name}" runs itself: ${cycle}` });
      } else if (!state.has(run.name) && runsOf.has(run.name)) {
        walk(run.name, [...stack, run.name]);
      }
    }
    state.set(name, 'done');
  };
  for (const name of names) if (!state.has(name)) walk(name, [name]);
  return found;
}

/** Offset of the node at `path`, or of the nearest ancestor that exists (a missing key points at its map). */
function valueOffset(doc: Document, path: Path): number {
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
  const pair = (parent as YAMLMap).items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key));
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

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function sorted(errors: ScenarioError[]): ScenarioError[] {
  return errors.sort((a, b) => a.line - b.line || a.col - b.col);
}
