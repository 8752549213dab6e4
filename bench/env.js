'use strict';
/** The benchmarks' knobs: whole numbers from the environment, with a clear error for a bad value. */

/** `process.env[name]` as a whole number of at least `min` (1 by default), or `fallback` when unset. */
function intEnv(name, fallback, min = 1) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number of ${min} or more, not "${raw}"`);
  return value;
}

/** `process.env[name]` as a comma-separated list of whole numbers of 1 or more, or `fallback` when unset. */
function intList(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map(Number);
  if (!list.every((n) => Number.isInteger(n) && n > 0))
    throw new Error(`${name} must list whole numbers, not "${raw}"`);
  return list;
}

module.exports = { intEnv, intList };
