/**
 * Randomness: a small seeded pseudo-random generator, so a scenario's jitter is
 * reproducible (the same seed gives the same sequence on every run and platform),
 * and unbiased random strings for tokens.
 */
import { randomBytes } from 'node:crypto';

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

/** A source of random bytes like `crypto.randomBytes`; injectable so a test can make the draw deterministic. */
export type ByteSource = (size: number) => Uint8Array;

/**
 * `length` characters drawn uniformly from `alphabet` (1 to 256 characters) with
 * cryptographic randomness. Bytes at or past the largest multiple of the alphabet's
 * size are discarded (rejection sampling), since `byte % size` would favour the first
 * `256 % size` characters whenever the size does not divide 256.
 */
export function randomString(length: number, alphabet: string, source: ByteSource = randomBytes): string {
  const size = alphabet.length;
  if (size < 1 || size > 256) throw new RangeError(`an alphabet needs 1 to 256 characters, not ${size}`);
  const limit = 256 - (256 % size);
  let out = '';
  while (out.length < length) {
    for (const byte of source(length - out.length)) {
      if (byte < limit) out += alphabet[byte % size];
      if (out.length === length) break;
    }
  }
  return out;
}
