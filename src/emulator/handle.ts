/**
 * The face of a running emulator: what a test (in-process, or through the control API)
 * uses to drive devices and see what its client did. Implemented in ./create-handle.ts;
 * what the control API uses of it is declared in ../control/controlled-emulator.ts.
 */
import type { DeviceHandle } from '../device/device-handle';
export type {
  ControlledEmulator,
  DeviceAccess,
  DeviceFault,
  DeviceOverride,
  DeviceRef,
  EmulatorSession,
  OnDevice,
  ScenarioState,
  ScenarioStatus,
  SegmentInfo,
  WaitOptions,
} from '../control/controlled-emulator';
import type { GradingReport, GradingThresholds } from '../grading/report';
import type { RuleId } from '../grading/rule-catalogue';
import type { SegmentScope } from '../grading/segment-report';
import type { Scenario } from '../scenario/schema';
import type { ControlledEmulator, DeviceAccess, OnDevice, ScenarioState } from '../control/controlled-emulator';
import type { ScenarioRun } from './play-on-device';

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
  readonly playState: ScenarioState;
}

/**
 * Which thresholds and rules the grader applies (docs/grading.md): the emulator's standing
 * choice (`startEmulator({ grading })`, `bwc-emu --threshold/--rules/--skip-rules`), or a
 * report's over it.
 */
export interface GradingOptions {
  /** Thresholds over the defaults (the standing ones, for a report). */
  thresholds?: Partial<GradingThresholds>;
  /** Only these rules. Give this or `skipRules`, not both; either replaces the standing choice. */
  rules?: readonly RuleId[];
  /** Every rule but these. */
  skipRules?: readonly RuleId[];
}

/** What {@link EmulatorHandle.report} grades, and against which timings and rules. */
export interface ReportOptions extends OnDevice, GradingOptions {
  /** `all` (the default): every segment of the run (a reset ends one); `current`: the one running now. */
  segments?: SegmentScope;
  /**
   * The client under test has stopped: a refused request it did not try again is judged now,
   * not after its retry window (`bwc-emu run` grades so once its command has ended).
   */
  clientStopped?: boolean;
}

/** A running emulator: what the control API drives, and what only code in the same process can. */
export interface EmulatorHandle extends ControlledEmulator {
  /** The devices, in the order of their scenarios (or of the fleet). */
  readonly devices: readonly EmulatedDevice[];
  /**
   * Grades the client under test from the journal (docs/grading.md): each finding with its
   * rule, severity, client, evidence, fix and segment, and the scenario's `expect:` steps; of
   * the named device, or of every device; of every segment of the run (a reset ends one and
   * keeps what it found), or with `segments: 'current'` of the one running now. `thresholds`
   * changes the timings the rules hold the client to, `rules` / `skipRules` which rules apply
   * (over the emulator's standing `grading`); `BAD_OPTION` for an unknown name or a bad value.
   * Windows not over yet are not judged (in an ended segment: not over at its reset).
   */
  report(options?: ReportOptions): GradingReport;
  /** Stops every scenario and watcher and closes every device; resolves when all is closed. */
  close(): Promise<void>;
}
