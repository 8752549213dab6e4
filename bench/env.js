'use strict';
/** The benchmarks' knobs: numbers and names from the environment, with a clear error for a bad value. */

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

/**
 * `process.env[name]` as a comma-separated list of names, each one of `allowed` (each kept
 * once, in the order given), or `fallback` when unset. An unknown name is refused, never
 * ignored: a misspelt knob would otherwise measure something else than asked for.
 */
function listEnv(name, fallback, allowed) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((s) => s.trim());
  const bad = list.filter((s) => !allowed.includes(s));
  if (bad.length > 0) throw new Error(`${name} must list some of ${allowed.join(', ')}, not "${bad.join(',')}"`);
  return [...new Set(list)];
}

/** `process.env[name]` as one of `allowed`, or `fallback` when unset. */
function choiceEnv(name, fallback, allowed) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
  return raw;
}

/** `items` rotated left by `round` places: each round starts with the next one, so no side always goes first. */
function rotated(items, round) {
  return items.map((_, i) => items[(i + round) % items.length]);
}

module.exports = { intEnv, intList, listEnv, choiceEnv, rotated };
