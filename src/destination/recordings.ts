/**
 * What the destination knows about recordings: one per recording container, with
 * its status (`Transferring` until the client POSTs `Status: Complete`, or `not
 * transferred` when a rule refused it), clips, bytes, duration and last activity.
 * Rebuilt at start from the store (containers, objects and their times) and from the
 * refusals kept in the data directory; logs each recording as it completes or is refused.
 */
import type { Logger } from '../base/log';
import { isClipObject, parseEpochSeconds, parseRecordingContainer } from '../protocol/body-worn';
import { MAX_REFUSALS_KEPT, type Refusal, type RefusalFile } from './refusal-file';
import type { ContainerRecord, ObjectRecord, StoredMetadata } from './store/object-store';

/** Status of a recording at the destination. */
export type RecordingStatus = 'transferring' | 'complete' | 'not transferred';

/** One recording, as `recordings()` and the recordings page show it. */
export interface RecordingInfo {
  account: string;
  container: string;
  userId: string;
  serial: string;
  /** Trigger-on time from the container name, RFC 3339 UTC (empty when the name has no valid time). */
  triggerOnTime: string;
  status: RecordingStatus;
  clips: number;
  bytes: number;
  /** Sum of the clips' StopTime - StartTime, in seconds. */
  durationSeconds: number;
  /** Why it was refused (status `not transferred`). */
  reason?: string;
  /** Epoch ms of the last activity: a container write, an object stored, a refusal (after a restart: the store's times). */
  updated: number;
}

interface ClipTotals {
  bytes: number;
  seconds: number;
}

/** The recordings of every account. */
export class RecordingLog {
  private readonly byKey = new Map<string, RecordingInfo>();
  /** Refusals in force, oldest first (a refusal is moved to the end when it is renewed). */
  private readonly refusals = new Map<string, Refusal>();
  private readonly clipTotals = new Map<string, Map<string, ClipTotals>>();
  private refusalFile: RefusalFile | undefined;

