/**
 * What the live feed sends as snapshots (sessions, faults, overrides, scenario) and the routes answer
 * alike: one answer each, here so that the feed and the routes share it without importing
 * each other.
 */
import type { ControlledEmulator } from './controlled-emulator';
import type { FeedEvents } from './feed-events';

/** `GET /_emu/sessions`: the device's sessions. */
export function sessionsAnswer(emulator: ControlledEmulator, device: string): FeedEvents['sessions'] {
  return { sessions: emulator.sessions({ device }) };
}

/** `GET /_emu/faults`: the switches on, with `until` null for those on until cleared. */
export function activeFaults(emulator: ControlledEmulator, device: string): FeedEvents['faults'] {
  return { faults: emulator.faults({ device }).map((f) => ({ ...f, until: f.until ?? null })) };
}

/** `GET /_emu/overrides`: the answer overrides in force. */
export function overridesAnswer(emulator: ControlledEmulator, device: string): FeedEvents['overrides'] {
  return { overrides: emulator.overrides({ device }) };
}

/** `GET /_emu/scenario`: where the device's scenario is. */
export function scenarioAnswer(emulator: ControlledEmulator, device: string): FeedEvents['scenario'] {
  return emulator.scenarioStatus({ device });
}

/** A snapshot as read: its data, and the JSON text of what of it counts as a change (default: all of it). */
export interface Snapshot<T = unknown> {
  data: T;
  change?: string;
}

/** The snapshot events, in the order they are sent. */
export const SNAPSHOTS = {
  sessions: (emulator, device) => ({ data: sessionsAnswer(emulator, device) }),
  faults: (emulator, device) => ({ data: activeFaults(emulator, device) }),
  overrides: (emulator, device) => ({ data: overridesAnswer(emulator, device) }),
  scenario: (emulator, device) => {
    // The position of a playing scenario moves all the time, which is no news (the page
    // counts it on); each change of course bumps the revision.
    const status = scenarioAnswer(emulator, device);
    const { name, state, speed, revision } = status;
    return { data: status, change: JSON.stringify({ name, state, speed, revision }) };
  },
} satisfies {
  [K in Exclude<keyof FeedEvents, 'journal'>]: (
    emulator: ControlledEmulator,
    device: string,
  ) => Snapshot<FeedEvents[K]>;
};

/** The name of a snapshot event. */
export type SnapshotName = keyof typeof SNAPSHOTS;

/** A snapshot as every feed of the hub writes it: a version that moves when it changes, and its frame. */
export interface SharedSnapshot {
  readonly version: number;
  /** What counts as a change, as JSON. */
  readonly change: string;
  /** The whole SSE event, serialised once. */
  readonly frame: string;
}
