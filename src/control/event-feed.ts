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
 * Between two batches the feed holds no entry, only a count: the journal tells it that its
 * device wrote one, and each batch is read from the journal's ring when it is sent (the
 * newest `maxBatch` after the last seq sent), so a storm costs it a counter, not copies.
 *
 * Timers come from the emulator's scheduler and exist only while the feed is open; the
 * journal watch and every timer go when the client goes or its connection breaks (the
 * emulator's close destroys every connection), or when a step of the feed fails. A reader
 * too slow to take what was written is sent nothing more until it has; then it gets one
 * batch of the newest `maxBatch`, the others counted as skipped.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from '../base/log';
import type { Scheduler } from '../scenario/scheduler';
import type { ControlledEmulator } from './controlled-emulator';
import { sessionsAnswer } from './device-routes';
import { activeFaults } from './fault-routes';
import { scenarioAnswer } from './scenario-routes';
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
} as const;

/** What a feed needs: the emulator, the device it is of, time, and where it replays from. */
export interface FeedOptions {
  emulator: ControlledEmulator;
  device: string;
  scheduler: Scheduler;
  log: Logger;
  /** Replay the device's entries after this seq first; undefined: live entries only. */
  since: number | undefined;
}

/** A `journal` event's data. */
interface Batch {
  entries: unknown[];
  skipped: number;
  /** Set on the first batch when the seq resumed from is above every seq issued: it replays from the start. */
  reset?: true;
}

/** A snapshot as read: its data, and the JSON text of what of it counts as a change (default: all of it). */
interface Snapshot {
  data: unknown;
  change?: string;
}

/** The snapshot events, in the order they are sent. */
const SNAPSHOTS = {
  sessions: (emulator, device) => ({ data: sessionsAnswer(emulator, device) }),
  faults: (emulator, device) => ({ data: activeFaults(emulator, device) }),
  scenario: (emulator, device) => {
    // The position of a playing scenario moves all the time, which is no news (the page
    // counts it on); each change of course bumps the revision.
    const status = scenarioAnswer(emulator, device);
    const { name, state, speed, revision } = status;
    return { data: status, change: JSON.stringify({ name, state, speed, revision }) };
  },
} satisfies Record<string, (emulator: ControlledEmulator, device: string) => Snapshot>;

type SnapshotName = keyof typeof SNAPSHOTS;

/** Why a feed ended. */
type EndReason = 'client' | 'error';

/**
 * An open feed; see the module comment. Made on a response not yet written to, it sends
 * the headers at once and ends by itself. State: OPEN until {@link end}, then CLOSED.
 */
