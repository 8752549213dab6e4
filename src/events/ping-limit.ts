/**
 * How often a client may ping its event stream session. ws would answer every ping
 * itself and, past 60 pongs not yet written, drop the connection without a close frame;
 * the session answers them instead and closes a flooding client with a code (1008).
 */

/** At most `pings` pings in any window of `windowMs` milliseconds that starts with a ping. */
export interface PingLimit {
  pings: number;
  windowMs: number;
}

/** 60 pings per 10 s: a burst as large as ws tolerated, and far above any keepalive (one ping every few seconds). */
export const DEFAULT_PING_LIMIT: Readonly<PingLimit> = Object.freeze({ pings: 60, windowMs: 10_000 });

/** WebSocket close code for a policy violation, used for a ping flood. */
export const CLOSE_POLICY_VIOLATION = 1008;

/** The close reason sent to a client that pinged more often than `limit` allows. */
export function pingFloodReason(limit: PingLimit): string {
  return `ping flood: at most ${limit.pings} pings per ${formatSeconds(limit.windowMs)} s`;
}

/**
 * Counts a session's pings in fixed windows: the first ping opens a window of
 * `windowMs`, the first ping after it opens the next. Made on a session's first ping.
 */
export class PingWindow {
  private start = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(private readonly limit: PingLimit) {}

  /** Counts a ping at `now` (ms); false when it is one more than the limit allows. */
  allow(now: number): boolean {
    if (now - this.start >= this.limit.windowMs) {
      this.start = now;
      this.count = 0;
    }
    this.count++;
    return this.count <= this.limit.pings;
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
