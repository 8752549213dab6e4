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

/** What a run or cancelled timer holds instead of its function, so that a kept cancel function keeps no callback alive. */
const SPENT = (): void => undefined;

/** A due step: four fields; the cancel function the API returns is its only closure. */
interface QueuedTimer {
  at: number;
  /** Order of setting: ties of `at` run in it. */
  seq: number;
  fn: () => void;
  /** Where it is in the heap; -1 once it ran or was cancelled. */
  pos: number;
}

/** Whether `a` is due before `b`: by time, ties in the order they were set. */
function before(a: QueuedTimer, b: QueuedTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/**
 * Timers in due order (ties in the order they were set); the core of both schedulers.
 * A binary min-heap that knows each timer's place, so adding, running and cancelling one
 * are O(log n): a fleet of 100,000 devices closing cancels 100,000 timers.
 */
class TimerQueue {
  private readonly heap: QueuedTimer[] = [];
  private seq = 0;

  /** Adds a timer; returns it, for {@link remove}. */
  add(at: number, fn: () => void): QueuedTimer {
    const timer: QueuedTimer = { at, seq: this.seq++, fn, pos: this.heap.length };
    this.heap.push(timer);
    this.siftUp(timer.pos);
    return timer;
  }

  /** How many timers are set and not yet run or cancelled. */
  get size(): number {
    return this.heap.length;
  }

  /** The due time of the earliest timer. */
  earliest(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Runs every timer due by `upTo`, in order, also those added meanwhile; `onTime` sees each one's time first. */
  runDue(upTo: number, onTime: (at: number) => void = () => undefined): void {
    while (this.heap.length > 0 && this.heap[0].at <= upTo) {
      const timer = this.heap[0];
      const fn = timer.fn;
      this.take(timer);
      onTime(timer.at);
      fn();
    }
  }

  /** Cancels a timer still in the heap; nothing once it ran or was cancelled. */
  remove(timer: QueuedTimer): void {
    if (timer.pos >= 0) this.take(timer);
  }

  /** Takes `timer` out: the last timer fills its place and moves up or down to where it belongs. */
  private take(timer: QueuedTimer): void {
    const pos = timer.pos;
    const last = this.heap.pop() as QueuedTimer;
    timer.pos = -1;
    timer.fn = SPENT;
    if (last === timer) return;
    this.heap[pos] = last;
    last.pos = pos;
    if (pos > 0 && before(last, this.heap[(pos - 1) >> 1])) this.siftUp(pos);
    else this.siftDown(pos);
  }

  /** Moves the timer at `pos` towards the root while it is due before its parent. */
  private siftUp(pos: number): void {
    const heap = this.heap;
    const timer = heap[pos];
    while (pos > 0) {
      const parentPos = (pos - 1) >> 1;
      const parent = heap[parentPos];
      if (!before(timer, parent)) break;
      heap[pos] = parent;
      parent.pos = pos;
      pos = parentPos;
    }
    heap[pos] = timer;
    timer.pos = pos;
  }

  /** Moves the timer at `pos` towards the leaves while a child is due before it. */
  private siftDown(pos: number): void {
    const heap = this.heap;
    const n = heap.length;
    const timer = heap[pos];
    for (;;) {
      let child = 2 * pos + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap[child + 1], heap[child])) child++;
      if (!before(heap[child], timer)) break;
      heap[pos] = heap[child];
      heap[pos].pos = pos;
      pos = child;
    }
    heap[pos] = timer;
    timer.pos = pos;
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
    const timer = this.queue.add(atMs, fn);
    this.arm();
    return () => {
      this.queue.remove(timer);
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
    const timer = this.queue.add(atMs, fn);
    return () => this.queue.remove(timer);
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
