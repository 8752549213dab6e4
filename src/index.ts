/**
 * bwc-emu: a simulated body worn camera host. This file is the whole public face;
 * everything else is internal and may change.
 *
 * @example
 * ```ts
 * import { startEmulator } from 'bwc-emu';
 * const emulator = await startEmulator({ scenarios: ['motion'] });   // free port, root / pass
 * const device = emulator.devices[0].device;
 * // ... point your client at device.urls.eventStream ...
 * await emulator.close();
 * ```
 *
 * Loading this file loads almost nothing: each value below that needs more than a few
 * small modules (a server, zod schemas, YAML, pino...) is a getter that requires its
 * module when it is read, so a process that starts only a destination never loads the
 * device, the control API or the scenario format (see the end of the file). Types are
 * free: they are erased.
 */

import type * as BodyWornSystemModule from './bws/body-worn-system';
import type * as ConformanceModule from './bws/conformance';
import type * as PlanModule from './bws/plan';
import type * as RetryPolicyModule from './bws/retry-policy';
import type * as SwiftClientModule from './bws/swift-client';
import type * as DigestModule from './auth/digest';
import type * as DigestClientModule from './auth/digest-client';
import type * as JournalModule from './base/journal';
import type * as LogModule from './base/log';
import type * as DestinationModule from './destination/destination';
import type * as DestinationOptionsModule from './destination/destination-options';
import type * as DeviceModule from './device/device';
import type * as DeviceLimitsModule from './device/device-limits';
import type * as DeviceOptionsModule from './device/device-options';
import type * as CloneDeviceModule from './device/clone-device';
import type * as PersonaFileModule from './device/persona-file-yaml';
import type * as FeatureFlagsModule from './device/feature-flags';
import type * as EmulatorModule from './emulator/start-emulator';
import type * as PlayOnDeviceModule from './emulator/play-on-device';
import type * as ConnectionFileModule from './protocol/connection-file';
import type * as FaultCatalogueModule from './protocol/fault-catalogue';
import type * as LoadScenarioModule from './scenario/load';

// The emulator: devices playing scenarios, watched files (what `bwc-emu` runs)
export declare const startEmulator: typeof EmulatorModule.startEmulator;
export type {
  DeviceAccess,
  DeviceFault,
  DeviceOverride,
  DeviceRef,
  EmulatedDevice,
  EmulatorHandle,
  EmulatorOptions,
  EmulatorSession,
  GradingOptions,
  LoadedScenario,
  OnDevice,
  ReloadedFile,
  ReportOptions,
  ScenarioReload,
  ScenarioReloadError,
  ScenarioSource,
  ScenarioState,
  ScenarioStatus,
  SegmentInfo,
  WaitOptions,
} from './emulator/start-emulator';
// What report() answers (docs/grading.md)
export type {
  ExpectationResult,
  Finding as GradingFinding,
  GradingReport,
  GradingSummary,
  GradingThresholds,
  ReportExpectation,
  ReportFinding,
  SegmentRef,
  SegmentSummary,
} from './grading/report';
export type { RuleId, Severity } from './grading/rule-catalogue';
/** @deprecated The earlier name of {@link ScenarioState}; use that. */
export type ScenarioPlayState = EmulatorModule.ScenarioState;
export declare const DEFAULT_JOURNAL_CAPACITY: typeof JournalModule.DEFAULT_JOURNAL_CAPACITY;
export declare const JOURNAL_KINDS: typeof JournalModule.JOURNAL_KINDS;
export type {
  AuthRefusedEntry,
  ConfigureEntry,
  HttpEntry,
  JournalAuth,
  JournalEntry,
  JournalFilter,
  JournalKind,
  JournalVia,
  NotificationEntry,
  WsCloseEntry,
  WsOpenEntry,
} from './base/journal';

