/**
 * What RFC 6455 (and RFC 7692 when permessage-deflate is negotiated) says a server does
 * with a sequence of client frames, checked in the order a frame is read (header bits,
 * opcode, control frame rules, mask, length, payload): the session goes on (the probe
 * after the frames is answered), or the server closes with 1002 (protocol error), 1007
 * (invalid UTF-8 or compressed data), 1009 (too big), or echoes a valid close frame
 * (1005 for one without a code).
 */
import { isUtf8 } from 'node:buffer';
import { MessageInflater } from './inflate-message';
import { declaredLength, type FrameSpec, lengthField } from './websocket-frame';

/** The expected end of a case. */
export type FrameVerdict = { kind: 'answered' } | { kind: 'close'; code: number };

/** Largest JavaScript-safe payload length ws reads (2^53 - 1). */
const MAX_SAFE = 2n ** 53n - 1n;

/** RSV1: the message is compressed (permessage-deflate). */
const RSV1 = 4;

/** Close codes a client may send (RFC 6455 section 7.4, the IANA registry, and the 3000-4999 ranges). */
export function isValidCloseCode(code: number): boolean {
  return (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
}

/**
 * The verdict for `frames` (the probe last) on a server whose largest message is
 * `maxPayload` bytes, with or without permessage-deflate (each message inflated on its own).
 */
export async function expectedVerdict(
  frames: readonly FrameSpec[],
  maxPayload: number,
  deflate = false,
): Promise<FrameVerdict> {
  let fragmented = 0; // opcode of the message being continued, 0 when none
  let inflater: MessageInflater | undefined; // the message is compressed
  let parts: Buffer[] = [];
  let total = 0n;
  const close = (code: number): FrameVerdict => {
    inflater?.dispose();
    return { kind: 'close', code };
  };
  for (const frame of frames) {
    const { opcode } = frame;
    const control = opcode >= 8;
    const rsv1 = (frame.rsv & RSV1) !== 0;
    if ((frame.rsv & ~RSV1) !== 0) return close(1002);
    if (rsv1 && (!deflate || opcode === 0 || control)) return close(1002);
    if (opcode === 0 && fragmented === 0) return close(1002);
    if ((opcode === 1 || opcode === 2) && fragmented !== 0) return close(1002);
    if (control && (opcode > 10 || !frame.fin)) return close(1002);
    if (!control && opcode > 2) return close(1002);
    const field = lengthField(frame);
    if (control && (field > 125 || (opcode === 8 && field === 1))) return close(1002);
    if (!frame.masked) return close(1002);
    const declared = declaredLength(frame);
    if (declared > MAX_SAFE) return close(1009);
    if (!control) {
      total += declared;
      if (total > BigInt(maxPayload)) return close(1009);
    }
    if (frame.oversize !== undefined) throw new Error('an oversized frame must exceed the limits');
    if (opcode === 8) return close(closeCode(frame.payload));
    if (control) continue;
    if (opcode !== 0) {
      fragmented = opcode;
      if (rsv1) inflater = new MessageInflater(maxPayload);
    }
    // A compressed fragment is inflated as soon as it is read, before the next frame.
    const problem = await inflater?.push(frame.payload, frame.fin);
    if (problem !== undefined) return close(problem === 'invalid' ? 1007 : 1009);
    if (!inflater) parts.push(frame.payload);
    if (!frame.fin) continue;
    const message = inflater ? inflater.message : Buffer.concat(parts);
    if (fragmented === 1 && !isUtf8(message)) return close(1007);
    [fragmented, inflater, parts, total] = [0, undefined, [], 0n];
  }
  return { kind: 'answered' };
}

/** The code a close frame is answered with: its own, or why it is refused. */
function closeCode(payload: Buffer): number {
  if (payload.length === 0) return 1005;
  const code = payload.readUInt16BE(0);
  if (!isValidCloseCode(code)) return 1002;
  if (!isUtf8(payload.subarray(2))) return 1007;
  return code;
}
