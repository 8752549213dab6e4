/**
 * The body worn rules a content destination adds to Swift, as pure checks: a
 * recording that can never be stored is refused with 400 (the system then marks it
 * "not transferred"), a new user or camera beyond the licences with 402, and the
 * destination's own System objects are not the client's to write (403).
 */
import {
  isClipObject,
  isRejectedContentContainer,
  parseEpochSeconds,
  parseRecordingContainer,
  RESERVED_CONTAINERS,
  SYSTEM_OBJECTS,
} from '../protocol/body-worn';
import { err, type ErrorInfo, ok, type Result } from '../base/result';
import type { StoredMetadata } from './store/object-store';

/** What the rules need to know about registered users and cameras. */
export interface Registry {
  /** The metadata of `Users/{id}`, if registered. */
  user(id: string): StoredMetadata | undefined;
  /** The metadata of `Devices/{serial}`, if registered. */
  device(serial: string): StoredMetadata | undefined;
  /** How many registered users / devices are active. */
  activeCount(kind: 'users' | 'devices'): number;
}

/** Limits of one destination. */
export interface RulePolicy {
  licences: { users: number; devices: number };
  /** Now, epoch ms. */
  now: number;
  /** Times before this (epoch ms) are out of bounds. */
  earliest: number;
  /** Times later than now + this are out of bounds. */
  maxAheadMs: number;
}

/**
 * A refusal by a rule: a recording that can never be stored (400), no licence left (402),
 * a System object of the destination's (403). `recording` is set when it makes a recording
 * "not transferred".
 */
export interface RuleRefusal extends ErrorInfo<'BAD_RECORDING' | 'NO_LICENCE' | 'RESERVED_OBJECT'> {
  readonly status: 400 | 402 | 403;
  readonly recording?: string;
}

/** What the rules say of a write: go ahead, or the refusal. */
export type RuleVerdict = Result<void, RuleRefusal>;

const OK: RuleVerdict = ok(undefined);

/** Checks a container PUT or POST, with the container's metadata as it would be after it. */
export function checkContainerWrite(
  container: string,
  metadata: StoredMetadata,
  registry: Registry,
  policy: RulePolicy,
): RuleVerdict {
  if (isRejectedContentContainer(container)) return OK;
  const name = parseRecordingContainer(container);
  if (name === undefined) return OK;
  const refuse = (message: string): RuleVerdict => badRecording(container, message);
  if ('badTime' in name)
    return refuse(`TriggerOnTime "${name.badTime}" in the container name is not a valid UTC time (YYYYMMDDTHHMMSSZ)`);
  const registration = registered(name.userId, name.serial, registry);
  if (registration) return refuse(registration);
  if (metadata.userid !== undefined && metadata.userid !== name.userId)
    return refuse(`UserID "${metadata.userid}" does not match the container name (user "${name.userId}")`);
  if (metadata.bwcserialnumber !== undefined && metadata.bwcserialnumber !== name.serial)
    return refuse(
      `BWCSerialNumber "${metadata.bwcserialnumber}" does not match the container name (camera "${name.serial}")`,
    );
  const outOfBounds = timeProblem('TriggerOnTime in the container name', name.triggerOnTime, policy);
  if (outOfBounds) return refuse(outOfBounds);
  const times: Record<string, number | undefined> = {};
  for (const field of ['TriggerOnTime', 'TriggerOffTime', 'StartTime', 'StopTime']) {
    const text = metadata[field.toLowerCase()];
    if (text === undefined) continue;
    const seconds = parseEpochSeconds(text);
    if (seconds === undefined) return refuse(`${field} "${text}" is not epoch seconds`);
    const problem = timeProblem(field, seconds * 1000, policy);
    if (problem) return refuse(problem);
    times[field] = seconds;
  }
  if (before(times.StopTime, times.StartTime))
    return refuse(`StopTime ${times.StopTime} is before StartTime ${times.StartTime}`);
  if (before(times.TriggerOffTime, times.TriggerOnTime))
    return refuse(`TriggerOffTime ${times.TriggerOffTime} is before TriggerOnTime ${times.TriggerOnTime}`);
  return OK;
}

