/**
 * Per-device values in a scenario: `{{serial}}` and `{{index}}` in any string value
 * (a message's source, key or data, a state) are replaced with the device's own, so
 * one scenario serves a whole fleet with each camera telling who it is.
 */
import type { Scenario } from './schema';

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