export class EventFeed {
  private state: 'OPEN' | 'CLOSED' = 'OPEN';
  /** The seq the next batch reads after: the last one sent, or where the feed began. */
  private cursor: number;
  /** Entries of the device written since the last batch (the journal's count, not copies). */
  private unsent = 0;
  /** A replay is due (`since` given) and not yet sent. */
  private replay: boolean;
  /** The replay starts over from the first seq (the next batch says so). */
  private reset: boolean;
  /** The change (as JSON) of each snapshot last sent. */
  private readonly lastSent = new Map<SnapshotName, string>();
  private readonly openedAt: number;
  private lastWriteAt: number;
  private ticks = 0;
  private cancelFlush: (() => void) | undefined = undefined;
  private cancelTick: () => void = () => undefined;
  private readonly unwatch: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: FeedOptions,
  ) {
    this.openedAt = this.lastWriteAt = options.scheduler.now();
    const { emulator, device, since } = options;
    // Where the journal is, then watched, in one go (the journal writes synchronously): no
    // entry falls between. What throws here throws before the answer has begun, and is
    // answered as a refusal.
    const newest = emulator.journalSeq;
    this.replay = since !== undefined;
    this.reset = since !== undefined && since > newest;
    this.cursor = since === undefined ? newest : this.reset ? 0 : since;
    this.unwatch = emulator.watchJournal(() => this.onEntry(), { device });
    writeEventStreamHead(res);
    res.on('close', () => this.end('client'));
    res.on('drain', () => this.guard(() => this.flush()));
    options.log.debug({ device, since, reset: this.reset }, 'control API: feed opened');
    // A client that went before the listener was set would leave the feed open for good.
    if (res.socket?.destroyed !== false) {
      this.end('client');
      return;
    }
    this.guard(() => {
      this.sendSnapshots();
      this.flush();
      this.armTick();
    });
  }

  /** Stops the watch and the timers and ends the answer (if the client has not gone already). */
  end(reason: EndReason): void {
    if (this.state === 'CLOSED') return;
    this.state = 'CLOSED';
    this.unwatch();
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    this.cancelTick();
    if (!this.res.writableEnded) this.res.end();
    const ms = this.options.scheduler.now() - this.openedAt;
    this.options.log.debug({ device: this.options.device, reason, ms }, 'control API: feed closed');
  }

  /**
   * A new entry of the device: counted, and a batch goes out within `batchMs`. Called by the
   * journal as the entry is written (by a device's socket code): it must never throw.
   */
  private onEntry(): void {
    this.unsent++;
    if (this.cancelFlush !== undefined) return;
    const { scheduler } = this.options;
    this.cancelFlush = scheduler.setTimer(scheduler.now() + FEED_TIMING.batchMs, () =>
      this.guard(() => {
        this.cancelFlush = undefined;
        this.flush();
      }),
    );
  }

  /**
   * Sends what is new as one `journal` event (the newest `maxBatch` entries after the cursor,
   * read from the journal now), unless nothing is, or the client has not read the last one.
   */
  private flush(): void {
    if (this.state === 'CLOSED' || this.res.writableNeedDrain) return;
    if (this.unsent === 0 && !this.replay) return;
    const { emulator, device } = this.options;
    const found = emulator.newestEntries(FEED_TIMING.maxBatch, { device, after: this.cursor });
    // More were written than the journal still holds when it pushed some out (or was cleared).
    const skipped = Math.max(found.skipped, this.unsent - found.entries.length);
    const last = found.entries.at(-1)?.seq;
    this.unsent = 0;
    this.replay = false;
    if (last === undefined && !this.reset) return;
    const batch: Batch = { entries: found.entries, skipped };
    if (this.reset) batch.reset = true;
    this.reset = false;
    // No entry (a reset of an empty journal): the id still moves the client's Last-Event-ID on.
    this.cursor = last ?? emulator.journalSeq;
    this.write(eventFrame('journal', JSON.stringify(batch), this.cursor));
  }

  /** Every `snapshotMs`: the snapshots that changed, and a keepalive after a long silence (unless the reader lags). */
  private tick(): void {
    this.armTick();
    if (this.res.writableNeedDrain) return;
    this.sendSnapshots();
    if (this.options.scheduler.now() - this.lastWriteAt >= FEED_TIMING.keepaliveMs)
      this.write(commentFrame('keepalive'));
  }

  /**
   * Sets the next tick at a whole number of periods from the start (so ticks do not drift),
   * the first one still ahead (a stalled process does not run the missed ones in a row).
   */
  private armTick(): void {
    if (this.state === 'CLOSED') return;
    const period = FEED_TIMING.snapshotMs;
    const elapsed = Math.floor((this.options.scheduler.now() - this.openedAt) / period);
    this.ticks = Math.max(this.ticks, elapsed) + 1;
    const at = this.openedAt + this.ticks * period;
    this.cancelTick = this.options.scheduler.setTimer(at, () => this.guard(() => this.tick()));
  }

  /** Sends each snapshot that changed since it was last sent (every one, the first time). */
  private sendSnapshots(): void {
    const { emulator, device } = this.options;
    for (const [name, read] of Object.entries(SNAPSHOTS) as [SnapshotName, (typeof SNAPSHOTS)[SnapshotName]][]) {
      const snapshot: Snapshot = read(emulator, device);
      // Without a change of its own, the data's JSON is the change; with one, it is made only to be sent.
      const change = snapshot.change ?? JSON.stringify(snapshot.data);
      if (this.lastSent.get(name) === change) continue;
      this.lastSent.set(name, change);
      this.write(eventFrame(name, snapshot.change === undefined ? change : JSON.stringify(snapshot.data)));
    }
  }

  private write(frame: string): void {
    if (this.state === 'CLOSED') return;
    this.res.write(frame);
    this.lastWriteAt = this.options.scheduler.now();
  }

  /** Runs a step of the feed outside a request: what it throws is logged and ends this feed only. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      this.options.log.error({ device: this.options.device, err }, 'control API: feed failed; closing it');
      this.end('error');
    }
  }
}
