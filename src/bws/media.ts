/**
 * Synthetic clips: a well-formed media container of the chosen type (a Matroska EBML
 * header and Segment, or MP4 `ftyp` + `mdat` boxes) around a deterministic
 * pseudo-random payload, of exactly the requested size. Built as a stream, so a
 * 5 GiB clip costs no memory; the same seed always gives the same bytes (and MD5).
 */
import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ClipType } from '../protocol/body-worn';

/** What a clip is made of. */
export interface ClipSpec {
  type: ClipType;
  /** Total size in bytes, container headers included. */
  bytes: number;
  /** Duration written into the Matroska header, in seconds. */
  durationSeconds: number;
  /** Any text: the same seed gives the same bytes. */
  seed: string;
}

const CHUNK = 64 * 1024;

/** The clip's bytes as a stream of 64 KiB chunks. */
export function clipStream(spec: ClipSpec): Readable {
  const header = clipHeader(spec);
  let sent = 0;
  const keystream = payloadCipher(spec.seed);
  const zeros = Buffer.alloc(CHUNK);
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (sent === 0 && header.length > 0) {
        this.push(header);
        sent = header.length;
        return;
      }
      const left = spec.bytes - sent;
      if (left <= 0) {
        this.push(null);
        return;
      }
      const size = Math.min(CHUNK, left);
      this.push(keystream.update(size === CHUNK ? zeros : zeros.subarray(0, size)));
      sent += size;
    },
  });
}

/** The MD5 hex of the clip (the ETag a destination must answer), by streaming it once. */
export async function clipMd5(spec: ClipSpec): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of clipStream(spec)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The container header; throws when the size cannot hold it. */
export function clipHeader(spec: ClipSpec): Buffer {
  const header = spec.type === 'mkv' ? matroskaHeader(spec) : mp4Header(spec.bytes);
  if (spec.bytes < header.length)
    throw new RangeError(`a ${spec.type} clip needs at least ${header.length} bytes, not ${spec.bytes}`);
  return header;
}

/** Pseudo-random bytes: AES-128-CTR keystream keyed by the seed (fast and deterministic). */
function payloadCipher(seed: string) {
  const key = createHash('sha256').update(`bwc-emu clip ${seed}`).digest().subarray(0, 16);
  return createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
}

/**
 * EBML header (DocType matroska) + Segment of known size holding Info (timecode
 * scale, duration, muxing and writing app) and one Void element that carries the
 * payload, so every byte of the file belongs to a well-formed element.
 */
function matroskaHeader(spec: ClipSpec): Buffer {
  const ebml = element(
    0x1a45dfa3,
    Buffer.concat([
      uint(0x4286, 1),
      uint(0x42f7, 1),
      uint(0x42f2, 4),
      uint(0x42f3, 8),
      element(0x4282, Buffer.from('matroska')),
      uint(0x4287, 4),
      uint(0x4285, 2),
    ]),
  );
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE(spec.durationSeconds * 1000);
  const info = element(
    0x1549a966,
    Buffer.concat([
      uint(0x2ad7b1, 1_000_000),
      element(0x4489, duration),
      element(0x4d80, Buffer.from('bwc-emu')),
      element(0x5741, Buffer.from('bwc-emu')),
    ]),
  );
  // Segment header: ID + 8-byte size; inside: Info, then Void (ID 0xEC + 8-byte size) + payload.
  const fixed = ebml.length + 4 + 8 + info.length + 1 + 8;
  const payload = Math.max(0, spec.bytes - fixed);
  const segmentSize = info.length + 1 + 8 + payload;
  return Buffer.concat([ebml, id(0x18538067), size8(segmentSize), info, Buffer.from([0xec]), size8(payload)]);
}

/** `ftyp` (isom) + `mdat` header (64-bit size when the clip needs it); the payload is the mdat body. */
function mp4Header(bytes: number): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isommp41', 16, 'latin1');
  const mdatSize = bytes - ftyp.length;
  if (mdatSize < 2 ** 32) {
    const mdat = Buffer.alloc(8);
    mdat.writeUInt32BE(Math.max(8, mdatSize), 0);
    mdat.write('mdat', 4, 'latin1');
    return Buffer.concat([ftyp, mdat]);
  }
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(1, 0);
  mdat.write('mdat', 4, 'latin1');
  mdat.writeBigUInt64BE(BigInt(mdatSize), 8);
  return Buffer.concat([ftyp, mdat]);
}

function id(value: number): Buffer {
  const bytes = value > 0xffffff ? 4 : value > 0xffff ? 3 : value > 0xff ? 2 : 1;
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(value, 0, bytes);
  return out;
}

/** An EBML size on 8 bytes (marker 0x01 + 7 bytes). */
function size8(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(value) | (1n << 56n));
  return out;
}

/** An EBML size on the fewest bytes. */
function vsize(value: number): Buffer {
  for (let length = 1; length <= 8; length++) {
    if (value < 2 ** (7 * length) - 1) {
      const out = Buffer.alloc(length);
      let v = BigInt(value) | (1n << BigInt(7 * length));
      for (let i = length - 1; i >= 0; i--) {
        out[i] = Number(v & 0xffn);
        v >>= 8n;
      }
      return out;
    }
  }
  throw new RangeError(`EBML size ${value} too large`);
}

function element(elementId: number, body: Buffer): Buffer {
  return Buffer.concat([id(elementId), vsize(body.length), body]);
}

function uint(elementId: number, value: number): Buffer {
  const bytes = value > 0xffffff ? 4 : value > 0xffff ? 3 : value > 0xff ? 2 : 1;
  const body = Buffer.alloc(bytes);
  body.writeUIntBE(value, 0, bytes);
  return element(elementId, body);
}
