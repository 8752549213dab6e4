/**
 * The live feeds of one device, fed together (./event-feed says what a feed carries). The
 * hub holds what they share, and exists only while one is open: one journal watch of the
 * device, one batch timer, one snapshot tick. Each batch is read from the journal and
 * serialised once, and the same text is written to every feed that took the batches before
 * it; each snapshot is read and serialised once a tick, and a feed writes it when its version
 * is new to it. So a thousand feeds cost a thousand writes per batch, not a thousand reads
 * and serialisations.
 *
 * Between two batches the hub holds no entry, only a count: the journal tells it that its
 * device wrote one, and each batch is read from the journal's ring when it is sent (the newest
 * `maxBatch` after the last seq sent), so a storm costs a counter, not copies.
 *
 * Timers come from the emulator's scheduler. A step that throws (a snapshot that fails) is
 * logged and ends the hub's feeds; the emulator and the other devices' feeds go on.
 */
import type { ServerResponse } from 'node:http';
import { errorOf, type Logger } from '../base/log';
import type { Scheduler } from '../scenario/scheduler';
import type { ControlledEmulator } from './controlled-emulator';
import { EventFeed, FEED_TIMING, type FeedOptions, type FeedSource } from './event-feed';
import type { FeedEvents } from './feed-events';
import { type SharedSnapshot, type Snapshot, SNAPSHOTS, type SnapshotName } from './feed-snapshots';
import { eventFrame } from './server-sent-events';

/** What a hub needs: the emulator, its device, time and the log. */
export interface HubContext {
  emulator: ControlledEmulator;
  device: string;
  scheduler: Scheduler;
  log: Logger;
}

/** The feeds of one device and what they share; see the module comment. */
export class FeedHub implements FeedSource {
  private readonly feeds = new Set<EventFeed>();
  /** The seq the next shared batch reads after. */
  private cursor: number;
  /** Entries of the device written since the hub began (the journal's count, not copies). */
  private entries = 0;
  /** {@link entries} when the last shared batch was read: those since are not sent yet. */
  private batchedAt = 0;
  /** Each snapshot as last read; a version moves only when it changed. */
  private readonly snapshots = new Map<SnapshotName, SharedSnapshot>();
  private readonly openedAt: number;
  private ticks = 0;
  /** Stopped once its last feed left: a new feed of the device gets a new hub. */
  private stopped = false;
  private cancelFlush: (() => void) | undefined = undefined;
  private cancelTick: () => void = () => undefined;
  private readonly unwatch: () => void;

  /** Starts watching the device's journal and ticking; `onEmpty` is told when its last feed leaves. */
  constructor(
    private readonly context: HubContext,
    private readonly onEmpty: (hub: FeedHub) => void,
  ) {
    const { emulator, device, scheduler } = context;
    // Where the journal is, then watched, in one go (the journal writes synchronously): no
    // entry falls between.
    this.cursor = emulator.journalSeq;
    this.unwatch = emulator.watchJournal(() => this.onEntry(), { device });
    this.openedAt = scheduler.now();
    this.armTick();
  }

  get emulator(): ControlledEmulator {
    return this.context.emulator;
  }

  get device(): string {
    return this.context.device;
  }

  get log(): Logger {
    return this.context.log;
  }

  /** See {@link FeedSource.counted}. */
  get counted(): number {
    return this.entries;
  }

  now(): number {
    return this.context.scheduler.now();
  }

  /** How many feeds are open on the hub. */
  get size(): number {
    return this.feeds.size;
  }

  /**
   * Opens a feed on `res` (not yet written to): the headers, the snapshots, a replay when
   * `since` asks for one. What throws here throws before the answer has begun (a refusal),
   * and leaves no feed behind.
   */
  join(res: ServerResponse, options: FeedOptions): EventFeed {
    const snapshots = this.readSnapshots();
    const feed = new EventFeed(res, this, options);
    this.feeds.add(feed);
    // With no entry of the device since the hub's cursor, the feed is where the other feeds are.
    if (options.since === undefined && this.entries === this.batchedAt) feed.follow(this.cursor);
    // A client that went before the listener was set would leave the feed open for good.
    if (feed.gone) {
      feed.end('client');
      return feed;
    }
    this.guard(() => {
      feed.sendSnapshots(snapshots);
      feed.catchUp();
    });
    return feed;
  }

