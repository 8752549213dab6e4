/**
 * Turns a plan into concrete recordings as a body worn system would upload them:
 * container names `{UserID}_{Serial}_{TriggerOnTime}`, clip objects
 * `{StartTime}_{RecordingID}.{mkv|mp4}` with their times, bookmarks, GPS trails, and
 * the metadata of each. Deterministic for a given plan, `now` and seed.
 */
import { type ClipType, formatCompactUtc, recordingContainerName } from '../protocol/body-worn';
import type { Plan, PlanRecording } from './plan';

/** One clip object. */
export interface PlannedClip {
  name: string;
  /** Epoch seconds. */
  start: number;
  stop: number;
  bytes: number;
  type: ClipType;
  /** Seed of its synthetic bytes. */
  seed: string;
}

/** One object beside the clips (bookmark or GNSS trail). */
export interface PlannedObject {
  name: string;
  /** Metadata names as sent (`CategoryID`), values not yet URL-encoded. */
  metadata: Record<string, string>;
  body: string;
}

/** A recording, ready to upload. */
export interface PlannedRecording {
  /** RecordingID, also in the clip names. */
  id: string;
  container: string;
  userId: string;
  serial: string;
  /** Container metadata (names as sent, values not yet URL-encoded), without Status. */
  metadata: Record<string, string>;
  triggerOn: number;
  clips: PlannedClip[];
  bookmarks: PlannedObject[];
  gpsTrail: PlannedObject | undefined;
  /** Set on the recordings `--check` makes on purpose to provoke a 400. */
  probe?: 'unknown-user' | 'unknown-device' | 'no-duration';
}

/** A user or camera to register. */
export interface Registration {
  id: string;
  metadata: Record<string, string>;
}

/** Everything to do, in order. */
export interface ExpandedPlan {
  system: { id: string; name: string } | undefined;
  users: Registration[];
  devices: Registration[];
  recordings: PlannedRecording[];
}

/** How to expand. */
export interface ExpandOptions {
  /** Epoch ms: recordings without a trigger time end before this. */
  now: number;
  containerType: ClipType;
  /** Whether to send `X-Object-Meta-Userid` (StoreUserIDKey). */
  storeUserIdKey?: boolean;
}

/** Expands a plan (with `generate:` resolved) into registrations and recordings. */
export function expandPlan(plan: Plan, options: ExpandOptions): ExpandedPlan {
  const users = [...plan.users];
  const devices = [...plan.devices];
  const recordings: PlanRecording[] = [...plan.recordings];
  if (plan.generate) {
    const g = plan.generate;
    for (let i = 0; i < g.users; i++) users.push({ id: `user_${pad(i + 1, 4)}`, name: `User ${i + 1}`, active: true });
    for (let i = 0; i < g.devices; i++)
      devices.push({
        serial: `BWC${pad(i + 1, 8)}`,
        name: `Camera ${i + 1}`,
        model: 'W110',
        firmware: '11.11.73',
        active: true,
      });
    for (let i = 0; i < g.recordings; i++) {
      recordings.push({
        user: users[plan.users.length + (i % g.users)].id,
        device: devices[plan.devices.length + (i % g.devices)].serial,
        'trigger-on-reason': 'Button',
        'trigger-off-reason': 'Button',
        clips: g.clips,
        'clip-duration': g['clip-duration'],
        'clip-size': g['clip-size'],
        bookmarks: [],
        gps: false,
        timezone: 'Europe/Stockholm',
      });
    }
  }
  const deviceBySerial = new Map(devices.map((d) => [d.serial, d]));
  // Recordings without a trigger time are spaced 10 minutes apart and all end before now.
  const spacing = 10 * 60_000;
  const untimed = recordings.filter((r) => r['trigger-on'] === undefined).length;
  let untimedIndex = 0;
  const used = new Set<string>();
  return {
    system: plan.system,
    users: users.map((u) => ({
      id: u.id,
      metadata: {
        Name: u.name,
        Active: u.active ? 'True' : 'False',
        ...(options.storeUserIdKey ? { Userid: u.id } : {}),
      },
    })),
    devices: devices.map((d) => ({
      id: d.serial,
      metadata: { Name: d.name, Active: d.active ? 'True' : 'False', Model: d.model },
    })),
    recordings: recordings.map((r, i) => {
      let triggerOn =
        r['trigger-on'] ??
        Math.floor((options.now - (untimed - untimedIndex++) * spacing - r.clips * r['clip-duration']) / 1000) * 1000;
      // One container per recording: a second recording of the same user and camera in the same second moves on a second.
      while (used.has(recordingContainerName(r.user, r.device, triggerOn))) triggerOn += 1000;
      used.add(recordingContainerName(r.user, r.device, triggerOn));
      const device = deviceBySerial.get(r.device);
      return planRecording(
        r,
        i,
        triggerOn,
        options.containerType,
        device?.model ?? 'W110',
        device?.firmware ?? '11.11.73',
      );
    }),
  };
}

