/**
 * Unique ids without a trip into the CSPRNG for each: random hex digits drawn once (and again
 * when the count runs out), then a count. For names and ids that must not repeat, not for
 * secrets: the count is guessable.
 */
import { randomBytes } from 'node:crypto';

/** A maker of ids: `2 * randomByteCount` random hex digits, then `countDigits` hex digits of count. */
export function countedIds(randomByteCount: number, countDigits: number): () => string {
  const limit = 16 ** countDigits;
  let prefix = randomBytes(randomByteCount).toString('hex');
  let next = 0;
  return () => {
    if (next >= limit) {
      prefix = randomBytes(randomByteCount).toString('hex');
      next = 0;
    }
    return `${prefix}${(next++).toString(16).padStart(countDigits, '0')}`;
  };
}
