/**
 * How big a fuzz run is, from the environment: `FUZZ_CASES` cases per surface (a quick
 * run inside `npm test` when unset), `FUZZ_SEED` (else `FC_SEED`, else a fixed default) so
 * every run checks the same cases, `FUZZ_BATCH` cases between two health checks.
 * `scripts/fuzz.js` sets them; a plain `jest` run uses the defaults.
 */

/** The seed when none is given: the same as the property tests' default. */
export const DEFAULT_FUZZ_SEED = 20260101;

/** Cases between two checks that the server still serves. */
const DEFAULT_BATCH = 100;

/** What one surface runs. */
export interface FuzzSettings {
  /** Cases of this surface. */
  cases: number;
  seed: number;
  batchSize: number;
  /** True when the run was asked for (`FUZZ_CASES` set), not the quick one inside `npm test`. */
  long: boolean;
  /** Jest timeout of the surface's test: generous, since a hang is caught per case anyway. */
  timeoutMs: number;
}

/** The settings of a surface whose quick run has `quickCases` cases. */
export function fuzzSettings(quickCases: number): FuzzSettings {
  const asked = wholeNumber('FUZZ_CASES');
  const cases = asked ?? quickCases;
  const seed = wholeNumber('FUZZ_SEED') ?? wholeNumber('FC_SEED') ?? DEFAULT_FUZZ_SEED;
  const batchSize = Math.max(1, wholeNumber('FUZZ_BATCH') ?? DEFAULT_BATCH);
  return { cases, seed, batchSize, long: asked !== undefined, timeoutMs: 60_000 + cases * 100 };
}

/** How long one case may take before it counts as a hang. */
export const CASE_TIMEOUT_MS = 5000;

function wholeNumber(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not "${text}"`);
  return value;
}
