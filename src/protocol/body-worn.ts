/**
 * The body worn conventions on top of Swift, as pure functions and constants: the
 * reserved containers, recording container names, clip object names, capabilities.
 * Shared by the reference destination (to judge) and the body worn system (to build).
 */

/** Containers with a fixed meaning in every account. */
export const RESERVED_CONTAINERS = { system: 'System', users: 'Users', devices: 'Devices' } as const;

/** Objects of the `System` container the destination serves. */
export const SYSTEM_OBJECTS = { capabilities: 'Capabilities.json', categories: 'Categories.json' } as const;

/** Capability names, by the section of `Capabilities.json` they belong to. */
export const CAPABILITY_SECTIONS = {
  Read: ['ReadCategories'],
  Store: ['StoreUserIDKey', 'StoreBookmarks', 'StoreSignedVideo', 'StoreGNSSTrackRecording', 'StoreRejectedContent'],
  StoreAndRead: ['StoreReadSystemID'],
} as const;

/** A capability name. */
export type CapabilityName = (typeof CAPABILITY_SECTIONS)[keyof typeof CAPABILITY_SECTIONS][number];

/** Every capability name, in file order. */
export const CAPABILITY_NAMES: readonly CapabilityName[] = Object.values(CAPABILITY_SECTIONS).flat();

/** The document a destination publishes as `System/Capabilities.json`. */
export interface CapabilitiesDocument {
  Read: Record<string, boolean>;
  Store: Record<string, boolean>;
  StoreAndRead: Record<string, boolean>;
}

/** A category of `System/Categories.json`. */
export interface Category {
  Name: string;
  Id: string;
}

/** Builds `Capabilities.json` from the supported names (others are false). */
export function capabilitiesDocument(
  supported: Readonly<Partial<Record<CapabilityName, boolean>>>,
): CapabilitiesDocument {
  const section = (names: readonly CapabilityName[]): Record<string, boolean> =>
    Object.fromEntries(names.map((name) => [name, supported[name] ?? false]));
  return {
    Read: section(CAPABILITY_SECTIONS.Read),
    Store: section(CAPABILITY_SECTIONS.Store),
    StoreAndRead: section(CAPABILITY_SECTIONS.StoreAndRead),
  };
}

/** What a recording container's name says. */
export interface RecordingName {
  userId: string;
  serial: string;
  /** Trigger-on time, epoch milliseconds. */
  triggerOnTime: number;
}

/**
 * Reads `{UserID}_{BWCSerialNumber}_{YYYYMMDDTHHMMSSZ}`. The user ID may itself hold
 * underscores, so the name is read from the right. Returns undefined when the name
 * does not have the shape, and `{ badTime }` when the time part is not a real UTC time.
 */
export function parseRecordingContainer(name: string): RecordingName | { badTime: string } | undefined {
  const match = /^(.+)_([^_]+)_(\d{8}T\d{6}Z)$/.exec(name);
  if (!match) return undefined;
  const time = parseCompactUtc(match[3]);
  if (time === undefined) return { badTime: match[3] };
  return { userId: match[1], serial: match[2], triggerOnTime: time };
}

/** `RejectedContent_{time|UnknownTime}_{UUID}`: always accepted by a destination. */
export function isRejectedContentContainer(name: string): boolean {
  return name.startsWith('RejectedContent_');
}

/** The recording container name for a user, a camera and a trigger time. */
export function recordingContainerName(userId: string, serial: string, triggerOnTime: number): string {
  return `${userId}_${serial}_${formatCompactUtc(triggerOnTime)}`;
}

/** `20240102T030405Z` -> epoch ms; undefined unless it is a real date and time. */
export function parseCompactUtc(text: string): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const back = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  back.setUTCFullYear(year, month - 1, day); // Date.UTC maps years 0-99 to 1900-1999
  const ms = back.getTime();
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day ||
    back.getUTCHours() !== hour ||
    back.getUTCMinutes() !== minute ||
    back.getUTCSeconds() !== second
  )
    return undefined;
  return ms;
}

/** epoch ms -> `20240102T030405Z`. */
export function formatCompactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Media container types a clip can have. */
export const CLIP_TYPES = ['mkv', 'mp4'] as const;

/** `mkv` or `mp4`. */
export type ClipType = (typeof CLIP_TYPES)[number];

/** True for a clip object name (`{StartTime}_{RecordingID}.mkv|mp4`), by its extension. */
export function isClipObject(name: string): boolean {
  return /\.(mkv|mp4)$/i.test(name);
}

/**
 * Epoch seconds as the body worn system sends them (`1700000000`, a decimal point
 * allowed); undefined for anything else.
 */
export function parseEpochSeconds(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,12}(\.\d{1,6})?$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
