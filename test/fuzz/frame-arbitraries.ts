/**
 * Frame sequences for the WebSocket frame surface: frames with random fields, each kind
 * of broken frame (reserved bits, reserved opcodes, no mask, fragmented or long control
 * frames, oversized lengths, invalid UTF-8, close frames with invalid codes or reasons),
 * and fragmented messages, valid and not.
 */
import fc from 'fast-check';
import { type FrameSpec, plainFrame } from './websocket-frame';

const maskKey = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });

/** Byte sequences that are not UTF-8: stray continuation, overlong, surrogate, truncated, out of range. */
const notUtf8 = fc.constantFrom(
  [0x80],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0xff],
  [0xf0, 0x9f, 0x98],
);

/** Text payloads: configure requests, random text, text with invalid UTF-8 spliced in, now and then past the device's limit. */
const textPayload: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '{"apiVersion":"1.0","method":"events:configure","params":{"eventFilterList":[{"topicFilter":""}]}}',
        '{}',
        '[]',
        'null',
      )
      .map((t) => Buffer.from(t)),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 80 }).map((t) => Buffer.from(t, 'utf8')) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 20 }), notUtf8, fc.string({ maxLength: 20 }))
      .map(([a, bad, b]) => Buffer.concat([Buffer.from(a), Buffer.from(bad), Buffer.from(b)])),
  },
  { weight: 1, arbitrary: fc.integer({ min: 16_000, max: 17_000 }).map((n) => Buffer.from(`"${'x'.repeat(n)}"`)) },
);

const closeCode = fc.oneof(
  fc.constantFrom(1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4999),
  fc.constantFrom(0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535),
  fc.integer({ min: 0, max: 65535 }),
);
const closeReason = fc.oneof(
  fc.string({ maxLength: 20 }).map((t) => Buffer.from(t, 'utf8')),
  notUtf8.map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 124, max: 130 }).map((n) => Buffer.alloc(n, 0x61)),
);
const closePayload: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(closeCode, closeReason)
      .map(([code, reason]) => Buffer.concat([Buffer.from([code >> 8, code & 255]), reason])),
  },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from([3])) },
);

const payloadFor = (opcode: number): fc.Arbitrary<Buffer> => {
  if (opcode === 1) return textPayload;
  if (opcode === 8) return closePayload;
  const limit = opcode >= 8 ? 130 : 200; // control frames may carry at most 125
  return fc.uint8Array({ maxLength: limit }).map((bytes) => Buffer.from(bytes));
};

/** One frame: mostly well-formed, each field wrong now and then. */
const frame: fc.Arbitrary<FrameSpec> = fc
  .oneof(
    { weight: 6, arbitrary: fc.constantFrom(1, 2, 8, 9, 10) },
    { weight: 1, arbitrary: fc.constantFrom(0, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15) },
  )
  .chain((opcode) =>
    fc.record({
      fin: fc.oneof({ weight: 12, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      rsv: fc.oneof(
        { weight: 10, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }) },
      ),
      opcode: fc.constant(opcode),
      masked: fc.oneof({ weight: 12, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      maskKey,
      payload: payloadFor(opcode),
      lengthForm: fc.oneof(
        { weight: 10, arbitrary: fc.constant<'minimal'>('minimal') },
        { weight: 1, arbitrary: fc.constantFrom<'16' | '64'>('16', '64') },
      ),
    }),
  );

/** A frame declaring a length past every limit (its payload is not sent). */
const oversized: fc.Arbitrary<FrameSpec> = fc
  .tuple(
    fc.constantFrom(0, 1, 2, 8, 9),
    fc.constantFrom(2n ** 53n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 32n, 1024n * 1024n + 1n),
    maskKey,
  )
  .map(([opcode, length, key]) => ({ ...plainFrame(opcode, ''), maskKey: key, oversize: length }));

/** A text or binary message cut into fragments, sometimes with a control frame between, sometimes broken. */
const fragmented: fc.Arbitrary<FrameSpec[]> = fc
  .tuple(
    fc.constantFrom(1, 2),
    textPayload,
    fc.integer({ min: 2, max: 4 }),
    fc.constantFrom('none', 'ping', 'new message', 'no end', 'control not final'),
  )
  .map(([opcode, payload, pieces, twist]) => {
    const size = Math.ceil(payload.length / pieces);
    const frames = Array.from({ length: pieces }, (_, i) => ({
      ...plainFrame(i === 0 ? opcode : 0, payload.subarray(i * size, (i + 1) * size)),
      fin: i === pieces - 1,
    }));
    if (twist === 'ping') frames.splice(1, 0, plainFrame(9, 'between'));
    if (twist === 'new message') frames.splice(1, 0, { ...plainFrame(1, '{}'), fin: false });
    if (twist === 'no end') frames.pop();
    if (twist === 'control not final') frames.splice(1, 0, { ...plainFrame(9, 'x'), fin: false });
    return frames;
  });

/** A case: one to three frames, an oversized frame last, or a fragmented message. */
export const frameSequence: fc.Arbitrary<FrameSpec[]> = fc.oneof(
  { weight: 6, arbitrary: fc.array(frame, { minLength: 1, maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.array(frame, { maxLength: 1 }), oversized).map(([before, big]) => [...before, big]),
  },
  { weight: 2, arbitrary: fragmented },
);
