/**
 * Every live feed of an emulator (`GET /_emu/feed`), by device, and their cap. A feed costs
 * the one event loop every device shares (a write per batch, a connection, its buffers), so
 * the cap is the emulator's, whatever device a feed is of: past `maxFeeds` open at once a new
 * feed is refused with 503 `TOO_MANY_FEEDS` and `Retry-After` (a reader that takes nothing is
 * closed within `stallMs` and frees its place), logged like every refusal (the first few of
 * an interval one by one, the rest counted in one line).
 */
import type { Request, Response } from 'express';
import { LogSummary } from '../base/log-summary';
import { wholeNumberOption } from '../base/option-checks';
import type { ControlCode } from './control-codes';
import { ControlError, refuse, sendError } from './control-error';
import { type EventFeed, FEED_TIMING } from './event-feed';
import { FeedHub, type HubContext } from './feed-hub';

/** Feeds open at once by default: dashboards in a few tabs and the tests' own feeds, far below what slows a device. */
export const DEFAULT_MAX_FEEDS = 100;

/** The largest `maxFeeds`. */
export const MAX_MAX_FEEDS = 100_000;

/** The code of the refusal past the cap. */
export const TOO_MANY_FEEDS = 'TOO_MANY_FEEDS' satisfies ControlCode;

/** Refusals past the cap logged one by one per interval; the rest are counted. */
const LOGGED_REFUSALS = { intervalMs: 10_000, burst: 10 };

/** Open feeds and their hubs, one per device with a feed; the cap on the feeds. */
export class FeedHubs {
  readonly maxFeeds: number;
  private readonly hubs = new Map<string, FeedHub>();
  private open = 0;
  /** Made at the first refusal, with the log and clock of the call. */
  private refusals: LogSummary | undefined;

  /** `maxFeeds`: feeds open at once ({@link DEFAULT_MAX_FEEDS}); throws `BAD_OPTION` out of 1 to {@link MAX_MAX_FEEDS}. */
  constructor(maxFeeds = DEFAULT_MAX_FEEDS) {
    this.maxFeeds = wholeNumberOption('control.maxFeeds', maxFeeds, 1, MAX_MAX_FEEDS);
  }

  /** Feeds open now. */
  get size(): number {
    return this.open;
  }

  /**
   * Opens a feed of `context.device` on `res`, or refuses it (503 `TOO_MANY_FEEDS` with
   * `Retry-After`) when `maxFeeds` are open. Undefined when refused: the refusal is answered.
   */
  openFeed(context: HubContext, req: Request, res: Response, since: number | undefined): EventFeed | undefined {
    const remote = req.socket.remoteAddress;
    if (this.open >= this.maxFeeds) {
      this.refuse(context, req, res);
      return undefined;
    }
    let hub = this.hubs.get(context.device);
    if (!hub) {
      hub = new FeedHub(context, (empty) => {
        if (this.hubs.get(empty.device) === empty) this.hubs.delete(empty.device);
      });
      this.hubs.set(context.device, hub);
    }
    try {
      const feed = hub.join(res, { since, remote });
      if (feed.open) this.count(res);
      return feed;
    } finally {
      // A join that threw (a snapshot that failed) leaves a hub with no feed: it goes.
      hub.stopIfEmpty();
    }
  }

  /** Counts an open feed until its answer closes. */
  private count(res: Response): void {
    this.open++;
    res.once('close', () => this.open--);
  }

  /** Answers 503 past the cap, logged unless the interval has had its share of lines. */
  private refuse(context: HubContext, req: Request, res: Response): void {
    const retryAfter = Math.ceil(FEED_TIMING.stallMs / 1000);
    res.setHeader('Retry-After', String(retryAfter));
    const refusal = new ControlError(
      TOO_MANY_FEEDS,
      `${this.maxFeeds} live feeds are open, the most this emulator serves at once; close one, or try again in ${retryAfter} s`,
    );
    this.refusals ??= new LogSummary(context.log, context.scheduler, {
      message: 'control API: feeds refused past the cap, not logged one by one',
      ...LOGGED_REFUSALS,
    });
    if (this.refusals.admit(req.socket.remoteAddress)) sendError(req, res, context.log, refusal);
    else refuse(res, refusal);
  }
}
