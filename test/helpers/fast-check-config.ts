/**
 * Property test settings: a fixed seed so every run checks the same cases (set
 * FC_SEED=<number> to explore others; a failure prints its seed and path).
 */
import type { Parameters } from 'fast-check';

/** Default seed: runs are reproducible unless FC_SEED says otherwise. */
const DEFAULT_SEED = 20260101;

/** `fc.assert` parameters with `numRuns` runs and the configured seed. */
export function propertyRuns<T>(numRuns: number): Parameters<T> {
  const fromEnv = Number(process.env.FC_SEED);
  return { numRuns, seed: Number.isInteger(fromEnv) && process.env.FC_SEED !== '' ? fromEnv : DEFAULT_SEED };
}
