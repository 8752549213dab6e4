/**
 * Hashing short strings at the lowest cost: Node's one-shot `crypto.hash` (20.12+) makes no
 * Hash object per call; older Nodes get `createHash`, with the same results.
 */
import * as crypto from 'node:crypto';

const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

/** Hex digest of the UTF-8 bytes of `text` with hash `name` (`md5`, `sha256`, ...). */
export function hashHex(name: string, text: string): string {
  return oneShot ? oneShot(name, text, 'hex') : crypto.createHash(name).update(text, 'utf8').digest('hex');
}

/** Digest bytes of the UTF-8 bytes of `text` with hash `name`. */
export function hashBytes(name: string, text: string): Buffer {
  return oneShot ? oneShot(name, text, 'buffer') : crypto.createHash(name).update(text, 'utf8').digest();
}