  /** A feed ended: it is fed no more; the last one takes the watch and the timers with it. */
  leave(feed: EventFeed): void {
    if (this.feeds.delete(feed)) this.stopIfEmpty();
  }

  /** With no feed left (or none joined: a join that threw), stops the watch and the timers for good. */
  stopIfEmpty(): void {
    if (this.feeds.size > 0 || this.stopped) return;
    this.stopped = true;
    this.unwatch();
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    this.cancelTick();
    this.onEmpty(this);
  }

  /**
   * A new entry of the device: counted, and a batch goes out within `batchMs`. Called by the
   * journal as the entry is written (by a device's socket code): it must never throw.
   */
  private onEntry(): void {
    this.entries++;
    if (this.cancelFlush !== undefined) return;
    const { scheduler } = this.context;
    this.cancelFlush = scheduler.setTimer(scheduler.now() + FEED_TIMING.batchMs, () =>
      this.guard(() => {
        this.cancelFlush = undefined;
        this.flush();
      }),
    );
  }

  /**
   * Reads what is new (the newest `maxBatch` after the cursor) once, and hands it to every
   * feed: serialised once, for those that are where the hub was.
   */
  private flush(): void {
    const { emulator, device } = this.context;
    const from = this.cursor;
    const found = emulator.newestEntries(FEED_TIMING.maxBatch, { device, after: from });
    // More were written than the journal still holds when it pushed some out (or was cleared).
    const skipped = Math.max(found.skipped, this.entries - this.batchedAt - found.entries.length);
    this.batchedAt = this.entries;
    const to = found.entries.at(-1)?.seq ?? from;
    this.cursor = to;
    let frame: string | undefined;
    const batch: FeedEvents['journal'] = { entries: found.entries, skipped };
    const shared = (): string => (frame ??= eventFrame('journal', JSON.stringify(batch), to));
    for (const feed of this.feeds) feed.takeBatch(from, to, shared);
  }

  /** Every `snapshotMs`: each feed's snapshots and keepalive, read once for all; lagging feeds are checked. */
  private tick(): void {
    this.armTick();
    const now = this.now();
    let snapshots: ReadonlyMap<SnapshotName, SharedSnapshot> | undefined;
    const read = (): ReadonlyMap<SnapshotName, SharedSnapshot> => (snapshots ??= this.readSnapshots());
    for (const feed of this.feeds) feed.tick(now, read);
  }

  /** Reads every snapshot; a changed one gets a new version and its frame. */
  private readSnapshots(): ReadonlyMap<SnapshotName, SharedSnapshot> {
    const { emulator, device } = this.context;
    for (const [name, read] of Object.entries(SNAPSHOTS) as [SnapshotName, (typeof SNAPSHOTS)[SnapshotName]][]) {
      const snapshot: Snapshot = read(emulator, device);
      // Without a change of its own, the data's JSON is the change; with one, it is made only to be sent.
      const change = snapshot.change ?? JSON.stringify(snapshot.data);
      const last = this.snapshots.get(name);
      if (last?.change === change) continue;
      const json = snapshot.change === undefined ? change : JSON.stringify(snapshot.data);
      this.snapshots.set(name, { version: (last?.version ?? 0) + 1, change, frame: eventFrame(name, json) });
    }
    return this.snapshots;
  }

  /**
   * Sets the next tick at a whole number of periods from the start (so ticks do not drift),
   * the first one still ahead (a stalled process does not run the missed ones in a row).
   */
  private armTick(): void {
    const period = FEED_TIMING.snapshotMs;
    const elapsed = Math.floor((this.now() - this.openedAt) / period);
    this.ticks = Math.max(this.ticks, elapsed) + 1;
    const at = this.openedAt + this.ticks * period;
    this.cancelTick = this.context.scheduler.setTimer(at, () => this.guard(() => this.tick()));
  }

  /** Runs a step outside a request: what it throws is logged and ends the hub's feeds only. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      this.context.log.error(
        { device: this.context.device, err: errorOf(err) },
        'control API: feed failed; closing it',
      );
      for (const feed of this.feeds) feed.end('error');
    }
  }
}
