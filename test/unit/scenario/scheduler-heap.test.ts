/**
 * The manual scheduler's timer heap: against a reference model that scans a list for the
 * earliest timer (random interleavings of set, cancel and advance, with timers that set and
 * cancel others while they run), and at a fleet's scale (100,000 timers set, then all
 * cancelled or all run), which the sorted array it replaced did in O(n^2).
 */
import fc from 'fast-check';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import { propertyRuns } from '../../helpers/fast-check-config';

/** What the property drives: the manual scheduler's face. */
interface Clock {
  now(): number;
  setTimer(atMs: number, fn: () => void): () => void;
  readonly pending: number;
  advanceTo(ms: number): void;
}

/** Trivially correct: every timer kept in a list, the earliest (ties: first set) found by a scan. */
class ModelScheduler implements Clock {
  private current = 0;
  private readonly timers: { at: number; fn: () => void; live: boolean }[] = [];

  now(): number {
    return this.current;
  }

  setTimer(atMs: number, fn: () => void): () => void {
    const timer = { at: atMs, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  get pending(): number {
    return this.timers.filter((t) => t.live).length;
  }

  advanceTo(ms: number): void {
    for (;;) {
      let next: (typeof this.timers)[number] | undefined;
      for (const t of this.timers) if (t.live && t.at <= ms && (next === undefined || t.at < next.at)) next = t;
      if (next === undefined) break;
      next.live = false;
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = Math.max(this.current, ms);
  }
}

/** A timer to set: its time from now (negative: already past), and what it does when it runs. */
interface SetOp {
  kind: 'set';
  offset: number;
  /** A timer it sets when it runs, this far from then (null: none). */
  spawn: number | null;
  /** A timer it cancels when it runs, by index into every timer set so far (null: none). */
  cancels: number | null;
}
type Op = SetOp | { kind: 'cancel'; index: number } | { kind: 'advance'; by: number };

/** Small times, so that ties are common; more sets and cancels than advances, so that heaps grow deep enough to cancel inside. */
const setOp = fc.record({
  kind: fc.constant('set' as const),
  offset: fc.integer({ min: -5, max: 40 }),
  spawn: fc.option(fc.integer({ min: -3, max: 10 })),
  cancels: fc.option(fc.nat()),
});
const ops = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: setOp },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), index: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 15 }) }) },
  ),
  { maxLength: 200, size: 'max' },
);

/** Plays `script` on `clock`: the callbacks in the order they ran (with the time they saw) and `pending` after each step. */
function play(clock: Clock, script: Op[]): string[] {
  const trace: string[] = [];
  const cancels: (() => void)[] = [];
  const set = (at: number, op: SetOp, id: string): void => {
    cancels.push(
      clock.setTimer(at, () => {
        trace.push(`ran ${id} at ${clock.now()}`);
        if (op.cancels !== null) cancels[op.cancels % cancels.length]();
        if (op.spawn !== null) set(clock.now() + op.spawn, { ...op, spawn: null }, `${id}'`);
      }),
    );
  };
  script.forEach((op, i) => {
    if (op.kind === 'set') set(clock.now() + op.offset, op, String(i));
    else if (op.kind === 'cancel' && cancels.length > 0) cancels[op.index % cancels.length]();
    else if (op.kind === 'advance') clock.advanceTo(clock.now() + op.by);
    trace.push(`pending ${clock.pending}`);
  });
  clock.advanceTo(clock.now() + 1_000);
  trace.push(`pending ${clock.pending} at ${clock.now()}`);
  return trace;
}

/** A fixed spread of times in [0, 60 s), the same every run. */
function spreadTimes(count: number): number[] {
  let x = 12345;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % 60_000;
  });
}

describe('ManualScheduler timer heap', () => {
  it('runs, cancels and counts timers as the reference model does', () => {
    fc.assert(
      fc.property(ops, (script) => {
        expect(play(new ManualScheduler(), script)).toEqual(play(new ModelScheduler(), script));
      }),
      propertyRuns(300),
    );
  });

  const COUNT = 100_000;

  /**
   * Runs `body(i)` for i from 0 to `count - 1`, yielding to the event loop every 10,000: the
   * O(n^2) array this replaced took 40 s and 74 s here, and Jest's timeout can only end a
   * test that yields. With the heap each test takes well under a second.
   */
  async function inChunks(count: number, body: (i: number) => void): Promise<void> {
    for (let i = 0; i < count; i++) {
      body(i);
      if (i % 10_000 === 9_999) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  it('100,000 timers set at spread times, then all cancelled in another order: none runs, none pending', async () => {
    const clock = new ManualScheduler();
    const times = spreadTimes(COUNT);
    let ran = 0;
    const cancels: (() => void)[] = [];
    await inChunks(COUNT, (i) => cancels.push(clock.setTimer(times[i], () => ran++)));
    expect(clock.pending).toBe(COUNT);
    // Latest set first (the old array's indexOf scanned all of it for each), then the others.
    await inChunks(COUNT / 2, (k) => cancels[COUNT - 1 - 2 * k]());
    expect(clock.pending).toBe(COUNT / 2);
    await inChunks(COUNT / 2, (k) => cancels[2 * k]());
    cancels[0](); // twice: harmless
    expect(clock.pending).toBe(0);
    clock.advanceTo(60_000);
    expect(ran).toBe(0);
  });

  it('100,000 timers set at spread times all run in due order (ties in the order set), once each', async () => {
    const clock = new ManualScheduler();
    const times = spreadTimes(COUNT);
    const order: number[] = [];
    const cancels: (() => void)[] = [];
    await inChunks(COUNT, (i) => cancels.push(clock.setTimer(times[i], () => order.push(i))));
    await inChunks(601, (k) => clock.advanceTo(k * 100));
    expect(clock.pending).toBe(0);
    const expected = times.map((_, i) => i).sort((a, b) => times[a] - times[b] || a - b);
    expect(order.length).toBe(COUNT);
    expect(order.every((id, k) => id === expected[k])).toBe(true);
    for (const cancel of cancels) cancel(); // after they ran: harmless
    expect(clock.pending).toBe(0);
  });
});
