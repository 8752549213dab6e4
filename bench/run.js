'use strict';
/**
 * Runs every benchmark in order: `npm run bench` (which builds dist/ first), or some of
 * them by name (`npm run bench -- fan-out handshake`). Each benchmark module exports
 * `main()`, prints its own report and resolves with its figures (bench/figures.js);
 * the figures are printed together at the end. `npm run bench:readme` (the same with
 * --readme) also writes them into bench/README.md, between its figure markers, with
 * the machine and the date. The process exits by itself once they are done.
 *
 * Only the benchmarks that run are loaded: a module reads its knobs when it loads, so a bad
 * knob of one benchmark does not stop another from running by name.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { figureTable, withinBound } = require('./figures');

/** Every benchmark in the order of a whole run: its name (what `npm run bench -- NAME` takes) and its module. */
const BENCHMARKS = [
  { name: 'fan-out', file: './event-stream.js' },
  { name: 'session-memory', file: './session-memory.js' },
  { name: 'handshake', file: './handshake.js' },
  { name: 'idle-rss', file: './idle-rss.js' },
  { name: 'destination-put', file: './destination-put.js' },
  { name: 'scenario-timing', file: './scenario-timing.js' },
  { name: 'scheduler', file: './scheduler.js' },
  { name: 'fleet', file: './fleet.js' },
  { name: 'feeds', file: './feeds.js' },
  { name: 'filter-budget', file: './filter-budget.js' },
  { name: 'login-flood', file: './login-flood.js' },
  { name: 'lazy-load', file: './lazy-load.js' },
  { name: 'shared-caches', file: './shared-caches.js' },
];
const README = path.join(__dirname, 'README.md');
const START = '<!-- figures:start (written by npm run bench:readme) -->';
const END = '<!-- figures:end -->';

async function run() {
  if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.js'))) {
    throw new Error('dist/index.js is missing: run `npm run build` first (`npm run bench` does it for you)');
  }
  const args = process.argv.slice(2);
  const readme = args.includes('--readme');
  const only = args.filter((a) => a !== '--readme');
  const known = BENCHMARKS.map((b) => b.name);
  const unknown = only.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  if (readme && only.length > 0) throw new Error('--readme writes the figures of a whole run: name no benchmark');
  const started = Date.now();
  const figures = [];
  for (const { name, file } of BENCHMARKS) {
    if (only.length > 0 && !only.includes(name)) continue;
    const bench = require(file);
    if (bench.name !== name) throw new Error(`${file} calls itself "${bench.name}", bench/run.js "${name}"`);
    console.log(`\n=== ${name} ===`);
    const result = await bench.main();
    figures.push(...(result?.figures ?? []));
  }
  const table = figureTable(figures);
  console.log(`\n=== figures (product / same-run baseline) ===\n${table}`);
  const missed = figures.filter((f) => !withinBound(f));
  if (missed.length > 0)
    console.log(`\n${missed.length} figure(s) outside their bound: ${missed.map((f) => f.name).join('; ')}`);
  if (readme) writeReadme(table, Math.round((Date.now() - started) / 1000));
}

/** Replaces the figures between the README's markers. */
function writeReadme(table, seconds) {
  const text = fs.readFileSync(README, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`bench/README.md has no "${START}" ... "${END}" section`);
  const cpus = os.cpus();
  const machine = `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const body = [
    START,
    '',
    `Written by \`npm run bench:readme\` on ${new Date().toISOString().slice(0, 10)} in ${seconds} s; ${machine}.`,
    '',
    table,
    '',
    END,
  ].join('\n');
  fs.writeFileSync(README, text.slice(0, from) + body + text.slice(to + END.length));
  console.log(`\nbench/README.md: figures written`);
}

run().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
