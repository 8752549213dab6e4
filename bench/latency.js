'use strict';
/**
 * What the latency benchmarks (feeds.js, filter-budget.js) share: a client's latencies alone
 * and under a load, in the same run, told as percentiles, table cells and figures; and how such
 * a file runs as the parent (`node bench/x.js`, or loaded by bench/run.js) or as one of its
 * children (forked with a role as its first argument).
 */
const { figure } = require('./figures');

/** The `p`-th percentile of `values` (ms). */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Milliseconds as the tables show them. */
function ms(value) {
  return value.toFixed(2);
}

/** The cells `alone p50, alone p95, loaded p50, loaded p95` of a result `{ alone, loaded }`. */
function latencyCells({ alone, loaded }) {
  return [percentile(alone, 50), percentile(alone, 95), percentile(loaded, 50), percentile(loaded, 95)].map(ms);
}

/** A figure for p50 and p95 of each result `{ label, alone, loaded }`: loaded against alone; `name(p, label)` names it. */
function latencyFigures(results, name) {
  return results.flatMap((r) =>
    [50, 95].map((p) => {
      const product = percentile(r.loaded, p);
      const baseline = percentile(r.alone, p);
      return figure(name(p, r.label), {
        product: ms(product),
        baseline: ms(baseline),
        unit: 'ms (lower is better)',
        ratio: product / baseline,
      });
    }),
  );
}

/**
 * Runs `main` when `mod` is the script run by hand, `childMain` when it was forked as a child
 * (bench/child.js: its failure told to the parent), nothing when it is loaded by bench/run.js.
 */
function runMainOrChild(mod, main, childMain) {
  if (require.main !== mod) return;
  if (process.send === undefined)
    main().catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
  else childMain()?.catch((err) => process.send({ type: 'error', message: err.stack ?? String(err) }));
}

module.exports = { percentile, ms, latencyCells, latencyFigures, runMainOrChild };