// Devices
export declare const startDevice: typeof DeviceModule.startDevice;
export type { DeviceHandle } from './device/device';
export declare const DEFAULT_INITIAL_STATES: typeof DeviceOptionsModule.DEFAULT_INITIAL_STATES;
export declare const PERSONA_NAMES: typeof DeviceOptionsModule.PERSONA_NAMES;
export declare const PERSONAS: typeof DeviceOptionsModule.PERSONAS;
export type { DeviceOptions, InitialState, Persona, PersonaName } from './device/device-options';
export declare const loadPersonaFile: typeof PersonaFileModule.loadPersonaFile;
export declare const cloneDevice: typeof CloneDeviceModule.cloneDevice;
export type { PersonaFile } from './device/persona-file';
export type { CloneOptions } from './device/clone-device';
export declare const DEVICE_LIMITS: typeof DeviceLimitsModule.DEVICE_LIMITS;
export type { DeviceLimits, LimitSpec } from './device/device-limits';
export declare const FAULT_CATALOGUE: typeof FaultCatalogueModule.FAULT_CATALOGUE;
export declare const FAULT_NAMES: typeof FaultCatalogueModule.FAULT_NAMES;
export type { ActiveFault, FaultName, FaultParams, FaultParamsInput } from './protocol/fault-catalogue';
export type { ActiveOverride, OverrideAnswer, OverrideSpec } from './protocol/answer-override-spec';
export type { DevicePaths, DeviceUrls } from './device/endpoints';
export declare const DEFAULT_FLAGS: typeof FeatureFlagsModule.DEFAULT_FLAGS;
export type { FlagDefinition, FlagState } from './device/feature-flags';
export type { TlsMaterial } from './base/tls';

export type { SessionInfo, SessionState } from './events/event-session';
export type { SessionChange, SessionListener } from './events/stream-server';
export type { DeviceEvent, PublishOptions, TimestampMode } from './events/event-bus';
export type { NotificationMessage } from './events/notification-message';

// Scenarios: the format, its loader, and the player (docs/scenarios.md)
export declare const loadScenario: typeof LoadScenarioModule.loadScenario;
export declare const loadScenarioFile: typeof LoadScenarioModule.loadScenarioFile;
export type { LoadScenarioResult, ScenarioError, ScenarioErrorCode } from './scenario/load';
export type { Scenario, ScenarioInput, Step, Trigger } from './scenario/schema';
export declare const deviceOptionsForScenario: typeof PlayOnDeviceModule.deviceOptionsForScenario;
export declare const playOnDevice: typeof PlayOnDeviceModule.playOnDevice;
export type { PlayOnDeviceOptions, ScenarioRun } from './emulator/play-on-device';
export type { RecordingsRun, ScenarioRecordingReport } from './scenario/play-recordings';
export { ScenarioPlayer } from './scenario/player';
export type { ScenarioPlayerOptions, ScenarioTarget } from './scenario/player';
export { ManualScheduler, realScheduler } from './scenario/scheduler';
export type { Scheduler } from './scenario/scheduler';

// Content destination: the reference Swift-subset server (docs/destination.md)
export declare const startDestination: typeof DestinationModule.startDestination;
export type { DestinationHandle } from './destination/destination';
export declare const DEFAULT_CATEGORIES: typeof DestinationOptionsModule.DEFAULT_CATEGORIES;
export declare const DEFAULT_DESTINATION_USER: typeof DestinationOptionsModule.DEFAULT_DESTINATION_USER;
export type { DestinationOptions, DestinationUser, ResolvedUser } from './destination/destination-options';
export type { FaultRule } from './destination/faults';
export type { OpenWrite } from './destination/store/receive-body';
export type { NoRoomCode, StorageState } from './destination/store/disk-room';
export type { RecordingInfo, RecordingStatus } from './destination/recordings';
export declare const buildConnectionFile: typeof ConnectionFileModule.buildConnectionFile;
export type { ConnectionFile } from './protocol/connection-file';
export { CAPABILITY_NAMES, recordingContainerName } from './protocol/body-worn';
export type { CapabilitiesDocument, CapabilityName, Category } from './protocol/body-worn';

