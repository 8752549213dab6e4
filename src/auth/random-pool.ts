/**
 * Cryptographically random bytes drawn 4 KiB at a time: one `randomBytes` call serves many
 * session tokens, where a call per token costs a trip into the CSPRNG each time.
 */
import { randomBytes } from 'node:crypto';
import type { ByteSource } from '../base/random';

const POOL_BYTES = 4_096;

/** A {@link ByteSource} over a pool drawn anew when used up; every byte is handed out once. */
export function pooledRandomBytes(poolBytes = POOL_BYTES): ByteSource {
  let pool: Uint8Array = new Uint8Array(0);
  let used = 0;
  return (size) => {
    if (size > poolBytes) return randomBytes(size);
    if (used + size > pool.length) {
      pool = randomBytes(poolBytes);
      used = 0;
    }
    // A copy (typed-array copies are cheap): a caller may keep the bytes past the next draw.
    const bytes = new Uint8Array(pool.subarray(used, used + size));
    used += size;
    return bytes;
  };
}
