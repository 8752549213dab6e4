/**
 * What the destination knows about recordings: one per recording container, with
 * its status (`Transferring` until the client POSTs `Status: Complete`, or `not
 * transferred` when a rule refused it), clips, bytes and duration. Rebuilt from the
 * store at start; logs each recording as it completes or is refused.
 */
import type { Logger } from '../base/log';
import { isClipObject, parseEpochSeconds, parseRecordingContainer } from '../protocol/body-worn';
import type { ContainerRecord, ObjectRecord, StoredMetadata } from './store/object-store';

/** Status of a recording at the destination. */
export type RecordingStatus = 'transferring' | 'complete' | 'not transferred';

/** One recording, as `recordings()` and the `GET /` page show it. */
export interface RecordingInfo {
  account: string;
  container: string;
  userId: string;
  serial: string;
  /** Trigger-on time from the container name, RFC 3339 UTC. */
  triggerOnTime: string;
  status: RecordingStatus;
  clips: number;
  bytes: number;
  /** Sum of the clips' StopTime - StartTime, in seconds. */
  durationSeconds: number;
  /** Why it was refused (status `not transferred`). */
  reason?: string;
  /** Epoch ms of the last change. */
  updated: number;
}

/** The recordings of every account. */
export class RecordingLog {
  private readonly byKey = new Map<string, RecordingInfo>();
  private readonly clipRefused = new Set<string>();
  private readonly clipDurations = new Map<string, Map<string, { bytes: number; seconds: number }>>();

  constructor(
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Takes in what an earlier run stored. */
  load(account: string, containers: readonly ContainerRecord[]): void {
    for (const container of containers) {
      if (!this.containerWritten(account, container.name, container.metadata, 'loaded at start')) continue;
      for (const object of container.objects.values()) this.objectStored(account, container.name, object);
    }
  }

  /** A recording container was created or its metadata changed; true when it is a recording. */
  containerWritten(
    account: string,
    container: string,
    metadata: StoredMetadata,
    when: 'written' | 'loaded at start' = 'written',
  ): boolean {
    const name = parseRecordingContainer(container);
    if (name === undefined || 'badTime' in name) return false;
    const key = `${account}/${container}`;
    const current = this.byKey.get(key);
    const status: RecordingStatus = (metadata.status ?? '').toLowerCase() === 'complete' ? 'complete' : 'transferring';
    // A refused clip makes the whole recording "not transferred" for good; a refused
    // container PUT does not stick once the container is accepted (say, after registration).
    const keepRefusal = current?.status === 'not transferred' && this.clipRefused.has(key);
    const info: RecordingInfo = current
      ? {
          ...current,
          status: keepRefusal ? 'not transferred' : status,
          ...(keepRefusal ? {} : { reason: undefined }),
          updated: this.now(),
        }
      : {
          account,
          container,
          userId: name.userId,
          serial: name.serial,
          triggerOnTime: new Date(name.triggerOnTime).toISOString(),
          status,
          clips: 0,
          bytes: 0,
          durationSeconds: 0,
          updated: this.now(),
        };
    if (info.reason === undefined) delete info.reason;
    this.byKey.set(key, info);
    if (status === 'complete' && current?.status !== 'complete' && when === 'written') {
      this.log.info(
        {
          account,
          recording: container,
          user: info.userId,
          device: info.serial,
          clips: info.clips,
          bytes: info.bytes,
          durationSeconds: info.durationSeconds,
        },
        'recording complete',
      );
    }
    return true;
  }

  /** An object was stored in a container; clips count towards their recording. */
  objectStored(account: string, container: string, object: ObjectRecord): void {
    const key = `${account}/${container}`;
    const info = this.byKey.get(key);
    if (!info || !isClipObject(object.name)) return;
    const clips = this.clipDurations.get(key) ?? new Map<string, { bytes: number; seconds: number }>();
    const start = parseEpochSeconds(object.metadata.starttime);
    const stop = parseEpochSeconds(object.metadata.stoptime);
    clips.set(object.name, {
      bytes: object.bytes,
      seconds: start !== undefined && stop !== undefined ? Math.max(0, stop - start) : 0,
    });
    this.clipDurations.set(key, clips);
    const totals = [...clips.values()].reduce(
      (sum, clip) => ({ bytes: sum.bytes + clip.bytes, seconds: sum.seconds + clip.seconds }),
      { bytes: 0, seconds: 0 },
    );
    this.byKey.set(key, {
      ...info,
      clips: clips.size,
      bytes: totals.bytes,
      durationSeconds: Math.round(totals.seconds * 1000) / 1000,
      updated: this.now(),
    });
  }

  /** A rule refused a recording's container or one of its clips with 400: it is `not transferred`. */
  refused(account: string, container: string, reason: string, part: 'container' | 'clip' = 'container'): void {
    const name = parseRecordingContainer(container);
    const key = `${account}/${container}`;
    const current = this.byKey.get(key);
    const base: RecordingInfo = current ?? {
      account,
      container,
      userId: name && !('badTime' in name) ? name.userId : '',
      serial: name && !('badTime' in name) ? name.serial : '',
      triggerOnTime: name && !('badTime' in name) ? new Date(name.triggerOnTime).toISOString() : '',
      status: 'not transferred',
      clips: 0,
      bytes: 0,
      durationSeconds: 0,
      updated: this.now(),
    };
    this.byKey.set(key, { ...base, status: 'not transferred', reason, updated: this.now() });
    if (part === 'clip') this.clipRefused.add(key);
    this.log.warn({ account, recording: container, reason }, 'recording refused: not transferred');
  }

  /** Recordings of one account (or all), oldest trigger time first. */
  list(account?: string): RecordingInfo[] {
    return [...this.byKey.values()]
      .filter((r) => account === undefined || r.account === account)
      .sort((a, b) => a.triggerOnTime.localeCompare(b.triggerOnTime) || a.container.localeCompare(b.container));
  }
}
