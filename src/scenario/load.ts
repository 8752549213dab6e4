/**
 * Loads a scenario file: YAML (with source positions) checked against ./schema.
 * Every problem is reported at once as `file:line:col: message`, with the position
 * of the node at fault, so an editor or terminal can jump straight to it.
 */
import type { Document } from 'yaml';
import { asRecord, type Found, loadYaml, loadYamlFile, valueOffset, type YamlError, type YamlErrorCode } from '../yaml-load';
import { ScenarioSchema, type Scenario } from './schema';

/** What kind of problem a {@link ScenarioError} is. */
export type ScenarioErrorCode = YamlErrorCode | 'UNKNOWN_GROUP' | 'GROUP_CYCLE';

/** One problem in a scenario file; `text` is `file:line:col: message`. Lines and columns count from 1. */
export type ScenarioError = YamlError<ScenarioErrorCode>;

/** The outcome of {@link loadScenario}: the scenario, or every error found in it, in file order. */
export type LoadScenarioResult = { ok: true; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

/**
 * Parses and validates scenario text. Never throws for bad input: every YAML syntax error,
 * duplicate key, unknown or missing key, wrong type, bad duration and unknown or cyclic
 * group is returned, each at its own position. `fileName` is used only in messages.
 */
export function loadScenario(text: string, fileName: string): LoadScenarioResult {
  return asScenarioResult(loadYaml(text, fileName, ScenarioSchema, checkGroups));
}

/** Reads and loads a scenario file; a read failure is reported as `file:1:1: cannot read ...`. */
export async function loadScenarioFile(path: string): Promise<LoadScenarioResult> {
  return asScenarioResult(await loadYamlFile(path, 'scenario file', ScenarioSchema, checkGroups));
}

function asScenarioResult(result: { ok: true; value: Scenario } | { ok: false; errors: ScenarioError[] }): LoadScenarioResult {
  return result.ok ? { ok: true, scenario: result.value } : result;
}

type Path = readonly PropertyKey[];

/** Checks every `run:` names a group in `groups`, and that groups do not run themselves. */
function checkGroups(doc: Document, data: unknown): Found<ScenarioErrorCode>[] {
  const found: Found<ScenarioErrorCode>[] = [];
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
