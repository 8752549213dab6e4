/**
 * One open live feed (`GET /_emu/feed`): what happens on one device, pushed to a dashboard
 * as Server-Sent Events.
 *
 * - `journal`: the device's new journal entries in batches, one every `batchMs` at most
 *   while entries come, each with the newest `maxBatch` and a count of those `skipped`;
 *   the SSE id is the last entry's seq. With `since`, first what the journal still holds
 *   after it (capped the same way); a `since` above every seq ever issued (the emulator
 *   started again, its seqs from 1) replays from the start, the batch marked `reset`.
 * - `sessions`, `faults`, `scenario`: snapshots shaped as their GET routes answer, sent at
 *   the start and then, checked every `snapshotMs`, only when they changed (a playing
 *   scenario's moving position is no change; a pause, a resume, a restart are).
 * - a `: keepalive` comment after `keepaliveMs` without a write.
 *
 * The feeds of one device are fed together by their hub (./feed-hub): one journal watch, one
 * batch timer, one snapshot tick, and each batch and snapshot read and serialised once, the
 * same text written to every feed that has taken the ones before. A feed writes its own batch
 * only when it is not where the others are: its replay, or catching up after it lagged.
 *
 * A reader too slow to take what was written is sent nothing more until it has; then it gets
 * one batch of the newest `maxBatch`, the others counted as skipped. A reader that has not
 * taken what waits (more than its socket's high-water mark) for `stallMs` is closed: an
 * EventSource reconnects by itself with its Last-Event-ID and misses nothing the journal holds.
 */
import type { ServerResponse } from 'node:http';
import { errorOf, type Logger } from '../base/log';
import type { ControlledEmulator } from './controlled-emulator';
import type { FeedEvents } from './feed-events';
import type { SharedSnapshot, SnapshotName } from './feed-snapshots';
import { commentFrame, eventFrame, writeEventStreamHead } from './server-sent-events';

/** How every feed paces itself: a dashboard sees changes within a second and is never flooded. */
export const FEED_TIMING = {
  /** Longest wait from an entry to the batch that carries it. */
  batchMs: 200,
  /** Most entries one `journal` event carries (the newest; the rest are counted as skipped). */
  maxBatch: 300,
  /** How often the snapshots are compared with what was last sent. */
  snapshotMs: 1000,
  /** Silence after which a keepalive comment is written. */
  keepaliveMs: 15_000,
  /**
   * A feed whose reader has not taken what waits for it (over the socket's high-water mark)
   * for this long is closed (checked every `snapshotMs`).
   */
  stallMs: 10_000,
} as const;

/** The keepalive comment: one string for every feed. */
const KEEPALIVE = commentFrame('keepalive');

/** What a feed needs besides its hub: where it replays from, and who asked (for the log). */
export interface FeedOptions {
  /** Replay the device's entries after this seq first; undefined: live entries only. */
  since: number | undefined;
  /** The client's address, for the log lines of its feed. */
  remote: string | undefined;
}

/** What of the hub a feed reads: the emulator, the device, time, the log, and the hub's own counts. */
export interface FeedSource {
  readonly emulator: ControlledEmulator;
  readonly device: string;
  readonly log: Logger;
  now(): number;
  /** Entries of the device the hub has counted since it began: a feed's unsent ones are this less what it had seen. */
  readonly counted: number;
}

/** Why a feed ended. */
export type EndReason = 'client' | 'error' | 'stalled';

/**
 * An open feed; see the module comment. Made on a response not yet written to, it sends the
 * headers at once; its hub feeds it and it ends by itself. State: OPEN until {@link end}, then CLOSED.
 */
