/**
 * Where scenario timers come from. Timers are set for an absolute time, never a delay,
 * so a player that computes every due time from the scenario start cannot drift.
 * Tests use {@link ManualScheduler} and move time by hand instead of sleeping.
 */

/** A source of time and of timers set for absolute times. */
export interface Scheduler {
  /** The current time in milliseconds (epoch ms for the real scheduler). */
  now(): number;
  /** Runs `fn` once at `atMs` (at once if that is past); returns a function that cancels it. */
  setTimer(atMs: number, fn: () => void): () => void;
}

/** setTimeout cannot wait longer than this; longer waits are re-armed. */
const MAX_DELAY = 0x7fffffff;

/** The wall clock and setTimeout; a cancelled timer is cleared. */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimer(atMs, fn) {
    let handle: NodeJS.Timeout | undefined;
    const arm = (): void => {
      const delay = atMs - Date.now();
      handle = delay > MAX_DELAY ? setTimeout(arm, MAX_DELAY) : setTimeout(fn, Math.max(0, delay));
    };
    arm();
    return () => {
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    };
  },
};

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A scheduler whose time only moves when told to. Due timers run in time order
 * (ties in the order they were set), including timers set while advancing.
 */
export class ManualScheduler implements Scheduler {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<ManualTimer>();

  /** @param start the time the scheduler starts at, in ms */
  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(atMs: number, fn: () => void): () => void {
    const timer: ManualTimer = { at: atMs, seq: this.seq++, fn };
    this.timers.add(timer);
    return () => {
      this.timers.delete(timer);
    };
  }

  /** How many timers are set and not yet run or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time to `ms`, running every timer due by then; time never moves backwards. */
  advanceTo(ms: number): void {
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.timers) {
        if (timer.at <= ms && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq))) next = timer;
      }
      if (!next) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = Math.max(this.current, ms);
  }

  /** Moves time forward by `ms`, running every timer due by then. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }
}
