/**
 * The face of a running emulator: what a test (in-process, or through the control API)
 * uses to drive devices and see what its client did. Implemented in ../emulator.ts.
 */
import type { JournalEntry, JournalFilter, NotificationEntry } from '../base/journal';
import type { DeviceHandle } from '../device/device';
import type { FlagState } from '../device/feature-flags';
import type { DeviceEvent, PublishOptions } from '../events/event-bus';
import type { NotificationMessage } from '../events/content-filter';
import type { SessionInfo } from '../events/event-session';
import type { Scenario } from '../scenario/schema';
import type { ScenarioRun } from './play-on-device';

/** A device of the emulator: its serial, or its index (0 = the first). */
export type DeviceRef = string | number;

/** Picks one device; without it, an operation applies to every device (or reads the first). */
export interface OnDevice {
  device?: DeviceRef;
}

/** A session of one of the devices. */
export interface EmulatorSession extends SessionInfo {
  /** Serial of the device it is connected to. */
  device: string;
}

/** How to wait: for what, where, and how long. */
export interface WaitOptions extends OnDevice {
  /** Only a session configured with a filter that can select this topic / a notification of this topic. */
  topic?: string;
  /** Milliseconds before the wait fails with `TIMEOUT`; default 5000. */
  timeout?: number;
}

/** How to reach a device and log in to it. */
export interface DeviceAccess {
  serial: string;
  /** Every endpoint's URL (`featureFlags`, `sessionToken`, `eventStream`, ...). */
  urls: DeviceHandle['urls'];
  /** The admin account, undefined with auth `none`. */
  user: string | undefined;
  password: string | undefined;
  realm: string;
  /** The control API of this device (`.../_emu`), undefined when it is off. */
  control: string | undefined;
}

/** Where a scenario is in its playing. */
export type ScenarioPlayState = 'playing' | 'paused' | 'finished';

/** One running device and what it plays. */
export interface EmulatedDevice {
  readonly device: DeviceHandle;
  /** URLs and credentials. */
  readonly access: DeviceAccess;
  /** The file of its scenario; undefined for a scenario built in code. */
  readonly file: string | undefined;
  /** The scenario playing now (the latest good version of a watched file). */
  readonly scenario: Scenario;
  /** The current run of that scenario. */
  readonly run: ScenarioRun;
  /** Whether the scenario is playing, paused or has finished. */
  readonly playState: ScenarioPlayState;
}

/** A running emulator. */
export interface EmulatorHandle {
  /** The devices, in the order of their scenarios (or of the fleet). */
  readonly devices: readonly EmulatedDevice[];
  /** URLs and credentials of every device. */
  access(): DeviceAccess[];
  /** Publishes an event on the device (every device when none is named); returns what was published. */
  publish(topic: string, message?: NotificationMessage, options?: PublishOptions & OnDevice): DeviceEvent[];
  /** Sets a stateful property (a stateful event): kept as the current state and sent to matching sessions. */
  setState(topic: string, message: NotificationMessage, options?: OnDevice): DeviceEvent[];
  /** The feature flags of the device (the first when none is named). */
  flags(options?: OnDevice): FlagState[];
  /** Sets feature flags all-or-nothing on the device (every device when none is named); rejects unknown names. */
  setFlags(values: Readonly<Record<string, boolean>>, options?: OnDevice): Promise<void>;
  /** The live event stream sessions (of every device unless one is named). */
  sessions(options?: OnDevice): EmulatorSession[];
  /** Closes every event stream session (default code 1001); returns how many. */
  closeSessions(code?: number, options?: OnDevice & { reason?: string }): number;
  /** Resolves with a session once one is connected (and, with `topic`, configured to receive it). */
  waitForSession(options?: WaitOptions): Promise<EmulatorSession>;
  /** Resolves with the next notification sent after the call (of `topic`, when given). */
  waitForNotification(options?: WaitOptions): Promise<NotificationEntry>;
  /** What crossed the sockets, oldest first: requests, sessions, configures, notifications, refusals. */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Entries the journal pushed out since the last reset (it keeps the newest `journalCapacity`). */
  readonly journalDropped: number;
  /** Replaces the device's scenario (every device's when none is named) and plays it from the start. */
  setScenario(scenario: Scenario, options?: OnDevice): void;
  /** Pauses the scenario: nothing more is published until `playScenario()`; sessions stay. */
  pauseScenario(options?: OnDevice): void;
  /** Resumes a paused scenario where it stopped (does nothing to one that plays). */
  playScenario(options?: OnDevice): void;
  /** Plays the scenario again from zero, states and flags as it sets them. */
  restartScenario(options?: OnDevice): void;
  /**
   * Back to the start, as for a fresh test: flags to their defaults, states to the scenario's
   * initial ones, sessions closed, tokens revoked, refused logins and faults cleared, journal
   * cleared, scenario restarted from zero. The ports and URLs stay.
   */
  reset(): Promise<void>;
  /** Stops every scenario and watcher and closes every device; resolves when all is closed. */
  close(): Promise<void>;
}
