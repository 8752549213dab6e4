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
 */

// The emulator: devices playing scenarios, watched files (what `bwc-emu` runs)
export { startEmulator } from './emulator';
export type {
  DeviceAccess,
  DeviceFault,
  DeviceRef,
  EmulatedDevice,
  EmulatorHandle,
  EmulatorOptions,
  EmulatorSession,
  LoadedScenario,
  OnDevice,
  ReloadedFile,
  ScenarioPlayState,
  ScenarioReload,
  ScenarioReloadError,
  ScenarioSource,
  WaitOptions,
} from './emulator';
export { DEFAULT_JOURNAL_CAPACITY, JOURNAL_KINDS } from './base/journal';
export type {
  AuthRefusedEntry,
  ConfigureEntry,
  HttpEntry,
  JournalAuth,
  JournalEntry,
  JournalFilter,
  JournalKind,
  NotificationEntry,
  WsCloseEntry,
  WsOpenEntry,
} from './base/journal';

// Devices
export { startDevice } from './device/device';
export type { DeviceHandle } from './device/device';
export { DEFAULT_INITIAL_STATES, PERSONA_NAMES, PERSONAS } from './device/device-options';
export type { DeviceOptions, InitialState, Persona, PersonaName } from './device/device-options';
export { DEVICE_LIMITS } from './device/device-limits';
export type { DeviceLimits, LimitSpec } from './device/device-limits';
export { FAULT_CATALOGUE, FAULT_NAMES } from './protocol/fault-catalogue';
export type { ActiveFault, FaultName, FaultParams, FaultParamsInput } from './protocol/fault-catalogue';
export type { DevicePaths, DeviceUrls } from './device/endpoints';
export { DEFAULT_FLAGS } from './device/feature-flags';
export type { FlagDefinition, FlagState } from './device/feature-flags';
export type { TlsMaterial } from './base/tls';

export type { SessionInfo, SessionState } from './events/event-session';
export type { SessionChange, SessionListener } from './events/stream-server';
export type { DeviceEvent, PublishOptions, TimestampMode } from './events/event-bus';
export type { NotificationMessage } from './events/content-filter';

// Scenarios: the format, its loader, and the player (docs/scenarios.md)
export { loadScenario, loadScenarioFile } from './scenario/load';
export type { LoadScenarioResult, ScenarioError, ScenarioErrorCode } from './scenario/load';
export type { Scenario, ScenarioInput, Step, Trigger } from './scenario/schema';
export { deviceOptionsForScenario, playOnDevice } from './emulator/play-on-device';
export type { PlayOnDeviceOptions, ScenarioRun } from './emulator/play-on-device';
export type { RecordingsRun, ScenarioRecordingReport } from './scenario/play-recordings';
export { ScenarioPlayer } from './scenario/player';
export type { ScenarioPlayerOptions, ScenarioTarget } from './scenario/player';
export { ManualScheduler, realScheduler } from './scenario/scheduler';
export type { Scheduler } from './scenario/scheduler';

// Content destination: the reference Swift-subset server (docs/destination.md)
export { startDestination } from './destination/destination';
export type { DestinationHandle } from './destination/destination';
export { DEFAULT_CATEGORIES, DEFAULT_DESTINATION_USER } from './destination/destination-options';
export type { DestinationOptions, DestinationUser, ResolvedUser } from './destination/destination-options';
export type { FaultRule } from './destination/faults';
export type { OpenWrite } from './destination/store/receive-body';
export type { NoRoomCode, StorageState } from './destination/store/disk-room';
export type { RecordingInfo, RecordingStatus } from './destination/recordings';
export { buildConnectionFile } from './protocol/connection-file';
export type { ConnectionFile } from './protocol/connection-file';
export { CAPABILITY_NAMES, recordingContainerName } from './protocol/body-worn';
export type { CapabilitiesDocument, CapabilityName, Category } from './protocol/body-worn';

// Simulated body worn system: uploads recordings to any content destination (docs/body-worn-system.md)
export { BodyWornSystem, runBodyWornSystem } from './bws/body-worn-system';
export type { BodyWornOptions, CapabilitiesSource, Progress, UploadReport } from './bws/body-worn-system';
export { checkConnectionFile, parseConnectionFile } from './protocol/connection-file';
export type { ConnectionFileResult } from './protocol/connection-file';
export { runConformance, formatFindings } from './bws/conformance';
export type { ConformanceResult, Finding } from './bws/conformance';
export { DEFAULT_PLAN, loadPlan, loadPlanFile, PlanSchema } from './bws/plan';
export type { LoadPlanResult, Plan, PlanInput, PlanRecording } from './bws/plan';
export type { ExpandedPlan, PlannedRecording } from './bws/expand-plan';
export type { FailedRequest, RecordingReport, RecordingStatus as UploadStatus } from './bws/upload-recording';
export { DEFAULT_RETRY, SwiftClientError } from './bws/swift-client';
export type { Exchange, RetryPolicy } from './bws/swift-client';
export { RETRIED_STATUSES } from './bws/retry-policy';
export type { RetryDecision } from './bws/retry-policy';

// Authentication
export { DEFAULT_ACCOUNT, ROLES } from './auth/accounts';
export type { Account, Role } from './auth/accounts';
export type { AuthMode } from './auth/authenticator';
export { DIGEST_ALGORITHMS } from './auth/digest';
export type { DigestAlgorithm, ReplayMode } from './auth/digest';
export { digestAuthorization } from './auth/digest-client';
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
export { createLogger } from './base/log';
export type { Logger, LoggerOptions, LogLevel } from './base/log';
