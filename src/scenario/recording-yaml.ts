/**
 * A recording as a scenario file: initial events become `states:`, the others timed
 * `emit` steps, with a header saying where and when it was recorded (no credentials).
 */
import { stringify } from 'yaml';
import { formatDuration } from '../base/duration';
import type { RecordedEvent } from './recorder';

/** What {@link toScenarioYaml} writes in the header and top-level fields. */
export interface ScenarioYamlOptions {
  /** The scenario's `name`. */
  name: string;
  /** The scenario's `description`; says where it was recorded by default. */
  description?: string;
  /** Where it was recorded (the stream URL; credentials are removed). */
  source: string;
  /** When it was recorded; now by default. */
  recordedAt?: Date;
  /** `states` (default): initial events become `states:`; `timeline`: they stay emits. */
  initialStates?: 'states' | 'timeline';
  /** Shift the timeline so its first emit is at 0ms (drops the quiet start). */
  fromFirstEvent?: boolean;
}

/**
 * A scenario replaying `events`: initial events as `states:`, the others as
 * `timeline:` steps `{ at: <time since configure>, emit: { topic, source, key, data } }`.
 * The text loads with `loadScenario`.
 */
export function toScenarioYaml(events: readonly RecordedEvent[], options: ScenarioYamlOptions): string {
  const asStates = (options.initialStates ?? 'states') === 'states';
  const initial = asStates ? events.filter((e) => e.initial) : [];
  const timed = asStates ? events.filter((e) => !e.initial) : [...events];
  const shift = options.fromFirstEvent && timed.length > 0 ? Math.min(...timed.map((e) => e.atMs)) : 0;
  const source = withoutSecrets(options.source);
  const recordedAt = (options.recordedAt ?? new Date()).toISOString();
  const doc: Record<string, unknown> = {
    name: options.name,
    description: options.description ?? `Recorded from ${source} at ${recordedAt}`,
  };
  if (initial.length > 0)
    doc.states = initial.map((e) => ({ topic: e.topic, ...parts(e, { data: false }), data: e.data }));
  doc.timeline = timed.map((e) => ({
    at: formatDuration(Math.max(0, Math.round(e.atMs - shift))),
    emit: { topic: e.topic, ...parts(e, { data: true }) },
  }));
  const header = [
    `# Recorded by bwc-emu record`,
    `#   from: ${source}`,
    `#   at:   ${recordedAt}`,
    `#   ${timed.length} timed event${timed.length === 1 ? '' : 's'}${initial.length > 0 ? `, ${initial.length} initial state${initial.length === 1 ? '' : 's'}` : ''}; times are from the subscription${shift > 0 ? ` minus ${formatDuration(Math.round(shift))}` : ''}`,
  ].join('\n');
  return `${header}\n${stringify(doc, { lineWidth: 0 })}`;
}

/** source, key (and data when `withData`) when not empty. */
function parts(e: RecordedEvent, include: { data: boolean }): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (Object.keys(e.source).length > 0) out.source = e.source;
  if (Object.keys(e.key).length > 0) out.key = e.key;
  if (include.data && Object.keys(e.data).length > 0) out.data = e.data;
  return out;
}

/** The URL without user info or a `wssession` token, for the header. */
function withoutSecrets(text: string): string {
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    url.searchParams.delete('wssession');
    return url.toString();
  } catch {
    return text;
  }
}
