/** Comparing secrets (passwords, keys, digests) without leaking where or whether their lengths differ. */
import { timingSafeEqual } from 'node:crypto';
import { hashBytes } from './quick-hash';

/**
 * Whether `given` equals `expected` (as UTF-8), in a time that depends on neither
 * their contents nor their lengths: both are hashed with SHA-256 first, so
 * `timingSafeEqual` always compares 32 bytes and never throws on a length mismatch.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(hashBytes('sha256', given), hashBytes('sha256', expected));
}

/**
 * Whether a digest `response` equals the `expected` one (hex of the account's hash), in a
 * time that depends on neither's contents. The expected length is the algorithm's, which the
 * challenge announces, so a length mismatch may answer at once and equal lengths are compared
 * as they are, without the two hashes {@link sameSecret} spends.
 */
export function sameDigest(given: string, expected: string): boolean {
  const bytes = Buffer.from(given, 'utf8');
  return bytes.length === expected.length && timingSafeEqual(bytes, Buffer.from(expected, 'latin1'));
}

/**
 * A secret kept as its SHA-256 digest, so checking a guess hashes only the guess: one hash per
 * attempt, the fewest a check needs, however fast guesses come. Compared as {@link sameSecret} does.
 */
export class KnownSecret {
  private readonly digest: Buffer;

  constructor(secret: string) {
    this.digest = hashBytes('sha256', secret);
  }

  /** Whether `given` is the secret, in a time that depends on neither's contents nor length. */
  matches(given: string): boolean {
    return timingSafeEqual(hashBytes('sha256', given), this.digest);
  }
}
