'use strict';
/**
 * The shared scenario scheduler at a fleet's scale: BENCH_TIMERS (100,000) timers, one per
 * device's pending step, set at spread times over 60 s (a fixed pseudo-random spread), then
 *  - `cancel`: all cancelled (in a fixed shuffled order, as a fleet closing does), then time
 *    moved past the last of them (nothing runs);
 *  - `run`: time moved over the 60 s in steps of 100 ms, every timer running in due order.
 * Product: ManualScheduler from dist/scenario/scheduler.js (the timer heap RealScheduler
 * shares), setTimer / the cancel function it returns / advanceTo.
 *
 * Baseline, the strongest fair one we know: a plain array the timers are pushed onto, sorted
 * once with Array.prototype.sort by due time (stable, so ties keep the order set, as the
 * product's) when time first moves, then walked in order with a cursor as time moves; a
 * cancel marks the timer in a Set and the walk skips it. It does the same work: the same
 * callbacks run in the same order (checked after every round), and it could not take a timer
 * set while it runs, which the product must (a timer set by a timer).
 *
 * The callbacks are made once, before timing, and shared by both sides. The sides alternate
 * (which goes first rotates every round) after one warm-up round each; the table shows the
 * medians of BENCH_ROUNDS rounds, per phase, and the ratio product / baseline of the totals.
 *
 * Both sides allocate per timer (the product a timer and the cancel function the API returns,
 * the baseline a timer) and collecting it is part of their cost; run alone under
 * `node --expose-gc bench/scheduler.js`, each measurement starts from a collected heap.
 *
 * Knobs (environment): BENCH_TIMERS (100000), BENCH_ROUNDS (5).
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { intEnv, rotated } = require('./env');
const { figure, fmt, median, printAligned } = require('./figures');

const DIST = path.join(__dirname, '..', 'dist');
const TIMERS = intEnv('BENCH_TIMERS', 100_000);
const ROUNDS = intEnv('BENCH_ROUNDS', 5);
const SPREAD_MS = 60_000;
const STEP_MS = 100;
const SIDES = ['product', 'baseline'];
const CASES = ['cancel', 'run'];

/** A fixed pseudo-random sequence (an LCG), so every round and side sees the same times and order. */
function lcg(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x;
  };
}

/** The work both sides do: the times, the cancel order, the callbacks and the order they must run in. */
function makeWork() {
  const next = lcg(33);
  const times = Array.from({ length: TIMERS }, () => next() % SPREAD_MS);
  const cancelOrder = Array.from({ length: TIMERS }, (_, i) => i);
  for (let i = TIMERS - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [cancelOrder[i], cancelOrder[j]] = [cancelOrder[j], cancelOrder[i]];
  }
  const ran = new Int32Array(TIMERS);
  const work = { times, cancelOrder, ran, count: 0, fns: [] };
  work.fns = times.map((_, i) => () => {
    work.ran[work.count++] = i;
  });
  work.expected = times.map((_, i) => i).sort((a, b) => times[a] - times[b] || a - b);
  return work;
}

/** The product's side: the scheduler as built. */
function productSide(ManualScheduler) {
  return {
    make: () => new ManualScheduler(0),
    set: (clock, at, fn) => clock.setTimer(at, fn),
    cancel: (clock, handle) => handle(),
    advanceTo: (clock, ms) => clock.advanceTo(ms),
  };
}

/** The baseline's side: push, one sort when time first moves, a cursor, a Set of cancelled timers. */
const baselineSide = {
  make: () => ({ timers: [], sorted: false, cursor: 0, cancelled: new Set() }),
  set: (clock, at, fn) => {
    const timer = { at, fn };
    clock.timers.push(timer);
    return timer;
  },
  cancel: (clock, timer) => clock.cancelled.add(timer),
  advanceTo: (clock, ms) => {
    const timers = clock.timers;
    if (!clock.sorted) {
      timers.sort((a, b) => a.at - b.at);
      clock.sorted = true;
    }
    while (clock.cursor < timers.length && timers[clock.cursor].at <= ms) {
      const timer = timers[clock.cursor++];
      if (!clock.cancelled.has(timer)) timer.fn();
    }
  },
};

/** One measurement: ms per phase; throws when the callbacks did not run as they must. */
function measure(side, kind, work) {
  work.count = 0;
  global.gc?.(); // each from a clean heap when run with --expose-gc: the other side's garbage is not its cost
  const clock = side.make();
  const handles = new Array(TIMERS);
  const t0 = performance.now();
  for (let i = 0; i < TIMERS; i++) handles[i] = side.set(clock, work.times[i], work.fns[i]);
  const t1 = performance.now();
  if (kind === 'cancel') for (const i of work.cancelOrder) side.cancel(clock, handles[i]);
  const t2 = performance.now();
  for (let t = 0; t <= SPREAD_MS; t += STEP_MS) side.advanceTo(clock, t);
  const t3 = performance.now();
  const want = kind === 'cancel' ? 0 : TIMERS;
  if (work.count !== want) throw new Error(`${kind}: ${work.count} callbacks ran, not ${want}`);
  for (let k = 0; k < work.count; k++)
    if (work.ran[k] !== work.expected[k]) throw new Error(`${kind}: callback ${k} ran out of order`);
  return { set: t1 - t0, cancel: t2 - t1, advance: t3 - t2, total: t3 - t0 };
}

async function main() {
  const file = path.join(DIST, 'scenario', 'scheduler.js');
  if (!fs.existsSync(file)) throw new Error('dist/scenario/scheduler.js is missing: run `npm run build` first');
  const sides = { product: productSide(require(file).ManualScheduler), baseline: baselineSide };
  const work = makeWork();
  console.log(
    `scheduler: ${fmt(TIMERS)} timers over ${SPREAD_MS / 1000} s, cancelled or run in ${STEP_MS} ms steps; ${ROUNDS} rounds after a warm-up`,
  );
  const runs = Object.fromEntries(CASES.map((kind) => [kind, { product: [], baseline: [] }]));
  for (let round = -1; round < ROUNDS; round++) {
    for (const kind of CASES) {
      for (const side of rotated(SIDES, Math.max(0, round))) {
        const r = measure(sides[side], kind, work);
        if (round < 0) continue;
        runs[kind][side].push(r);
        console.log(`  ${kind.padEnd(6)} ${side.padEnd(8)} ${r.total.toFixed(1)} ms`);
      }
    }
  }
  const med = (kind, side, phase) => median(runs[kind][side].map((r) => r[phase]));
  const rows = [['case', 'side', 'set ms', 'cancel ms', 'advance ms', 'total ms']];
  for (const kind of CASES)
    for (const side of SIDES)
      rows.push([kind, side, ...['set', 'cancel', 'advance', 'total'].map((p) => med(kind, side, p).toFixed(1))]);
  console.log(`\nmedians of ${ROUNDS} rounds:`);
  printAligned(rows, 2);
  const what = { cancel: 'set, then all cancelled', run: 'set, then all run by advanceTo' };
  const figures = CASES.map((kind) => {
    const product = med(kind, 'product', 'total');
    const baseline = med(kind, 'baseline', 'total');
    console.log(`${kind}: product / baseline ${(product / baseline).toFixed(2)}`);
    return figure(`scheduler, ${fmt(TIMERS)} timers ${what[kind]}, vs an array sorted once`, {
      product: product.toFixed(1),
      baseline: baseline.toFixed(1),
      unit: 'ms (lower is better)',
      ratio: product / baseline,
    });
  });
  return { name: 'scheduler', figures, runs };
}

module.exports = { name: 'scheduler', main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
