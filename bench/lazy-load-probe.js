'use strict';
/**
 * Preloaded (`node -r`) into a `bwc-emu` process by bench/lazy-load.js: when the process
 * exits, writes how long it ran since it started and its peak RSS to BENCH_PROBE_FILE.
 */
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

process.on('exit', () => {
  const measured = { ms: performance.now(), maxRssKiB: process.resourceUsage().maxRSS };
  fs.writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify(measured));
});
