/**
 * A small seeded pseudo-random generator, so a scenario's jitter is reproducible:
 * the same seed gives the same sequence on every run and platform.
 */

/**
 * mulberry32: returns a function giving numbers in [0, 1), fully determined by `seed`
 * (any number; it is truncated to 32 bits).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
