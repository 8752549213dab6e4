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