  constructor(
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Takes in what an earlier run stored; the last activity of each recording is the store's latest time. */
  load(account: string, containers: readonly ContainerRecord[]): void {
    for (const container of containers) {
      const at = lastActivity(container);
      if (!this.writeContainer(account, container.name, container.metadata, at, false)) continue;
      for (const object of container.objects.values()) this.storeObject(account, container.name, object, at);
    }
  }

  /**
   * Keeps refusals in `file` from now on, and takes in those an earlier run kept there
   * (shown for `accounts`; others stay in the file). Only the first call counts.
   */
  keepRefusalsIn(file: RefusalFile, accounts: readonly string[]): void {
    if (this.refusalFile) return;
    this.refusalFile = file;
    const shown = new Set(accounts);
    for (const refusal of file.read(this.log).sort((a, b) => a.at - b.at)) {
      this.refusals.set(keyOf(refusal.account, refusal.container), refusal);
      if (shown.has(refusal.account)) this.markRefused(refusal);
    }
  }

  /** A recording container was created or its metadata changed; true when it is a recording. */
  containerWritten(account: string, container: string, metadata: StoredMetadata): boolean {
    return this.writeContainer(account, container, metadata, this.now(), true);
  }

  /** An object was stored in a container: activity of its recording; clips count towards it. */
  objectStored(account: string, container: string, object: ObjectRecord): void {
    this.storeObject(account, container, object, this.now());
  }

  /**
   * A rule refused a recording's container or one of its clips with 400: it is `not transferred`.
   * A refused clip sticks for good; a refused container write ends when a later one is accepted.
   */
  refused(account: string, container: string, reason: string, part: 'container' | 'clip' = 'container'): void {
    const key = keyOf(account, container);
    const sticky = this.refusals.get(key)?.part === 'clip';
    const refusal: Refusal = { account, container, reason, part: sticky ? 'clip' : part, at: this.now() };
    this.refusals.delete(key);
    this.refusals.set(key, refusal);
    for (const oldest of this.refusals.keys()) {
      if (this.refusals.size <= MAX_REFUSALS_KEPT) break;
      this.refusals.delete(oldest);
    }
    this.markRefused(refusal);
    this.log.warn({ account, recording: container, reason }, 'recording refused: not transferred');
    this.saveRefusals();
  }

  /** An object was deleted: a clip no longer counts towards its recording. */
  objectDeleted(account: string, container: string, object: string): void {
    const key = keyOf(account, container);
    const info = this.byKey.get(key);
    const clips = this.clipTotals.get(key);
    if (!info || !clips?.delete(object)) return;
    this.byKey.set(key, { ...info, ...totalsOf(clips), updated: this.now() });
  }

  /** A container was deleted: its recording is gone, unless it was refused (then it stays, as refused). */
  containerDeleted(account: string, container: string): void {
    const key = keyOf(account, container);
    this.byKey.delete(key);
    this.clipTotals.delete(key);
    const refusal = this.refusals.get(key);
    if (refusal) this.markRefused(refusal);
  }

  /** One recording, if known. */
  get(account: string, container: string): RecordingInfo | undefined {
    return this.byKey.get(keyOf(account, container));
  }

  /** Recordings of one account (or all), oldest trigger time first. */
  list(account?: string): RecordingInfo[] {
    return [...this.byKey.values()]
      .filter((r) => account === undefined || r.account === account)
      .sort((a, b) => a.triggerOnTime.localeCompare(b.triggerOnTime) || a.container.localeCompare(b.container));
  }

  private writeContainer(
    account: string,
    container: string,
    metadata: StoredMetadata,
    at: number,
    live: boolean,
  ): boolean {
    const name = parseRecordingContainer(container);
    if (name === undefined || 'badTime' in name) return false;
    const key = keyOf(account, container);
    if (live && this.refusals.get(key)?.part === 'container') {
      // Accepted now (say, once the user is registered): the refused write does not stick.
      this.refusals.delete(key);
      this.saveRefusals();
    }
    const refusal = this.refusals.get(key);
    const current = this.byKey.get(key);
    const stated: RecordingStatus = (metadata.status ?? '').toLowerCase() === 'complete' ? 'complete' : 'transferring';
    const info: RecordingInfo = {
      ...(current ?? blank(account, container, at)),
      status: refusal ? 'not transferred' : stated,
      updated: at,
    };
    if (refusal) info.reason = refusal.reason;
    else delete info.reason;
    this.byKey.set(key, info);
    if (info.status === 'complete' && current?.status !== 'complete' && live) {
      const { userId: user, serial: device, clips, bytes, durationSeconds } = info;
      this.log.info(
        { account, recording: container, user, device, clips, bytes, durationSeconds },
        'recording complete',
      );
    }
    return true;
  }

  private storeObject(account: string, container: string, object: ObjectRecord, at: number): void {
    const key = keyOf(account, container);
    const info = this.byKey.get(key);
    if (!info) return;
    if (!isClipObject(object.name)) {
      this.byKey.set(key, { ...info, updated: at });
      return;
    }
    const clips = this.clipTotals.get(key) ?? new Map<string, ClipTotals>();
    clips.set(object.name, { bytes: object.bytes, seconds: clipSeconds(object.metadata) ?? 0 });
    this.clipTotals.set(key, clips);
    this.byKey.set(key, { ...info, ...totalsOf(clips), updated: at });
  }

  private markRefused(refusal: Refusal): void {
    const { account, container, reason, at } = refusal;
    const key = keyOf(account, container);
    const current = this.byKey.get(key) ?? blank(account, container, at);
    this.byKey.set(key, { ...current, status: 'not transferred', reason, updated: Math.max(current.updated, at) });
  }

  /** Writes the refusals through (before the 400 is answered); a failure is logged, not thrown. */
  private saveRefusals(): void {
    if (!this.refusalFile) return;
    try {
      this.refusalFile.write([...this.refusals.values()]);
    } catch (err) {
      this.log.error(
        { file: this.refusalFile.path, err: (err as Error).message },
        'cannot keep the refused recordings: a restart forgets the newest',
      );
    }
  }
}

/** A clip's duration from its `starttime` and `stoptime`; undefined when either is missing or they run backwards. */
export function clipSeconds(metadata: StoredMetadata): number | undefined {
  const start = parseEpochSeconds(metadata.starttime);
  const stop = parseEpochSeconds(metadata.stoptime);
  return start !== undefined && stop !== undefined && stop >= start ? stop - start : undefined;
}

/** A recording's clip count, bytes and seconds from its clips. */
function totalsOf(clips: ReadonlyMap<string, ClipTotals>): Pick<RecordingInfo, 'clips' | 'bytes' | 'durationSeconds'> {
  let bytes = 0;
  let seconds = 0;
  for (const clip of clips.values()) {
    bytes += clip.bytes;
    seconds += clip.seconds;
  }
  return { clips: clips.size, bytes, durationSeconds: Math.round(seconds * 1000) / 1000 };
}

function keyOf(account: string, container: string): string {
  return `${account}/${container}`;
}

/** A recording with nothing received yet, as its container name tells. */
function blank(account: string, container: string, at: number): RecordingInfo {
  const name = parseRecordingContainer(container);
  const valid = name !== undefined && !('badTime' in name) ? name : undefined;
  return {
    account,
    container,
    userId: valid?.userId ?? '',
    serial: valid?.serial ?? '',
    triggerOnTime: valid ? new Date(valid.triggerOnTime).toISOString() : '',
    status: 'transferring',
    clips: 0,
    bytes: 0,
    durationSeconds: 0,
    updated: at,
  };
}

/** The store's latest time for a container: its creation or its newest object. */
function lastActivity(container: ContainerRecord): number {
  let latest = container.created;
  for (const object of container.objects.values()) latest = Math.max(latest, object.lastModified);
  return latest;
}
