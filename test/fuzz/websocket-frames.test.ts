/**
 * Fuzz surface 4, raw WebSocket frames on an open event stream session: random opcodes,
 * reserved bits, unmasked frames, fragmented and long control frames, oversized lengths,
 * invalid UTF-8, close frames with invalid codes, fragmented messages; and on a second
 * device with permessage-deflate, compressed messages (corrupt, cut short, bombs) and
 * RSV1 where it must not be. After the frames comes a configure request (the probe).
 * Each case ends as RFC 6455 and RFC 7692 say (see frame-model.ts): the probe answered,
 * or a close with the defined code; and the devices still open new sessions.
 */
import fc from 'fast-check';
import { openWithDigest } from '../helpers/event-stream-client';
import { RawWebSocket } from '../helpers/event-stream-raw';
import { deflateSequence } from './deflate-arbitraries';
import { frameSequence } from './frame-arbitraries';
import { expectedVerdict } from './frame-model';
import { type FuzzDevice, startFuzzDevice } from './fuzz-device';
import { runFuzz } from './fuzz-run';
import { CASE_TIMEOUT_MS, fuzzSettings } from './fuzz-settings';
import { Tally } from './fuzz-tally';
import { encodeFrame, type FrameSpec, plainFrame, PROBE_TEXT } from './websocket-frame';

const settings = fuzzSettings(400);
const tally = new Tally('websocket-frames', settings.seed);

const MAX_MESSAGE = 16 * 1024;
/** The largest frame ws reads before closing with 1009 (the device's hard limit for a 16 KiB message limit). */
const MAX_PAYLOAD = Math.max(MAX_MESSAGE * 16, 1024 * 1024);
const TARGET = '/svc/ws-data-stream?sources=events';

/** The client's offer: each message compressed on its own, so every message can be checked alone. */
const DEFLATE_OFFER = 'permessage-deflate; client_no_context_takeover; server_no_context_takeover';

/** Frames for the plain device, or (`deflate`) for the one with permessage-deflate. */
interface Case {
  deflate: boolean;
  frames: FrameSpec[];
}

const arbitrary: fc.Arbitrary<Case> = fc.oneof(
  { weight: 4, arbitrary: frameSequence.map((frames) => ({ deflate: false, frames })) },
  { weight: 1, arbitrary: fc.oneof(deflateSequence, frameSequence).map((frames) => ({ deflate: true, frames })) },
);

let fuzz: FuzzDevice;
let deflating: FuzzDevice;
beforeAll(async () => {
  fuzz = await startFuzzDevice({ maxMessageBytes: MAX_MESSAGE });
  deflating = await startFuzzDevice({ maxMessageBytes: MAX_MESSAGE, wsDeflate: true }, fuzz.errors);
});
afterAll(async () => {
  tally.report();
  await Promise.all([fuzz.device.close(), deflating.device.close()]);
});

/** Sends the frames and the probe on a new session; returns how it ended: `answered`, `close <code>` or `closed`. */
async function exchange({ deflate, frames }: Case): Promise<string> {
  const { device } = deflate ? deflating : fuzz;
  const offer: Record<string, string> = deflate ? { 'Sec-WebSocket-Extensions': DEFLATE_OFFER } : {};
  const target = `${TARGET}&wssession=${device.issueToken()}`;
  const ws = await RawWebSocket.open(device.port, target, offer, '127.0.0.1', CASE_TIMEOUT_MS);
  try {
    const accepted = ws.response.header('sec-websocket-extensions')[0] ?? '';
    if (deflate !== accepted.startsWith('permessage-deflate')) throw new Error(`extensions answered: "${accepted}"`);
    ws.socket.write(Buffer.concat([...frames, plainFrame(1, PROBE_TEXT)].map(encodeFrame)));
    for (;;) {
      let frame;
      try {
        frame = await ws.nextFrame(CASE_TIMEOUT_MS);
      } catch (err) {
        if ((err as Error).message.startsWith('connection closed')) return 'closed';
        throw err;
      }
      if (frame.opcode === 8) return `close ${frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005}`;
      if (frame.opcode !== 1) continue;
      // The device compresses its longer answers; the probe's answer is too short to be.
      if (deflate && !isJson(frame.payload)) continue;
      const message = JSON.parse(frame.payload.toString('utf8')) as ProbeAnswer;
      if (message.context !== 'probe') continue;
      if (message.error !== undefined) throw new Error(`the probe was refused: ${JSON.stringify(message.error)}`);
      return 'answered';
    }
  } finally {
    ws.destroy();
  }
}

/** What the probe is answered. */
interface ProbeAnswer {
  context?: string;
  error?: unknown;
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** A new digest session on each device still configures. */
async function alive(): Promise<void> {
  for (const { device } of [fuzz, deflating]) {
    const { client } = await openWithDigest(device, { ws: { perMessageDeflate: device === deflating.device } });
    try {
      const answer = await client.configure([{ topicFilter: 'tns1:Fuzz/Alive' }], 'alive');
      if (answer.error) throw new Error(`configure refused: ${JSON.stringify(answer.error)}`);
    } finally {
      await client.close();
    }
  }
}

/** The tally's name of an outcome: the device's mode, and echoed application close codes in one row. */
function label(c: Case, outcome: string): string {
  const code = Number(outcome.replace('close ', ''));
  return `${c.deflate ? 'deflate ' : ''}${code >= 3000 && code <= 4999 ? 'close 3000-4999' : outcome}`;
}

it(
  `ends ${settings.cases} random and broken frame sequences as RFC 6455 says, and keeps serving`,
  async () => {
    await runFuzz({
      settings,
      tally,
      errors: fuzz.errors,
      arbitrary,
      alive,
      check: async (c) => {
        const expected = await expectedVerdict([...c.frames, plainFrame(1, PROBE_TEXT)], MAX_PAYLOAD, c.deflate);
        const actual = await exchange(c);
        const wanted = expected.kind === 'answered' ? 'answered' : `close ${expected.code}`;
        if (actual !== wanted) throw new Error(`expected ${wanted}, got ${actual}`);
        return label(c, actual);
      },
    });
    expect(tally.count('answered')).toBeGreaterThan(0);
    expect(tally.count('close 1002')).toBeGreaterThan(0);
  },
  settings.timeoutMs,
);
