'use strict';
/**
 * The fleet benchmark's report (bench/fleet.js): its medians as tables, the issue's bounds
 * each met or missed, and the figures for bench/README.md. A ratio is given only where the
 * baseline was measured at that size, never made up.
 */
const { figure, fmt, median, printAligned } = require('./figures');

const MB = 1e6;
const KiB = 1024;

/** The issue's bounds on the product's own figures: mode, size, what, limit, unit. */
const ABSOLUTE_BOUNDS = [
  { mode: 'address', count: 100_000, key: 'startMs', limit: 20_000, text: 'start-up <= 20 s' },
  { mode: 'address', count: 100_000, key: 'idleRss', limit: 800 * MB, text: 'idle RSS < 800 MB' },
  { mode: 'ports', count: 10_000, key: 'startMs', limit: 5_000, text: 'start-up <= 5 s' },
  { mode: 'ports', count: 10_000, key: 'idleRss', limit: 180 * MB, text: 'idle RSS < 180 MB' },
];
/** The bound on per-device RSS with sessions, emulator / bare. */
const SESSION_RATIO_BOUND = 1.2;

/** A figure's value as shown: ms or s, MB, KiB per device. */
const show = {
  startMs: (v) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${fmt(v)} ms`),
  idleRss: (v) => `${(v / MB).toFixed(1)} MB`,
};

/**
 * Prints the tables and the bounds for `results` (count -> side -> measurements) and returns
 * { figures, summary }.
 */
function report(results, cfg, sessionsPerDevice) {
  const med = (count, side, key) => {
    const values = (results.get(count)?.[side] ?? []).map((m) => m[key]).filter((v) => v !== undefined);
    return values.length > 0 ? median(values) : undefined;
  };
  const growth = (count, side, key) => {
    const [atN, atOne] = [med(count, side, key), med(1, side, key)];
    return count > 1 && atN !== undefined && atOne !== undefined ? (atN - atOne) / (count - 1) : undefined;
  };
  const ratio = (a, b) => (a !== undefined && b !== undefined ? a / b : undefined);
  const cell = (v, digits = 0) => (v === undefined ? '-' : fmt(v, digits));

  console.log(`\nmedians of ${cfg.rounds} rounds; per device: growth from 1 device; ratio: emulator / bare`);
  const idleRows = [['devices', 'side', 'start ms', 'ratio', 'idle RSS MB', 'heap MB', 'RSS/device KiB', 'ratio']];
  const sessionRows = [
    [
      'devices',
      'side',
      `RSS MB, ${sessionsPerDevice} sessions/device`,
      'RSS/device KiB',
      'ratio',
      'event to all ms',
      'ratio',
    ],
  ];
  for (const [count, runs] of results) {
    for (const side of Object.keys(runs)) {
      const vsBare = (key, value) => (side === 'bare' ? undefined : ratio(value, key(count, 'bare')));
      const start = med(count, side, 'startMs');
      const perDevice = growth(count, side, 'idleRss');
      idleRows.push([
        fmt(count),
        side,
        cell(start),
        cell(
          vsBare((c, s) => med(c, s, 'startMs'), start),
          2,
        ),
        cell(med(count, side, 'idleRss') / MB, 1),
        cell(med(count, side, 'idleHeap') / MB, 1),
        cell(perDevice === undefined ? undefined : perDevice / KiB, 1),
        cell(
          vsBare((c, s) => growth(c, s, 'idleRss'), perDevice),
          2,
        ),
      ]);
      const rss = med(count, side, 'rss');
      if (rss === undefined) continue;
      const perSession = growth(count, side, 'rss');
      const event = med(count, side, 'eventMs');
      sessionRows.push([
        fmt(count),
        side,
        cell(rss / MB, 1),
        cell(perSession === undefined ? undefined : perSession / KiB, 1),
        cell(
          vsBare((c, s) => growth(c, s, 'rss'), perSession),
          2,
        ),
        cell(event, 1),
        cell(
          vsBare((c, s) => med(c, s, 'eventMs'), event),
          2,
        ),
      ]);
    }
  }
  console.log('\nidle (no session):');
  printAligned(idleRows, 2);
  console.log(
    `\nwith ${sessionsPerDevice} idle sessions per device (sizes where the sockets fit), and one event to all of them:`,
  );
  printAligned(sessionRows, 2);

  const figures = [];
  const summary = { bounds: [] };
  const verdict = (met) => (met === undefined ? 'not measured in this run' : met ? 'met' : 'missed');
  console.log('\nbounds:');
  for (const b of ABSOLUTE_BOUNDS) {
    if (!cfg.modes.includes(b.mode)) continue;
    const value = med(b.count, b.mode, b.key);
    const met = value === undefined ? undefined : b.key === 'startMs' ? value <= b.limit : value < b.limit;
    console.log(
      `  ${b.mode} mode, ${fmt(b.count)} devices, ${b.text}: ${value === undefined ? '' : `${show[b.key](value)}, `}${verdict(met)}`,
    );
    summary.bounds.push({ ...b, value, met });
  }
  for (const mode of cfg.modes) {
    for (const count of cfg.sessionSizes.filter((n) => n > 1)) {
      const r = ratio(growth(count, mode, 'rss'), growth(count, 'bare', 'rss'));
      const met = r === undefined ? undefined : r <= SESSION_RATIO_BOUND;
      const text = `per-device RSS with ${sessionsPerDevice} idle sessions <= ${SESSION_RATIO_BOUND}x bare`;
      console.log(
        `  ${mode} mode, ${fmt(count)} devices, ${text}: ${r === undefined ? '' : `${r.toFixed(2)}, `}${verdict(met)}`,
      );
      summary.bounds.push({ mode, count, key: 'sessionRatio', value: r, met });
    }
  }

  for (const mode of cfg.modes) {
    for (const count of cfg.sizes[mode].filter((n) => n > 1 && results.get(n)?.[mode])) {
      const name = `fleet, ${mode} mode, ${fmt(count)} devices`;
      const bound = (key) => summary.bounds.find((b) => b.mode === mode && b.count === count && b.key === key);
      const startBound = bound('startMs');
      const start = [med(count, mode, 'startMs'), med(count, 'bare', 'startMs')];
      figures.push(
        figure(`${name}: start-up`, {
          product: fmt(start[0]),
          baseline: cell(start[1]),
          unit: 'ms',
          ratio: ratio(...start),
          ...(startBound ? { bound: startBound.text.replace('start-up ', ''), met: startBound.met } : {}),
        }),
      );
      const rssBound = bound('idleRss');
      if (rssBound) {
        const rss = [med(count, mode, 'idleRss'), med(count, 'bare', 'idleRss')];
        figures.push(
          figure(`${name}: idle RSS`, {
            product: fmt(rss[0] / MB, 1),
            baseline: rss[1] === undefined ? '-' : fmt(rss[1] / MB, 1),
            unit: 'MB',
            ratio: ratio(...rss),
            bound: rssBound.text.replace('idle RSS ', ''),
            met: rssBound.met,
          }),
        );
      }
      const perDevice = [growth(count, mode, 'idleRss'), growth(count, 'bare', 'idleRss')];
      figures.push(
        figure(`${name}: idle RSS per device`, {
          product: fmt(perDevice[0] / KiB, 1),
          baseline: perDevice[1] === undefined ? '-' : fmt(perDevice[1] / KiB, 1),
          unit: 'KiB',
          ratio: ratio(...perDevice),
        }),
      );
    }
    for (const count of cfg.sessionSizes.filter((n) => n > 1 && med(n, mode, 'rss') !== undefined)) {
      const name = `fleet, ${mode} mode, ${fmt(count)} devices`;
      const perDevice = [growth(count, mode, 'rss'), growth(count, 'bare', 'rss')];
      const r = ratio(...perDevice);
      figures.push(
        figure(`${name}: RSS per device with ${sessionsPerDevice} idle sessions`, {
          product: fmt(perDevice[0] / KiB, 1),
          baseline: perDevice[1] === undefined ? '-' : fmt(perDevice[1] / KiB, 1),
          unit: 'KiB',
          ratio: r,
          bound: r === undefined ? '' : `<= ${SESSION_RATIO_BOUND}`,
        }),
      );
      const event = [med(count, mode, 'eventMs'), med(count, 'bare', 'eventMs')];
      figures.push(
        figure(`${name}: one event to all ${fmt(sessionsPerDevice * count)} sessions`, {
          product: fmt(event[0], 1),
          baseline: event[1] === undefined ? '-' : fmt(event[1], 1),
          unit: 'ms',
          ratio: ratio(...event),
        }),
      );
    }
  }
  return { figures, summary };
}

module.exports = { report };