/** Checks an object DELETE: the destination's own System objects stay. */
export function checkObjectDelete(container: string, object: string): RuleVerdict {
  if (container === RESERVED_CONTAINERS.system && (Object.values(SYSTEM_OBJECTS) as string[]).includes(object))
    return reservedObject(`System/${object} is published by the content destination and cannot be deleted`);
  return OK;
}

/** An object write the rules judge: a PUT of a whole object or a POST of its metadata. */
export interface ObjectWrite {
  operation: 'put' | 'post';
  container: string;
  object: string;
  /** The metadata the object will have. */
  metadata: StoredMetadata;
  /** The metadata of the object it replaces or updates, if there is one. */
  existing: StoredMetadata | undefined;
}

/** Checks an object PUT or POST: System objects, licences of Users/Devices, clips of recordings. */
export function checkObjectWrite(write: ObjectWrite, registry: Registry, policy: RulePolicy): RuleVerdict {
  const { container, object, metadata, existing } = write;
  const post = write.operation === 'post';
  if (container === RESERVED_CONTAINERS.system && (Object.values(SYSTEM_OBJECTS) as string[]).includes(object))
    return reservedObject(`System/${object} is published by the content destination and cannot be written`);
  if (container === RESERVED_CONTAINERS.users || container === RESERVED_CONTAINERS.devices) {
    const kind = container === RESERVED_CONTAINERS.users ? 'users' : 'devices';
    const becomesActive = isActive(metadata) && (existing === undefined ? !post : !isActive(existing));
    // Counting is a scan of the container: only done when there is a limit to count against.
    if (
      becomesActive &&
      Number.isFinite(policy.licences[kind]) &&
      registry.activeCount(kind) >= policy.licences[kind]
    ) {
      return err({
        code: 'NO_LICENCE',
        status: 402,
        message: `No licence left for another ${kind === 'users' ? 'user' : 'camera'}: ${policy.licences[kind]} of ${policy.licences[kind]} in use`,
      });
    }
    return OK;
  }
  if (post || isRejectedContentContainer(container) || !isClipObject(object)) return OK;
  const name = parseRecordingContainer(container);
  if (name === undefined || 'badTime' in name) return OK;
  const refuse = (message: string): RuleVerdict => badRecording(container, message);
  const registration = registered(name.userId, name.serial, registry);
  if (registration) return refuse(registration);
  const start = parseEpochSeconds(metadata.starttime);
  const stop = parseEpochSeconds(metadata.stoptime);
  if (start === undefined || stop === undefined)
    return refuse(`clip ${object} has no duration: StartTime and StopTime metadata (epoch seconds) are required`);
  if (stop <= start) return refuse(`clip ${object} has no duration: StopTime ${stop} is not after StartTime ${start}`);
  const outOfBounds =
    timeProblem('clip StartTime', start * 1000, policy) ?? timeProblem('clip StopTime', stop * 1000, policy);
  return outOfBounds ? refuse(outOfBounds) : OK;
}

/** A registration object counts as active unless its `Active` metadata says False. */
export function isActive(metadata: StoredMetadata): boolean {
  return (metadata.active ?? 'True').toLowerCase() !== 'false';
}

function badRecording(container: string, message: string): RuleVerdict {
  return err({ code: 'BAD_RECORDING', status: 400, message, recording: container });
}

function reservedObject(message: string): RuleVerdict {
  return err({ code: 'RESERVED_OBJECT', status: 403, message });
}

function registered(userId: string, serial: string, registry: Registry): string | undefined {
  if (!registry.user(userId)) return `user "${userId}" is not registered (no object Users/${userId})`;
  if (!registry.device(serial)) return `camera "${serial}" is not registered (no object Devices/${serial})`;
  return undefined;
}

function timeProblem(field: string, ms: number, policy: RulePolicy): string | undefined {
  if (ms < policy.earliest)
    return `${field} ${new Date(ms).toISOString()} is out of bounds (before ${new Date(policy.earliest).toISOString()})`;
  if (ms > policy.now + policy.maxAheadMs)
    return `${field} ${new Date(ms).toISOString()} is out of bounds (in the future)`;
  return undefined;
}

function before(later: number | undefined, earlier: number | undefined): boolean {
  return later !== undefined && earlier !== undefined && later < earlier;
}
