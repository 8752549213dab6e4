/**
 * Compressed messages for a device with permessage-deflate: what a real client sends
 * (deflated, sync-flushed, the `00 00 ff ff` tail dropped), a final deflate block,
 * corrupted or random compressed bytes, bombs that inflate past the message limits,
 * and RSV1 where it must not be (continuation and control frames).
 */
import { constants, deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { type FrameSpec, plainFrame } from './websocket-frame';

const CONFIGURE =
  '{"apiVersion":"1.0","context":"z","method":"events:configure","params":{"eventFilterList":[{"topicFilter":""}]}}';

/** Text to compress: a configure request, random text, bytes that are not UTF-8, a run of spaces. */
const plain: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(Buffer.from(CONFIGURE)) },
  { weight: 3, arbitrary: fc.string({ maxLength: 60 }).map((t) => Buffer.from(t, 'utf8')) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7b, 0xc0, 0x80, 0x7d]), Buffer.from([0xed, 0xa0, 0x80])) },
  { weight: 1, arbitrary: fc.constantFrom(20_000, 1_100_000).map((n) => Buffer.alloc(n, 0x20)) },
);

/** `text` deflated as a client does: sync flush, the final empty stored block dropped. */
function clientDeflate(text: Buffer): Buffer {
  const out = deflateRawSync(text, { finishFlush: constants.Z_SYNC_FLUSH });
  return out.subarray(0, out.length - 4);
}

/** Compressed payloads: well-formed, final-block, one byte flipped, cut short, random. */
const compressedPayload: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: plain.map(clientDeflate) },
  { weight: 1, arbitrary: plain.map((t) => deflateRawSync(t)) },
  {
    weight: 2,
    arbitrary: fc.tuple(plain.map(clientDeflate), fc.nat(), fc.integer({ min: 1, max: 255 })).map(([bytes, i, x]) => {
      const copy = Buffer.from(bytes);
      copy[i % copy.length] ^= x;
      return copy;
    }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(plain.map(clientDeflate), fc.nat()).map(([bytes, n]) => bytes.subarray(0, n % bytes.length)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes)) },
);

/** A compressed message: one frame, or fragments (RSV1 on the first only, or wrongly on a later one). */
const compressedMessage: fc.Arbitrary<FrameSpec[]> = fc
  .tuple(fc.constantFrom(1, 1, 2), compressedPayload, fc.integer({ min: 1, max: 3 }), fc.boolean())
  .map(([opcode, payload, pieces, rsvOnLater]) => {
    const size = Math.ceil(payload.length / pieces) || 1;
    return Array.from({ length: pieces }, (_, i) => ({
      ...plainFrame(i === 0 ? opcode : 0, payload.subarray(i * size, (i + 1) * size)),
      fin: i === pieces - 1,
      rsv: i === 0 || (rsvOnLater && pieces > 1 && i === pieces - 1) ? 4 : 0,
    }));
  });

/** RSV1 on a control frame. */
const compressedControl: fc.Arbitrary<FrameSpec[]> = fc
  .constantFrom(8, 9, 10)
  .map((opcode) => [{ ...plainFrame(opcode, opcode === 8 ? Buffer.from([0x03, 0xe8]) : ''), rsv: 4 }]);

/** A case for the deflate device: compressed messages, uncompressed ones between, now and then RSV1 misplaced. */
export const deflateSequence: fc.Arbitrary<FrameSpec[]> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(compressedMessage, { minLength: 1, maxLength: 2 }).map((messages) => messages.flat()),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(compressedMessage, fc.constant([plainFrame(1, '{}')])).map(([a, b]) => [...b, ...a]),
  },
  { weight: 1, arbitrary: compressedControl },
);
