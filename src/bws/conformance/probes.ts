/**
 * The probes: three clearly marked recordings the destination must refuse with 400
 * (user `bwc-emu-check_unknown-user`, camera `CHECKUNKNOWN`, a clip whose StopTime
 * is its StartTime). The 400s of the body worn rules can only be seen by provoking them.
 * They are recorded by identities of their own (user `bwc-emu-check_user`, camera
 * `BWCEMUCHECK`, registered after the plan's), never by the plan's users and cameras,
 * and what they leave behind is removed afterwards (see probe-cleanup.ts).
 */
import type { ClipType } from '../../protocol/body-worn';
import { type ExpandedPlan, type PlannedRecording, planRecording } from '../expand-plan';
import type { Plan } from '../plan';

/** User id of the unknown-user probe (never registered). */
export const CHECK_UNKNOWN_USER = 'bwc-emu-check_unknown-user';
/** Camera serial of the unknown-device probe (never registered). */
export const CHECK_UNKNOWN_SERIAL = 'CHECKUNKNOWN';
/** The trigger reasons of every probe recording: how a probe's containers are told apart from the plan's. */
export const PROBE_REASON = 'bwc-emu-check';

/** Which rule a probe breaks. */
export type Probe = NonNullable<PlannedRecording['probe']>;
/** The probes, in the order they are uploaded and listed. */
export const PROBES: readonly Probe[] = ['unknown-user', 'unknown-device', 'no-duration'];

const CHECK_MODEL = 'W110';
const CHECK_FIRMWARE = '11.11.73';
/** The registered user the probes record with. */
export const PROBE_USER: Plan['users'][number] = { id: 'bwc-emu-check_user', name: 'bwc-emu check user', active: true };
/** The registered camera the probes record with. */
export const PROBE_CAMERA: Plan['devices'][number] = {
  serial: 'BWCEMUCHECK',
  name: 'bwc-emu check camera',
  model: CHECK_MODEL,
  firmware: CHECK_FIRMWARE,
  active: true,
};

/** The probe user and camera, to register after the plan's; left out when the plan has one of the same id. */
export function probeRegistrations(plan: Plan): Pick<Plan, 'users' | 'devices'> {
  return {
    users: plan.users.some((u) => u.id === PROBE_USER.id) ? [] : [PROBE_USER],
    devices: plan.devices.some((d) => d.serial === PROBE_CAMERA.serial) ? [] : [PROBE_CAMERA],
  };
}

/** The three probes: one small clip each, RecordingID and trigger reasons `bwc-emu-check`. */
export function probeRecordings(plan: ExpandedPlan, nowMs: number, type: ClipType): PlannedRecording[] {
  const user = PROBE_USER.id;
  const serial = PROBE_CAMERA.serial;
  const base = Math.floor(nowMs / 1000) * 1000 - 60_000;
  const make = (probe: Probe, userId: string, camera: string, triggerOn: number): PlannedRecording =>
    probeRecording(probe, { userId, camera, triggerOn, type, model: CHECK_MODEL });
  return [
    make('unknown-user', CHECK_UNKNOWN_USER, serial, base),
    make('unknown-device', user, CHECK_UNKNOWN_SERIAL, base),
    make('no-duration', user, serial, freeSecond(plan, user, serial, base)),
  ];
}

/** Who recorded a probe, with what, and when. */
interface ProbeSource {
  userId: string;
  camera: string;
  triggerOn: number;
  type: ClipType;
  model: string;
}

/** One probe: a one-clip recording named after the probe; the no-duration one stops when it starts. */
function probeRecording(probe: Probe, source: ProbeSource): PlannedRecording {
  const planned = planRecording(
    {
      user: source.userId,
      device: source.camera,
      'trigger-on-reason': PROBE_REASON,
      'trigger-off-reason': PROBE_REASON,
      clips: 1,
      'clip-duration': 1000,
      'clip-size': 16 * 1024,
      bookmarks: [],
      gps: false,
      timezone: 'UTC',
    },
    0,
    source.triggerOn,
    source.type,
    source.model,
    CHECK_FIRMWARE,
  );
  const id = `bwc-emu-check-${probe}`;
  const still = probe === 'no-duration';
  const clips = planned.clips.map((c) => ({
    ...c,
    name: `${c.start}_${id}.${source.type}`,
    stop: still ? c.start : c.stop,
  }));
  const metadata = still ? withoutDuration(planned.metadata) : planned.metadata;
  return { ...planned, id, clips, metadata, probe };
}

/** The recording's metadata with every stop time set to its start time. */
function withoutDuration(metadata: Record<string, string>): Record<string, string> {
  return {
    ...metadata,
    StopTime: metadata.StartTime,
    StopTimeISO: metadata.StartTimeISO,
    TriggerOffTime: metadata.TriggerOnTime,
    TriggerOffTimeISO: metadata.TriggerOnTimeISO,
  };
}

/**
 * The latest second at or before `at` in which the plan starts no recording of this user
 * and camera: should a plan record with the probe's identities, the no-duration probe's
 * container must still not be one of the plan's.
 */
function freeSecond(plan: ExpandedPlan, user: string, serial: string, at: number): number {
  const taken = (ms: number): boolean =>
    plan.recordings.some(
      (r) => r.userId === user && r.serial === serial && Math.floor(r.triggerOn / 1000) === ms / 1000,
    );
  let free = at;
  while (taken(free)) free -= 1000;
  return free;
}
