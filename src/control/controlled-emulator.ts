/**
 * The emulator as the control API drives it: the part of the emulator handle its routes
 * call (publish, states, flags, sessions, journal, scenario, reset). Declared here, from
 * the lower layers' types, because the layer rule keeps control from importing the
 * emulator layer above it; `EmulatorHandle` (../emulator/handle) extends it.
 */
import type { z } from 'zod';
import type { JournalEntry, JournalFilter, JournalKind, NewestEntries, NotificationEntry } from '../base/journal';
import type { Stated } from '../base/stated-keys';
import type { ActiveOverride, OverrideSpec } from '../protocol/answer-override-spec';
import type { DeviceUrls } from '../device/endpoints';
import type { FlagState } from '../device/feature-flags';
import type { NotificationMessage } from '../events/notification-message';
import type { DeviceEvent, PublishOptions } from '../events/event-bus';
import type { ActiveFault, FaultName, FaultParamsInput } from '../protocol/fault-catalogue';
import type { Scenario } from '../scenario/schema';
import type { ReportSchema } from './report-schemas';
import type { ScenarioStatus } from './scenario-status';
import type { DeviceAccessSchema, EmulatorSessionSchema } from './schemas';
import type { SegmentInfo } from './segment-info';

/** The shapes the control API answers, declared with their schemas. */
export type { ScenarioState, ScenarioStatus } from './scenario-status';
export type { SegmentInfo } from './segment-info';

/** The report as the control API answers it (the grader's `GradingReport` fits it). */
export type ControlReport = z.input<typeof ReportSchema>;

/**
 * What a report applies and covers, as the control API passes it on from its query; the
 * grader checks the names and values (docs/grading.md) and refuses bad ones with `BAD_OPTION`.
 */
export interface ReportRequest {
  /** Thresholds by name over the emulator's own (docs/grading.md#thresholds): numbers, or their decimal text. */
  thresholds?: Readonly<Record<string, number | string>>;
  /** Only these rules (ids). */
  rules?: readonly string[];
  /** Every rule but these (ids). */
  skipRules?: readonly string[];
  /** `all` (the default): every segment of the run; `current`: the one running now. */
  segments?: 'all' | 'current';
}

/** A device of the emulator: its serial, or its index (0 = the first). */
export type DeviceRef = string | number;

/** Picks one device; without it, an operation applies to every device (or reads the first). */
export interface OnDevice {
  device?: DeviceRef;
}

/** How to wait: for what, where, and how long. */
export interface WaitOptions extends OnDevice {
  /** Only a session configured with a filter that can select this topic / a notification of this topic. */
  topic?: string;
  /** Milliseconds before the wait fails with `TIMEOUT`; default 5000. */
  timeout?: number;
  /**
   * waitForNotification, waitForEntry: also accept one already in the journal after this
   * sequence number (`journalSeq` taken before publishing), so publish-then-wait cannot miss it.
   */
  since?: number;
  /** Ends the wait early (rejecting with `CLOSED`): the control API's long poll passes its request's. */
  signal?: AbortSignal;
}

/** A session of one of the devices (with the serial of the device it is connected to). */
export type EmulatorSession = Stated<z.output<typeof EmulatorSessionSchema>, 'remoteAddress' | 'user'>;

/** A fault switch of one of the devices. */
export interface DeviceFault extends ActiveFault {
  /** Serial of the device it is on. */
  device: string;
}

/** An answer override of one of the devices. */
export interface DeviceOverride extends ActiveOverride {
  /** Serial of the device it is on. */
  device: string;
}

/** The devices route's answer for one device (./schemas), the shape {@link DeviceAccess} is made from. */
type DeviceAccessAnswer = z.output<typeof DeviceAccessSchema>;

/**
 * How to reach a device and log in to it: the shape `GET /_emu/devices` answers (./schemas,
 * `DeviceAccessSchema`), with undefined where it has null (no account with auth `none`, no
 * control API when it is off) and every endpoint's URL typed.
 */
export type DeviceAccess = {
  [K in Exclude<keyof DeviceAccessAnswer, 'urls'>]: null extends DeviceAccessAnswer[K]
    ? Exclude<DeviceAccessAnswer[K], null> | undefined
    : DeviceAccessAnswer[K];
} & { urls: DeviceUrls };

/**
 * A device of the emulator as the control API lists it: where it is, cheap to read for every
 * device of a big fleet, and its access, made on each read (only for the devices answered).
 */
export interface ListedDevice {
  readonly device: { readonly serial: string; readonly host: string; readonly port: number };
  readonly access: DeviceAccess;
}

