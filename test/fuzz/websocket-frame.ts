/**
 * A client WebSocket frame described field by field, so a fuzz case can get any field
 * wrong (reserved bits, opcode, mask bit, a non-minimal or oversized length), and its
 * bytes as sent.
 */

/** One frame as the fuzz case means to send it. */
export interface FrameSpec {
  fin: boolean;
  /** RSV1-RSV3 as a 3-bit number (RSV1 is 4). */
  rsv: number;
  opcode: number;
  masked: boolean;
  maskKey: readonly number[];
  payload: Buffer;
  /** How the length is written: the shortest form, or the 16- or 64-bit form whatever the length. */
  lengthForm: 'minimal' | '16' | '64';
  /** A declared length far beyond the payload (which is then not sent): the frame is oversized. */
  oversize?: bigint;
}

/** The 7-bit length field a frame is sent with (126 and 127 announce the longer forms). */
export function lengthField(frame: FrameSpec): number {
  if (frame.oversize !== undefined) return 127;
  if (frame.lengthForm === '16') return 126;
  if (frame.lengthForm === '64') return 127;
  const n = frame.payload.length;
  return n < 126 ? n : n < 65536 ? 126 : 127;
}

/** The length a frame declares. */
export function declaredLength(frame: FrameSpec): bigint {
  return frame.oversize ?? BigInt(frame.payload.length);
}

/** The bytes of a frame. */
export function encodeFrame(frame: FrameSpec): Buffer {
  const field = lengthField(frame);
  const head = [
    ((frame.fin ? 1 : 0) << 7) | ((frame.rsv & 7) << 4) | (frame.opcode & 15),
    ((frame.masked ? 1 : 0) << 7) | field,
  ];
  let extended = Buffer.alloc(0);
  if (field === 126) {
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(Number(declaredLength(frame)));
  } else if (field === 127) {
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(declaredLength(frame));
  }
  if (frame.oversize !== undefined)
    return Buffer.concat([Buffer.from(head), extended, frame.masked ? Buffer.from(frame.maskKey) : Buffer.alloc(0)]);
  const body = Buffer.from(frame.payload);
  if (frame.masked) for (let i = 0; i < body.length; i++) body[i] ^= frame.maskKey[i & 3];
  return Buffer.concat([
    Buffer.from(head),
    extended,
    frame.masked ? Buffer.from(frame.maskKey) : Buffer.alloc(0),
    body,
  ]);
}

/** A well-formed, final, masked frame. */
export function plainFrame(opcode: number, payload: Buffer | string): FrameSpec {
  return {
    fin: true,
    rsv: 0,
    opcode,
    masked: true,
    maskKey: [0x12, 0x34, 0x56, 0x78],
    payload: Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8'),
    lengthForm: 'minimal',
  };
}

/** The configure request sent after every case: its answer shows the session still works. */
export const PROBE_TEXT = JSON.stringify({
  apiVersion: '1.0',
  context: 'probe',
  method: 'events:configure',
  params: { eventFilterList: [{ topicFilter: 'tns1:Fuzz/Probe' }] },
});
