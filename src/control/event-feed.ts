/**
 * One open live feed (`GET /_emu/feed`): what happens on one device, pushed to a dashboard
 * as Server-Sent Events.
 *
 * - `journal`: the device's new journal entries in batches, one every `batchMs` at most
 *   while entries come, each with the newest `maxBatch` and a count of those `skipped`;
 *   the SSE id is the last entry's seq. With `since`, first what the journal still holds
 *   after it (capped the same way).
 * - `sessions`, `faults`, `scenario`: snapshots shaped as their GET routes answer, sent at
 *   the start and then, checked every `snapshotMs`, only when they changed (a playing
 *   scenario's moving position is no change; a pause, a resume, a restart are).
 * - a `: keepalive` comment after `keepaliveMs` without a write.
 *
 * Timers come from the emulator's scheduler and exist only while the feed is open; the
 * journal watch and every timer go when the client goes (or its connection breaks), when
 * the emulator closes, or when a step of the feed fails. A reader too slow to take what
 * was written is sent nothing more until it has (entries meanwhile: the newest `maxBatch`).
 */
import type { ServerResponse } from 'node:http';
import type { JournalEntry } from '../base/journal';
import type { Logger } from '../base/log';
import type { Scheduler } from '../scenario/scheduler';
import { CappedBatch } from './capped-batch';
import type { ControlledEmulator, ScenarioStatus } from './controlled-emulator';
import { activeFaults } from './fault-routes';
import type { ControlState } from './route';
import { commentFrame, eventFrame, writeEventStreamHead } from './server-sent-events';

/** How a feed paces itself. */
export interface FeedTiming {
  /** Longest wait from an entry to the batch that carries it. */
  batchMs: number;
  /** Most entries one `journal` event carries (the newest; the rest are counted as skipped). */
  maxBatch: number;
  /** How often the snapshots are compared with what was last sent. */
  snapshotMs: number;
  /** Silence after which a keepalive comment is written. */
  keepaliveMs: number;
}

/** The timing of every feed: a dashboard sees changes within a second and is never flooded. */
export const FEED_TIMING: FeedTiming = { batchMs: 200, maxBatch: 300, snapshotMs: 1000, keepaliveMs: 15_000 };

/** What a feed needs: the emulator, the device it is of, time, and where it replays from. */
export interface FeedOptions {
  emulator: ControlledEmulator;
  device: string;
  state: () => ControlState;
  scheduler: Scheduler;
  log: Logger;
  /** Replay the device's entries after this seq first; undefined: live entries only. */
  since: number | undefined;
}

/** A snapshot event: how it is read, and what of it counts as a change (default: all of it). */
interface Snapshot {
  read: (emulator: ControlledEmulator, device: string) => unknown;
  changeKey?: (data: unknown, now: number) => unknown;
}

/** The snapshot events, in the order they are sent. */
const SNAPSHOTS = {
  sessions: { read: (emulator, device) => ({ sessions: emulator.sessions({ device }) }) },
  faults: { read: (emulator, device) => activeFaults(emulator, device) },
  scenario: {
    read: (emulator, device) => emulator.scenarioStatus({ device }),
    // The position of a playing scenario moves all the time, which is no news (the page counts it
    // on); where it would be at zero moves only on a restart, a new scenario, or a resume.
    changeKey: (data, now) => {
      const status = data as ScenarioStatus;
      if (status.state !== 'playing') return status;
      return { ...status, positionMs: undefined, zeroAt: Math.round(now - status.positionMs / status.speed) };
    },
  },
} satisfies Record<string, Snapshot>;

type SnapshotName = keyof typeof SNAPSHOTS;

/** Why a feed ended. */
type EndReason = 'client' | 'closing' | 'error';

/**
 * An open feed; see the module comment. Made on a response not yet written to, it sends
 * the headers at once and ends by itself. State: OPEN until {@link end}, then CLOSED.
 */
export class EventFeed {
  private state: 'OPEN' | 'CLOSED' = 'OPEN';
  private readonly timing = FEED_TIMING;
  private readonly batch = new CappedBatch<JournalEntry>(FEED_TIMING.maxBatch);
  /** The change key (as JSON) of each snapshot last sent. */
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
    // Read, then watched, in one go (the journal writes synchronously): no entry falls between.
    // What throws here throws before the answer has begun, and is answered as a refusal.
    const replay = since === undefined ? [] : emulator.journal({ since, device });
    this.unwatch = emulator.watchJournal((entry) => this.onEntry(entry), { device });
    writeEventStreamHead(res);
    res.on('close', () => this.end('client'));
    res.on('drain', () => this.guard(() => this.flush()));
    options.log.debug({ device, since }, 'control API: feed opened');
    // A client that went before the listener was set would leave the feed open for good.
    if (res.socket?.destroyed !== false) {
      this.end('client');
      return;
    }
    this.guard(() => {
      this.sendSnapshots();
      for (const entry of replay) this.batch.add(entry);
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
   * A new entry of the device: into the batch, which goes out within `batchMs`. Called by
   * the journal as the entry is written (by a device's socket code): it must never throw.
   */
  private onEntry(entry: JournalEntry): void {
    this.batch.add(entry);
    if (this.cancelFlush !== undefined) return;
    const { scheduler } = this.options;
    this.cancelFlush = scheduler.setTimer(scheduler.now() + this.timing.batchMs, () =>
      this.guard(() => {
        this.cancelFlush = undefined;
        this.flush();
      }),
    );
  }

  /** Sends the batch as one `journal` event, unless it is empty or the client has not read the last one. */
  private flush(): void {
    if (this.state === 'CLOSED' || this.batch.empty || this.res.writableNeedDrain) return;
    const { items, skipped } = this.batch.take();
    const json = JSON.stringify({ entries: items, skipped });
    this.write(eventFrame('journal', json, items[items.length - 1].seq));
  }

  /** Every `snapshotMs`: the snapshots that changed, and a keepalive after a long silence (unless the reader lags). */
  private tick(): void {
    if (this.options.state() !== 'ready') return this.end('closing');
    this.armTick();
    if (this.res.writableNeedDrain) return;
    this.sendSnapshots();
    if (this.options.scheduler.now() - this.lastWriteAt >= this.timing.keepaliveMs)
      this.write(commentFrame('keepalive'));
  }

  /**
   * Sets the next tick at a whole number of periods from the start (so ticks do not drift),
   * the first one still ahead (a stalled process does not run the missed ones in a row).
   */
  private armTick(): void {
    if (this.state === 'CLOSED') return;
    const period = this.timing.snapshotMs;
    const elapsed = Math.floor((this.options.scheduler.now() - this.openedAt) / period);
    this.ticks = Math.max(this.ticks, elapsed) + 1;
    const at = this.openedAt + this.ticks * period;
    this.cancelTick = this.options.scheduler.setTimer(at, () => this.guard(() => this.tick()));
  }

  /** Sends each snapshot that changed since it was last sent (every one, the first time). */
  private sendSnapshots(): void {
    const { emulator, device, scheduler } = this.options;
    for (const [name, snapshot] of Object.entries(SNAPSHOTS) as [SnapshotName, Snapshot][]) {
      const data = snapshot.read(emulator, device);
      const json = JSON.stringify(data);
      const key = snapshot.changeKey ? JSON.stringify(snapshot.changeKey(data, scheduler.now())) : json;
      if (this.lastSent.get(name) === key) continue;
      this.lastSent.set(name, key);
      this.write(eventFrame(name, json));
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
