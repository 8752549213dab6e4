/**
 * Per-device values in a scenario: `{{serial}}` and `{{index}}` in any string value
 * (a message's source, key or data, a state) are replaced with the device's own, so
 * one scenario serves a whole fleet with each camera telling who it is; and the
 * neutral topic namespace `tnsvendor:` the scenario is written in becomes the device's
 * own word (`tnsaxis:`), so one scenario serves every persona.
 */
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../events/topic-filter';
import type { Scenario, Step } from './schema';

/** What a device fills in: its serial and its index in the fleet. */
export interface TemplateValues {
  serial: string;
  index: number;
}

const PLACEHOLDER = /\{\{\s*(serial|index)\s*\}\}/g;

/** True when some string in `scenario` holds a placeholder (so a copy per device is needed). */
export function hasPlaceholders(scenario: Scenario): boolean {
  return new RegExp(PLACEHOLDER.source).test(JSON.stringify(scenario));
}

/** A copy of `scenario` with every placeholder in its string values replaced; the original is untouched. */
export function fillPlaceholders(scenario: Scenario, values: TemplateValues): Scenario {
  return fill(scenario, values) as Scenario;
}

function fill(value: unknown, values: TemplateValues): unknown {
  if (typeof value === 'string')
    return value.replace(PLACEHOLDER, (_all, name: string) =>
      name === 'serial' ? values.serial : String(values.index),
    );
  if (Array.isArray(value)) return value.map((item) => fill(item, values));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  return value;
}

/**
 * `scenario` as a device whose vendor namespace is `namespace` publishes it: every topic
 * (states, `emit`, `set`, `on: { configure }`, in groups and nested steps) has its
 * `tnsvendor:` prefixes renamed. Message values are left alone: only topics are names in
 * the namespace. Returns `scenario` itself when there is nothing to rename.
 */
export function withNamespace(scenario: Scenario, namespace: string): Scenario {
  if (namespace === NEUTRAL_NAMESPACE) return scenario;
  const topic = (t: string): string => renameTopicPrefix(t, NEUTRAL_NAMESPACE, namespace);
  const step = (s: Step): Step => ({
    ...s,
    ...(s.emit ? { emit: { ...s.emit, topic: topic(s.emit.topic) } } : {}),
    ...(s.set ? { set: { ...s.set, topic: topic(s.set.topic) } } : {}),
    ...(s.on !== undefined && s.on !== 'connect' ? { on: { configure: topic(s.on.configure) } } : {}),
    ...(s.steps ? { steps: s.steps.map(step) } : {}),
  });
  const { states, groups, timeline } = scenario;
  return {
    ...scenario,
    ...(states ? { states: states.map((s) => ({ ...s, topic: topic(s.topic) })) } : {}),
    ...(groups
      ? { groups: Object.fromEntries(Object.entries(groups).map(([name, steps]) => [name, steps.map(step)])) }
      : {}),
    ...(timeline ? { timeline: timeline.map(step) } : {}),
  };
}
