/**
 * Loads a scenario file: YAML (with source positions) checked against ./schema.
 * Every problem is reported at once as `file:line:col: message`, with the position
 * of the node at fault, so an editor or terminal can jump straight to it.
 */
import type { Document } from 'yaml';
import {
  asRecord,
  type Found,
  loadYaml,
  loadYamlFile,
  valueOffset,
  type YamlError,
  type YamlErrorCode,
  type YamlLoadResult,
} from '../base/yaml-load';
import { BodyWornSchema, ScenarioSchema, type Scenario } from './schema';
import { scenarioPath } from './shipped';

/** What kind of problem a {@link ScenarioError} is. */
export type ScenarioErrorCode = YamlErrorCode | 'UNKNOWN_GROUP' | 'GROUP_CYCLE' | 'UNKNOWN_USER' | 'UNKNOWN_DEVICE';

/** One problem in a scenario file; `text` is `file:line:col: message`. Lines and columns count from 1. */
export type ScenarioError = YamlError<ScenarioErrorCode>;

/** The outcome of {@link loadScenario}: the scenario, or every error found in it, in file order (`error.errors`). */
export type LoadScenarioResult = YamlLoadResult<Scenario, ScenarioErrorCode>;

/**
 * Parses and validates scenario text. Never throws for bad input: every YAML syntax error,
 * duplicate key, unknown or missing key, wrong type, bad duration, unknown or cyclic
 * group and unknown `body-worn:` user or camera is returned, each at its own position.
 * `fileName` is used only in messages.
 */
export function loadScenario(text: string, fileName: string): LoadScenarioResult {
  return loadYaml(text, fileName, ScenarioSchema, checkScenario);
}

/**
 * Reads and loads a scenario file, or a shipped scenario by name as the command line does
 * (`motion`, or `motion.yaml` when the working directory has no such file); errors name
 * the file read. A read failure is reported as `file:1:1: cannot read ...`.
 */
export async function loadScenarioFile(pathOrName: string): Promise<LoadScenarioResult> {
  return loadYamlFile(scenarioPath(pathOrName), 'scenario file', ScenarioSchema, checkScenario);
}

/** The checks across fields that the schema cannot make. */
function checkScenario(doc: Document, data: unknown): Found<ScenarioErrorCode>[] {
  return [...checkGroups(doc, data), ...checkBodyWorn(doc, data)];
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
        if (!names.includes(record.run))
          found.push({
            code: 'UNKNOWN_GROUP',
            offset: valueOffset(doc, runPath),
            message: `unknown group "${record.run}"; ${known}`,
          });
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
        found.push({
          code: 'GROUP_CYCLE',
          offset: valueOffset(doc, run.path),
          message: `group "${run.name}" runs itself: ${cycle}`,
        });
      } else if (!state.has(run.name) && runsOf.has(run.name)) {
        walk(run.name, [...stack, run.name]);
      }
    }
    state.set(name, 'done');
  };
  for (const name of names) if (!state.has(name)) walk(name, [name]);
  return found;
}

/** The serial a camera registered at a destination may have (as in ../bws/plan). */
const CAMERA_SERIAL = /^[A-Za-z0-9]{1,32}$/;

/**
 * Every `body-worn:` recording's user is in its `users`, and its camera is in its
 * `devices` or is the scenario's own `device:` (which a recording without `device`
 * uses and which is registered without being listed, so its serial must suit a
 * destination). Nothing is checked while the section has schema errors.
 */
function checkBodyWorn(doc: Document, data: unknown): Found<ScenarioErrorCode>[] {
  const root = asRecord(data);
  if (!root || root['body-worn'] === undefined) return [];
  const parsed = BodyWornSchema.safeParse(root['body-worn']);
  if (!parsed.success) return [];
  const found: Found<ScenarioErrorCode>[] = [];
  const section = parsed.data;
  const own = asRecord(root.device)?.serial;
  const ownSerial = typeof own === 'string' ? own : undefined;
  if (ownSerial !== undefined && !CAMERA_SERIAL.test(ownSerial)) {
    found.push({
      code: 'INVALID_VALUE',
      offset: valueOffset(doc, ['device', 'serial']),
      message: `a camera with body-worn recordings needs a serial of 1-32 letters and digits, not "${ownSerial}"`,
    });
  }
  const users = (section.users ?? []).map((u) => u.id);
  const devices = [
    ...(ownSerial !== undefined ? [ownSerial] : []),
    ...(section.devices ?? []).map((d) => d.serial).filter((s) => s !== ownSerial),
  ];
  const listed = (names: string[]): string => names.join(', ') || 'none';
  section.recordings.forEach((recording, i) => {
    const at: Path = ['body-worn', 'recordings', i];
    if (!users.includes(recording.user)) {
      found.push({
        code: 'UNKNOWN_USER',
        offset: valueOffset(doc, [...at, 'user']),
        message: `user "${recording.user}" is not in body-worn.users (${listed(users)})`,
      });
    }
    if (recording.device !== undefined && !devices.includes(recording.device)) {
      const where = ownSerial !== undefined ? "body-worn.devices or the scenario's device" : 'body-worn.devices';
      found.push({
        code: 'UNKNOWN_DEVICE',
        offset: valueOffset(doc, [...at, 'device']),
        message: `device "${recording.device}" is not in ${where} (${listed(devices)})`,
      });
    }
  });
  return found;
}