export class EventFeed {
  private state: 'OPEN' | 'CLOSED' = 'OPEN';
  /** The seq the next batch reads after: the last one sent, or where the feed began. */
  cursor: number;
  /** The hub's {@link FeedSource.counted} when the cursor was set. */
  private seenAt: number;
  /** A replay is due (`since` given) and not yet sent. */
  private replay: boolean;
  /** The replay starts over from the first seq (the next batch says so). */
  private reset: boolean;
  /** A batch went by while the reader lagged: it gets its own once it has read. */
  private behind = false;
  /** The version of each snapshot last sent. */
  private readonly versions = new Map<SnapshotName, number>();
  private readonly openedAt: number;
  private lastWriteAt: number;
  /** Since when what waits for the reader has been over the high-water mark; undefined while it reads. */
  private stalledSince: number | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly hub: FeedSource & { leave(feed: EventFeed): void },
    private readonly options: FeedOptions,
  ) {
    const { emulator } = hub;
    const { since } = options;
    this.openedAt = this.lastWriteAt = hub.now();
    this.seenAt = hub.counted;
    // Where the journal is now (the journal writes synchronously: no entry falls between this
    // and the hub's count).
    const newest = emulator.journalSeq;
    this.replay = since !== undefined;
    this.reset = since !== undefined && since > newest;
    this.cursor = since === undefined ? newest : this.reset ? 0 : since;
    writeEventStreamHead(res);
    res.on('close', () => this.end('client'));
    res.on('drain', () => this.drained());
    hub.log.debug({ device: hub.device, since, reset: this.reset, remote: options.remote }, 'control API: feed opened');
  }

  /** False once ended. */
  get open(): boolean {
    return this.state === 'OPEN';
  }

  /** The client went before the feed could listen for it (it would stay open for good). */
  get gone(): boolean {
    return this.res.socket?.destroyed !== false;
  }

  /** The reader has not taken what was written: nothing more is written until it has. */
  get lagging(): boolean {
    return this.res.writableNeedDrain;
  }

  /** Takes the hub's cursor when the hub has read the same as this feed (no entry of the device lies between). */
  follow(cursor: number): void {
    this.cursor = cursor;
    this.seenAt = this.hub.counted;
  }

  /**
   * The hub's batch after `from` (`frame`, made once for every feed) if this feed is there and
   * reads; its own batch if it is elsewhere (a replay due, or ahead after catching up); none
   * while it lags (it catches up when it has read).
   */
  takeBatch(from: number, to: number, frame: () => string): void {
    if (this.state === 'CLOSED') return;
    if (this.lagging) {
      this.behind = true;
      return;
    }
    if (this.cursor === from && !this.replay) {
      if (to !== from) this.write(frame());
    } else this.catchUp();
    // Either way it has all the device wrote up to now, as the hub does.
    this.follow(to);
  }

  /** Sends its own batch: the newest `maxBatch` after its cursor, unless there is none or a replay is not due. */
  catchUp(): void {
    if (this.state === 'CLOSED' || this.lagging) return;
    const unsent = this.hub.counted - this.seenAt;
    if (unsent === 0 && !this.replay) return;
    const { emulator, device } = this.hub;
    const found = emulator.newestEntries(FEED_TIMING.maxBatch, { device, after: this.cursor });
    // More were written than the journal still holds when it pushed some out (or was cleared).
    const skipped = Math.max(found.skipped, unsent - found.entries.length);
    const last = found.entries.at(-1)?.seq;
    this.seenAt = this.hub.counted;
    this.replay = false;
    if (last === undefined && !this.reset) return;
    const batch: FeedEvents['journal'] = { entries: found.entries, skipped };
    if (this.reset) batch.reset = true;
    this.reset = false;
    // No entry (a reset of an empty journal): the id still moves the client's Last-Event-ID on.
    this.cursor = last ?? emulator.journalSeq;
    this.write(eventFrame('journal', JSON.stringify(batch), this.cursor));
  }

  /** Sends each snapshot whose version it has not sent (every one, the first time). */
  sendSnapshots(snapshots: ReadonlyMap<SnapshotName, SharedSnapshot>): void {
    for (const [name, snapshot] of snapshots) {
      if (this.versions.get(name) === snapshot.version) continue;
      this.versions.set(name, snapshot.version);
      this.write(snapshot.frame);
    }
  }

  /**
   * The hub's tick: the snapshots that changed and a keepalive after a long silence, or, while
   * the reader lags, nothing; a reader lagging for `stallMs` is closed. `snapshots` reads them
   * (once a tick for all feeds, and only if one takes them).
   */
  tick(now: number, snapshots: () => ReadonlyMap<SnapshotName, SharedSnapshot>): void {
    if (this.state === 'CLOSED') return;
    if (this.lagging) {
      this.stalledSince ??= now;
      if (now - this.stalledSince >= FEED_TIMING.stallMs) this.stalled(now);
      return;
    }
    this.stalledSince = undefined;
    this.sendSnapshots(snapshots());
    if (now - this.lastWriteAt >= FEED_TIMING.keepaliveMs) this.write(KEEPALIVE);
  }

  /** Leaves the hub and ends the answer (if the client has not gone already). */
  end(reason: EndReason): void {
    if (this.state === 'CLOSED') return;
    this.state = 'CLOSED';
    this.hub.leave(this);
    if (!this.res.writableEnded) this.res.end();
    const ms = this.hub.now() - this.openedAt;
    this.hub.log.debug({ device: this.hub.device, reason, ms }, 'control API: feed closed');
  }

  /** The reader took what waited: what it missed, as one batch (the snapshots follow at the next tick). */
  private drained(): void {
    this.stalledSince = undefined;
    if (!this.behind) return;
    this.behind = false;
    try {
      this.catchUp();
    } catch (err) {
      this.hub.log.error({ device: this.hub.device, err: errorOf(err) }, 'control API: feed failed; closing it');
      this.end('error');
    }
  }

  /** Closes a feed whose reader has taken nothing for `stallMs`: it holds a connection and its buffers for nothing. */
  private stalled(now: number): void {
    const { log, device } = this.hub;
    const waiting = this.res.writableLength;
    log.warn(
      { device, remote: this.options.remote, stalledMs: now - (this.stalledSince ?? now), waiting },
      'control API: feed reader took nothing; closing it',
    );
    this.end('stalled');
    // Its socket goes too: what waits in it would otherwise wait for a reader that does not come.
    this.res.destroy();
  }

  private write(frame: string): void {
    if (this.state === 'CLOSED') return;
    const now = this.hub.now();
    if (!this.res.write(frame)) this.stalledSince ??= now;
    this.lastWriteAt = now;
  }
}
