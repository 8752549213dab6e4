/**
 * Jest's order of test files: the client matrices first, then the rest largest first. The
 * matrices run real clients in real time against pings and back-offs of a second or less; run
 * first, on the two workers, they share the machine only with each other, instead of with
 * whatever other files the workers take meanwhile (a loaded machine made clients' pongs late).
 */
const { statSync } = require('node:fs');

/** The real-time client matrices (test/integration/grading/*-matrix.test.ts). */
const MATRIX = /-matrix\.test\.ts$/;

/** A file's size, the default order's measure of how long it takes (0 when it cannot be read). */
function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

class MatrixFirstSequencer {
  /** Matrices first, then by size, largest first. */
  sort(tests) {
    const weight = (test) => (MATRIX.test(test.path) ? 1 : 0);
    const sizes = new Map(tests.map((test) => [test.path, sizeOf(test.path)])); // one stat per file, not per comparison
    return [...tests].sort((a, b) => weight(b) - weight(a) || sizes.get(b.path) - sizes.get(a.path));
  }

  /** Every file in one shard's share, by its place in the sorted list (`--shard i/n`). */
  shard(tests, { shardIndex, shardCount }) {
    return this.sort(tests).filter((_test, i) => i % shardCount === shardIndex - 1);
  }

  /** Nothing is kept between runs: the order does not depend on earlier runs. */
  cacheResults() {}
}

module.exports = MatrixFirstSequencer;
