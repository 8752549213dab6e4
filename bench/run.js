'use strict';
/**
 * Runs every benchmark in order: `npm run bench` (which builds dist/ first).
 * Each benchmark module exports `main()`, prints its own report and resolves with
 * a summary; the process exits by itself once they are done (nothing is left open).
 */
const fs = require('node:fs');
const path = require('node:path');

const BENCHMARKS = ['./event-stream.js', './scenario-timing.js', './destination-put.js', './fleet.js'];

async function run() {
  if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.js'))) {
    throw new Error('dist/index.js is missing: run `npm run build` first (`npm run bench` does it for you)');
  }
  const only = process.argv.slice(2);
  for (const file of BENCHMARKS) {
    const bench = require(file);
    if (only.length > 0 && !only.includes(bench.name)) continue;
    console.log(`\n=== ${bench.name} ===`);
    await bench.main();
  }
}

run().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
