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

interface QueuedTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** Timers in due order (ties in the order they were set); the core of both schedulers. */
class TimerQueue {
  private readonly timers: QueuedTimer[] = [];
  private seq = 0;

  /** Adds a timer; returns the function that removes it. */
  add(at: number, fn: () => void): () => void {
    const timer: QueuedTimer = { at, seq: this.seq++, fn };
    // Timers mostly arrive in time order: search from the end.
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].at > at) i--;
    this.timers.splice(i, 0, timer);
    return () => {
      const at = this.timers.indexOf(timer);
      if (at >= 0) this.timers.splice(at, 1);
    };
  }

  get size(): number {
    return this.timers.length;
  }

  /** The due time of the earliest timer. */
  earliest(): number | undefined {
    return this.timers[0]?.at;
  }

  /** Runs every timer due by `upTo`, in order, also those added meanwhile; `onTime` sees each one's time first. */
  runDue(upTo: number, onTime: (at: number) => void = () => undefined): void {
    while (this.timers.length > 0 && this.timers[0].at <= upTo) {
      const timer = this.timers.shift() as QueuedTimer;
      onTime(timer.at);
      timer.fn();
    }
  }
}

/**
 * The wall clock with one setTimeout for all its timers: when it fires, every timer
 * due by then runs at once. A timer per step would fall behind for good at high
 * rates, since Node never fires a setTimeout sooner than 1 ms after it is set.
 */
class RealScheduler implements Scheduler {
  private readonly queue = new TimerQueue();
  private handle: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  now(): number {
    return Date.now();
  }

  setTimer(atMs: number, fn: () => void): () => void {
    const remove = this.queue.add(atMs, fn);
    this.arm();
    return () => {
      remove();
      this.arm();
    };
  }

  /** Keeps one setTimeout armed for the earliest timer, none when there is none. */
  private arm(): void {
    const next = this.queue.earliest();
    if (this.handle !== undefined && next === this.armedFor) return;
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    if (next === undefined) return;
    this.armedFor = next;
    this.handle = setTimeout(() => this.fire(), Math.min(MAX_DELAY, Math.max(0, next - Date.now())));
  }

  private fire(): void {
    this.handle = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    this.queue.runDue(Date.now());
    this.arm();
  }
}

/** The wall clock and real timers, shared by every player in the process. */
export const realScheduler: Scheduler = new RealScheduler();

/**
 * A scheduler whose time only moves when told to. Due timers run in time order
 * (ties in the order they were set), including timers set while advancing.
 */
export class ManualScheduler implements Scheduler {
  private current: number;
  private readonly queue = new TimerQueue();

  /** @param start the time the scheduler starts at, in ms */
  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(atMs: number, fn: () => void): () => void {
    return this.queue.add(atMs, fn);
  }

  /** How many timers are set and not yet run or cancelled. */
  get pending(): number {
    return this.queue.size;
  }

  /** Moves time to `ms`, running every timer due by then; time never moves backwards. */
  advanceTo(ms: number): void {
    this.queue.runDue(ms, (at) => {
      this.current = Math.max(this.current, at);
    });
    this.current = Math.max(this.current, ms);
  }

  /** Moves time forward by `ms`, running every timer due by then. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }
}