// Simulated body worn system: uploads recordings to any content destination (docs/body-worn-system.md)
export declare const BodyWornSystem: typeof BodyWornSystemModule.BodyWornSystem;
export type BodyWornSystem = BodyWornSystemModule.BodyWornSystem;
export declare const runBodyWornSystem: typeof BodyWornSystemModule.runBodyWornSystem;
export type { BodyWornOptions, CapabilitiesSource, Progress, UploadReport } from './bws/body-worn-system';
export declare const checkConnectionFile: typeof ConnectionFileModule.checkConnectionFile;
export declare const parseConnectionFile: typeof ConnectionFileModule.parseConnectionFile;
export type { ConnectionFileResult } from './protocol/connection-file';
export declare const runConformance: typeof ConformanceModule.runConformance;
export declare const formatFindings: typeof ConformanceModule.formatFindings;
import type { ConformanceFinding } from './bws/conformance';
export type { ConformanceFinding, ConformanceResult } from './bws/conformance';
/** @deprecated the old name of {@link ConformanceFinding}; kept so that code written against it still compiles. */
export type Finding = ConformanceFinding;
export declare const DEFAULT_PLAN: typeof PlanModule.DEFAULT_PLAN;
export declare const loadPlan: typeof PlanModule.loadPlan;
export declare const loadPlanFile: typeof PlanModule.loadPlanFile;
export declare const PlanSchema: typeof PlanModule.PlanSchema;
export type { LoadPlanResult, Plan, PlanInput, PlanRecording } from './bws/plan';
export type { ExpandedPlan, PlannedRecording } from './bws/expand-plan';
export type { FailedRequest, RecordingReport, UploadStatus } from './bws/upload-recording';
export declare const DEFAULT_RETRY: typeof SwiftClientModule.DEFAULT_RETRY;
export declare const SwiftClientError: typeof SwiftClientModule.SwiftClientError;
export type SwiftClientError = SwiftClientModule.SwiftClientError;
export type { Exchange, RetryPolicy } from './bws/swift-client';
export declare const RETRIED_STATUSES: typeof RetryPolicyModule.RETRIED_STATUSES;
export type { RetryDecision } from './bws/retry-policy';

// Authentication
export { DEFAULT_ACCOUNT, ROLES } from './auth/accounts';
export type { Account, Role } from './auth/accounts';
export type { AuthMode } from './auth/authenticator';
export declare const DIGEST_ALGORITHMS: typeof DigestModule.DIGEST_ALGORITHMS;
export type { DigestAlgorithm, ReplayMode } from './auth/digest';
export type { SessionTokenFormat } from './auth/token-forms';
export declare const digestAuthorization: typeof DigestClientModule.digestAuthorization;
export type { DigestClientOptions } from './auth/digest-client';
export type { TokenVerdict, TokenRefusal } from './auth/session-tokens';

// Protocol
export { RpcErrorCode } from './protocol/rpc';
export type { RpcError, RpcResponse } from './protocol/rpc';

// Infrastructure
export { ManualClock, systemClock } from './base/clock';
export type { Clock } from './base/clock';
export { EmulatorError, ERROR_CODES } from './base/errors';
export type { EmulatorErrorCode } from './base/errors';
export type { ErrorInfo, Result } from './base/result';
export declare const createLogger: typeof LogModule.createLogger;
export type { Logger, LoggerOptions, LogLevel } from './base/log';

// The values declared above: each `exports.name = later(...)` names the value for Node's ESM
// loader (cjs-module-lexer reads these assignments to find a CommonJS module's named exports,
// so `import { startDestination } from 'bwc-emu'` works) and says which module it comes from;
// lazyExports() then makes each a getter that requires its module when first read (require
// caches it: the first read loads it, the others look it up).

/** A value still to be loaded: what {@link later} leaves on the exports until lazyExports() runs. */
class Later {
  constructor(readonly load: () => unknown) {}
}

/** Marks an export as loaded on first read; typed as the value so that the line reads as what it is. */
function later<T>(load: () => T): T {
  return new Later(load) as T;
}

/** Turns every export left by {@link later} into a getter of its module's value. */
function lazyExports(target: Record<string, unknown>): void {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(target)))
    if (descriptor.value instanceof Later) {
      const { load } = descriptor.value;
      Object.defineProperty(target, name, { enumerable: true, get: load });
    }
}