/** The emulator as the control API drives it. */
export interface ControlledEmulator {
  /** The devices, in the order of their scenarios (or of the fleet). */
  readonly devices: readonly ListedDevice[];
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
  /**
   * Resolves with the next notification sent to the client under test (of `topic`, when
   * given): after the call, or after `since`. The dashboard's own session's are not waited for.
   */
  waitForNotification(options?: WaitOptions): Promise<NotificationEntry>;
  /**
   * Resolves with the next journal entry of `kind` the client under test caused (or the device
   * wrote: a fault, an expectation): after the call, or after `since`. `topic` does not apply.
   */
  waitForEntry<K extends JournalKind>(kind: K, options?: WaitOptions): Promise<Extract<JournalEntry, { kind: K }>>;
  /** What crossed the sockets, oldest first: requests, sessions, configures, notifications, refusals. */
  journal(filter?: JournalFilter): JournalEntry[];
  /**
   * The newest `count` journal entries (of the named device only, when one is named) after the
   * seq `after`, oldest first, and how many more the journal holds that were `skipped`.
   */
  newestEntries(count: number, options?: OnDevice & { after?: number }): NewestEntries;
  /**
   * Calls `listener` synchronously after every new journal entry (of the named device only,
   * when one is named), without the entry: read what is new with {@link newestEntries} or
   * {@link journal}. Returns the function that stops it.
   */
  watchJournal(listener: () => void, options?: OnDevice): () => void;
  /**
   * The seq of the newest journal entry ever written (0 before the first): what a later read
   * passes as `since` to get only what came after. A clear or a reset does not lower it.
   */
  readonly journalSeq: number;
  /** Entries the journal pushed out since the last reset (it keeps the newest `journalCapacity`). */
  readonly journalDropped: number;
  /**
   * Empties the journal of every device (sequence numbers go on) and zeroes `journalDropped`:
   * the running segment's entries are gone, the ended segments' findings stay.
   */
  clearJournal(): void;
  /**
   * Grades the client under test from the journal (docs/grading.md): findings with their
   * evidence, and the scenario's expectations, in every segment of the run (a reset ends one);
   * of the named device, or of every device.
   */
  report(options?: OnDevice & ReportRequest): ControlReport;
  /** Names the segment running now (the report's, ended by the next reset); `BAD_OPTION` for a bad name. */
  nameSegment(name: string): SegmentInfo;
  /**
   * Turns fault switch `name` on (docs/faults.md) on the device (every device when none is
   * named); resolves when on, or when an action (drop, reboot, flap, storm) is over.
   * Throws `BAD_FAULT` for an unknown switch or bad parameters.
   */
  fault<N extends FaultName>(name: N, params?: FaultParamsInput<N>, options?: OnDevice): Promise<DeviceFault[]>;
  /** Switches fault `name` off (every one when undefined) on the device (every device when none is named). */
  clearFaults(name?: FaultName, options?: OnDevice): FaultName[];
  /** The fault switches that are on (on every device unless one is named). */
  faults(options?: OnDevice): DeviceFault[];
  /**
   * Makes the device (every device when none is named) answer a CGI with a JSON-RPC error, an
   * HTTP status, a JSON body or a delay, after authentication (docs/control-api.md); one
   * override, with its id, per device. Throws `BAD_OVERRIDE` for an unknown CGI or method.
   */
  override(spec: OverrideSpec, options?: OnDevice): DeviceOverride[];
  /** Removes override `id` (every one when undefined) on the device (every device when none is named); returns the ids removed. */
  clearOverrides(id?: string, options?: OnDevice): string[];
  /** The answer overrides in force (on every device unless one is named). */
  overrides(options?: OnDevice): DeviceOverride[];
  /** Replaces the device's scenario (every device's when none is named) and plays it from the start. */
  setScenario(scenario: Scenario, options?: OnDevice): void;
  /** Where the scenario of the device (the first when none is named) is: name, state, position, speed, revision, topics. */
  scenarioStatus(options?: OnDevice): ScenarioStatus;
  /** Pauses the scenario: nothing more is published until `playScenario()`; sessions stay. */
  pauseScenario(options?: OnDevice): void;
  /** Resumes a paused scenario where it stopped (does nothing to one that plays). */
  playScenario(options?: OnDevice): void;
  /** Plays the scenario again from zero, states and flags as it sets them. */
  restartScenario(options?: OnDevice): void;
  /**
   * Back to the start, as for a fresh test: flags to their defaults, states to the scenario's
   * initial ones, sessions closed, tokens revoked, refused logins and faults cleared, journal
   * cleared, scenario restarted from zero. The ports and URLs stay. The report's segment ends
   * (graded as the journal stands, and kept) and the next begins, named `segment` when given.
   */
  reset(options?: { segment?: string }): Promise<void>;
}