/** One recording's names, times and metadata. */
export function planRecording(
  r: PlanRecording,
  index: number,
  triggerOn: number,
  type: ClipType,
  model: string,
  firmware: string,
): PlannedRecording {
  const id = `${formatCompactUtc(triggerOn)}_${pad(index + 1, 4)}`;
  const container = recordingContainerName(r.user, r.device, triggerOn);
  const clipSeconds = r['clip-duration'] / 1000;
  const startSeconds = Math.floor(triggerOn / 1000);
  const clips: PlannedClip[] = [];
  for (let c = 0; c < r.clips; c++) {
    const start = startSeconds + c * clipSeconds;
    clips.push({
      name: `${start}_${id}.${type}`,
      start,
      stop: start + clipSeconds,
      bytes: r['clip-size'],
      type,
      seed: `${container}/${c}`,
    });
  }
  const stopSeconds = startSeconds + r.clips * clipSeconds;
  const metadata: Record<string, string> = {
    ContainerName: container,
    BWCSerialNumber: r.device,
    SCUSerialNumber: 'SCU0000001',
    FirmwareVersion: firmware,
    UserID: r.user,
    BWCModel: model,
    TimeZone: r.timezone,
    TriggerOn: r['trigger-on-reason'],
    TriggerOff: r['trigger-off-reason'],
    ...timePair('TriggerOnTime', startSeconds),
    ...timePair('TriggerOffTime', stopSeconds),
    ...timePair('StartTime', startSeconds),
    ...timePair('StopTime', stopSeconds),
  };
  const bookmarks = r.bookmarks.map((b, n) => {
    const start = startSeconds + b.at / 1000;
    return {
      name: `bookmark_${Math.floor(start)}_${n + 1}`,
      metadata: {
        CategoryID: b.category,
        CategoryName: '',
        StartTime: String(start),
        EndTime: String(start + (b.length ?? 0) / 1000),
        Tags: Object.entries(b.tags)
          .map(([k, v]) => `${k}:${v}`)
          .join(';'),
      },
      body: '',
    };
  });
  const points =
    r.gps === true
      ? defaultTrack(stopSeconds - startSeconds)
      : r.gps === false
        ? []
        : r.gps.map((p) => ({ t: p.at / 1000, lat: p.lat, lon: p.lon }));
  const gpsTrail = points.length
    ? {
        name: `${startSeconds}_${id}_gpstrail.json`,
        metadata: { StartTime: String(startSeconds), StopTime: String(stopSeconds) },
        body: `${JSON.stringify({ RecordingID: id, Points: points.map((p) => ({ Time: new Date((startSeconds + p.t) * 1000).toISOString(), Latitude: p.lat, Longitude: p.lon })) })}\n`,
      }
    : undefined;
  return { id, container, userId: r.user, serial: r.device, metadata, triggerOn, clips, bookmarks, gpsTrail };
}

function timePair(name: string, seconds: number): Record<string, string> {
  return { [name]: String(seconds), [`${name}ISO`]: new Date(seconds * 1000).toISOString().replace(/\.000Z$/, 'Z') };
}

/** A short walk through Malmö, one point every 10 s. */
function defaultTrack(seconds: number): { t: number; lat: number; lon: number }[] {
  const points = [];
  for (let t = 0; t <= seconds; t += 10)
    points.push({
      t,
      lat: Math.round((55.60587 + t * 0.00002) * 1e6) / 1e6,
      lon: Math.round((13.00073 + t * 0.00005) * 1e6) / 1e6,
    });
  return points;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