/* eslint-disable @typescript-eslint/no-require-imports -- the modules load on first use */
const emulator = () => require('./emulator/start-emulator') as typeof EmulatorModule;
const playOnDevice_ = () => require('./emulator/play-on-device') as typeof PlayOnDeviceModule;
const journal = () => require('./base/journal') as typeof JournalModule;
const device = () => require('./device/device') as typeof DeviceModule;
const deviceOptions = () => require('./device/device-options') as typeof DeviceOptionsModule;
const deviceLimits = () => require('./device/device-limits') as typeof DeviceLimitsModule;
const personaFile = () => require('./device/persona-file-yaml') as typeof PersonaFileModule;
const cloneDevice_ = () => require('./device/clone-device') as typeof CloneDeviceModule;
const faultCatalogue = () => require('./protocol/fault-catalogue') as typeof FaultCatalogueModule;
const featureFlags = () => require('./device/feature-flags') as typeof FeatureFlagsModule;
const scenarioLoad = () => require('./scenario/load') as typeof LoadScenarioModule;
const destination = () => require('./destination/destination') as typeof DestinationModule;
const destinationOptions = () => require('./destination/destination-options') as typeof DestinationOptionsModule;
const connectionFile = () => require('./protocol/connection-file') as typeof ConnectionFileModule;
const bodyWornSystem = () => require('./bws/body-worn-system') as typeof BodyWornSystemModule;
const conformance = () => require('./bws/conformance') as typeof ConformanceModule;
const plan = () => require('./bws/plan') as typeof PlanModule;
const swiftClient = () => require('./bws/swift-client') as typeof SwiftClientModule;
const retryPolicy = () => require('./bws/retry-policy') as typeof RetryPolicyModule;
const digest = () => require('./auth/digest') as typeof DigestModule;
const digestClient = () => require('./auth/digest-client') as typeof DigestClientModule;
const log = () => require('./base/log') as typeof LogModule;
/* eslint-enable @typescript-eslint/no-require-imports */

/* eslint-disable @typescript-eslint/no-unsafe-member-access -- `exports` is typed any */
exports.startEmulator = later(() => emulator().startEmulator);
exports.DEFAULT_JOURNAL_CAPACITY = later(() => journal().DEFAULT_JOURNAL_CAPACITY);
exports.JOURNAL_KINDS = later(() => journal().JOURNAL_KINDS);
exports.startDevice = later(() => device().startDevice);
exports.DEFAULT_INITIAL_STATES = later(() => deviceOptions().DEFAULT_INITIAL_STATES);
exports.PERSONA_NAMES = later(() => deviceOptions().PERSONA_NAMES);
exports.PERSONAS = later(() => deviceOptions().PERSONAS);
exports.loadPersonaFile = later(() => personaFile().loadPersonaFile);
exports.cloneDevice = later(() => cloneDevice_().cloneDevice);
exports.DEVICE_LIMITS = later(() => deviceLimits().DEVICE_LIMITS);
exports.FAULT_CATALOGUE = later(() => faultCatalogue().FAULT_CATALOGUE);
exports.FAULT_NAMES = later(() => faultCatalogue().FAULT_NAMES);
exports.DEFAULT_FLAGS = later(() => featureFlags().DEFAULT_FLAGS);
exports.loadScenario = later(() => scenarioLoad().loadScenario);
exports.loadScenarioFile = later(() => scenarioLoad().loadScenarioFile);
exports.deviceOptionsForScenario = later(() => playOnDevice_().deviceOptionsForScenario);
exports.playOnDevice = later(() => playOnDevice_().playOnDevice);
exports.startDestination = later(() => destination().startDestination);
exports.DEFAULT_CATEGORIES = later(() => destinationOptions().DEFAULT_CATEGORIES);
exports.DEFAULT_DESTINATION_USER = later(() => destinationOptions().DEFAULT_DESTINATION_USER);
exports.buildConnectionFile = later(() => connectionFile().buildConnectionFile);
exports.checkConnectionFile = later(() => connectionFile().checkConnectionFile);
exports.parseConnectionFile = later(() => connectionFile().parseConnectionFile);
exports.BodyWornSystem = later(() => bodyWornSystem().BodyWornSystem);
exports.runBodyWornSystem = later(() => bodyWornSystem().runBodyWornSystem);
exports.runConformance = later(() => conformance().runConformance);
exports.formatFindings = later(() => conformance().formatFindings);
exports.DEFAULT_PLAN = later(() => plan().DEFAULT_PLAN);
exports.loadPlan = later(() => plan().loadPlan);
exports.loadPlanFile = later(() => plan().loadPlanFile);
exports.PlanSchema = later(() => plan().PlanSchema);
exports.DEFAULT_RETRY = later(() => swiftClient().DEFAULT_RETRY);
exports.SwiftClientError = later(() => swiftClient().SwiftClientError);
exports.RETRIED_STATUSES = later(() => retryPolicy().RETRIED_STATUSES);
exports.DIGEST_ALGORITHMS = later(() => digest().DIGEST_ALGORITHMS);
exports.digestAuthorization = later(() => digestClient().digestAuthorization);
exports.createLogger = later(() => log().createLogger);
lazyExports(exports as Record<string, unknown>);
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
