/**
 * Digest nonces that a server can check without remembering them:
 * hex(issue time | counter | HMAC-SHA-256(secret, issue time | counter) truncated to 16 bytes).
 * The HMAC makes them unforgeable and binds the issue time; the counter (from a random
 * start) makes each one unique without drawing random bytes per nonce.
 *
 * The nonces issued or checked lately are remembered (a bounded table, oldest out first),
 * so that the usual case, a client answering the challenge it just got or reusing a nonce,
 * is a lookup instead of an HMAC. Anything else is checked by its HMAC, as before.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BODY_BYTES = 16; // timestamp (8), counter (8)
const MAC_BYTES = 16;
/** Length of a nonce in hex digits. */
export const NONCE_HEX_LENGTH = (BODY_BYTES + MAC_BYTES) * 2;
/** Nonces remembered by default: far more than the clients that answer a challenge at once. */
export const DEFAULT_REMEMBERED_NONCES = 1_024;
const TWO_TO_32 = 2 ** 32;
const LOWER_HEX = /^[0-9a-f]+$/;

/** Issues and checks nonces under one secret. */
export class NonceStamps {
  private secret: Buffer;
  private counterHigh: number;
  private counterLow: number;
  /** Nonce -> issue time of those issued or checked lately; `order` evicts the oldest when full. */
  private readonly known = new Map<string, number>();
  private readonly order: (string | undefined)[];
  private next = 0;
  private readonly body = Buffer.alloc(BODY_BYTES);

  /** `secret`: the HMAC key, random when omitted; `remembered`: nonces kept for a check without HMAC. */
  constructor(secret?: Buffer, remembered = DEFAULT_REMEMBERED_NONCES) {
    this.secret = secret ?? randomBytes(32);
    const start = randomBytes(8);
    this.counterHigh = start.readUInt32BE(0);
    this.counterLow = start.readUInt32BE(4);
    this.order = new Array<string | undefined>(Math.max(1, remembered));
  }

  /** A new nonce issued at `now` (ms). */
  issue(now: number): string {
    const time = Math.max(0, Math.floor(now));
    const body = this.body;
    body.writeUInt32BE(Math.floor(time / TWO_TO_32) >>> 0, 0);
    body.writeUInt32BE(time >>> 0, 4);
    this.counterLow = (this.counterLow + 1) >>> 0;
    if (this.counterLow === 0) this.counterHigh = (this.counterHigh + 1) >>> 0;
    body.writeUInt32BE(this.counterHigh, 8);
    body.writeUInt32BE(this.counterLow, 12);
    const nonce = body.toString('hex') + this.mac(body).toString('hex', 0, MAC_BYTES);
    this.remember(nonce, time);
    return nonce;
  }

  /** The issue time of a nonce issued under the current secret, or undefined for any other string. */
  issuedAt(nonce: string): number | undefined {
    const known = this.known.get(nonce);
    if (known !== undefined) return known;
    if (nonce.length !== NONCE_HEX_LENGTH || !LOWER_HEX.test(nonce)) return undefined;
    const raw = Buffer.from(nonce, 'hex');
    const body = raw.subarray(0, BODY_BYTES);
    if (!timingSafeEqual(raw.subarray(BODY_BYTES), this.mac(body).subarray(0, MAC_BYTES))) return undefined;
    const time = body.readUInt32BE(0) * TWO_TO_32 + body.readUInt32BE(4);
    this.remember(nonce, time);
    return time;
  }

  /** A new secret, as after a reboot: every nonce issued before is refused from now on. */
  renew(): void {
    this.secret = randomBytes(32);
    this.known.clear();
    this.order.fill(undefined);
  }

  private mac(body: Buffer): Buffer {
    return createHmac('sha256', this.secret).update(body).digest();
  }

  private remember(nonce: string, time: number): void {
    const evicted = this.order[this.next];
    if (evicted !== undefined) this.known.delete(evicted);
    this.order[this.next] = nonce;
    this.next = (this.next + 1) % this.order.length;
    this.known.set(nonce, time);
  }
}
