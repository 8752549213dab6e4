'use strict';
/**
 * What every benchmark returns for bench/README.md: its figures, each a product value
 * against its same-run baseline, and the ratio with the bound it is held to.
 * bench/run.js collects them, prints them and, with --readme, writes the table into
 * bench/README.md.
 */

/**
 * One figure. `ratio` is product / baseline of the values shown (medians), undefined when
 * there is no baseline (shown as -); `bound` says what the ratio must be: `>= 0.9` (a rate),
 * `<= 1.5` (a cost), or '' when none is set. A bound on the product's own value (`<= 20 s`)
 * comes with `met`, whether the product keeps it.
 */
function figure(name, { product, baseline, unit, ratio, bound = '', met }) {
  return { name, product, baseline, unit, ratio, bound, ...(met === undefined ? {} : { met }) };
}

/** Whether a figure keeps its bound (true when it has none). */
function withinBound(f) {
  if (typeof f.met === 'boolean') return f.met;
  const match = /^(>=|<=) ([\d.]+)$/.exec(f.bound);
  if (!match) return true;
  return match[1] === '>=' ? f.ratio >= Number(match[2]) : f.ratio <= Number(match[2]);
}

/** A number as a table shows it: thousands separated, at most `digits` decimals. */
function fmt(value, digits = 0) {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** The figures as a Markdown table. */
function figureTable(figures) {
  const lines = ['| figure | product | baseline | unit | ratio | bound |', '|---|---:|---:|---|---:|---|'];
  for (const f of figures) {
    const mark = f.bound === '' ? '' : withinBound(f) ? ' (met)' : ' (**not met**)';
    lines.push(
      `| ${f.name} | ${f.product} | ${f.baseline} | ${f.unit} | ${typeof f.ratio === 'number' ? f.ratio.toFixed(2) : '-'} | ${f.bound}${mark} |`,
    );
  }
  return lines.join('\n');
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A share as a percentage with `digits` decimals (none by default): 0.42 -> "42%", (0.4235, 1) -> "42.4%". */
function percent(x, digits = 0) {
  return `${(100 * x).toFixed(digits)}%`;
}

/** Prints `rows` (the first is the header) as an aligned table; the first `leftColumns` are left-aligned. */
function printAligned(rows, leftColumns = 1) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  const line = (r) =>
    `| ${r.map((cell, col) => (col < leftColumns ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join(' | ')} |`;
  console.log(line(rows[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

module.exports = { figure, figureTable, withinBound, fmt, median, percent, printAligned };
