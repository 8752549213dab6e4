/**
 * Pings on the event stream over a real socket: a burst within the limit is answered
 * pong for pong, and a flood gets pongs up to the limit and then a close frame with
 * 1008, which the device's log and journal record. (ws's own automatic pongs dropped a
 * connection with more than 60 pongs not yet written, with no close frame at all.)
 */
import { systemClock } from '../../src/base/clock';
import { Journal } from '../../src/base/journal';
import { deviceStarter } from '../helpers/devices';
import { configureMessage } from '../helpers/event-stream-client';
import { LogTap } from '../helpers/event-stream-log';
import { RawWebSocket, type ServerFrame } from '../helpers/event-stream-raw';
import type { DeviceHandle } from '../../src';

const PING = 0x9;
const PONG = 0xa;
const CLOSE = 0x8;

const start = deviceStarter({ initialStates: [] });
const sockets: RawWebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

async function openRaw(device: DeviceHandle): Promise<RawWebSocket> {
  const raw = await RawWebSocket.open(
    device.port,
    `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`,
  );
  sockets.push(raw);
  return raw;
}

/** Sends `count` pings carrying `p1`, `p2`, ... in a single write, as a flooding client does. */
function pingBurst(raw: RawWebSocket, count: number): void {
  raw.socket.cork();
  for (let i = 1; i <= count; i++) raw.send(`p${i}`, PING);
  raw.socket.uncork();
}

/** Takes frames until a close frame (included) or `limit` frames. */
async function framesUntilClose(raw: RawWebSocket, limit: number): Promise<ServerFrame[]> {
  const frames: ServerFrame[] = [];
  while (frames.length < limit) {
    const frame = await raw.nextFrame();
    frames.push(frame);
    if (frame.opcode === CLOSE) break;
  }
  return frames;
}

it('a burst of 60 pings in one write is answered with 60 pongs, and the session goes on', async () => {
  const device = await start();
  const raw = await openRaw(device);
  pingBurst(raw, 60);
  const frames = await framesUntilClose(raw, 60);
  expect(frames.map((f) => f.opcode)).toEqual(Array<number>(60).fill(PONG));
  expect(frames.map((f) => f.payload.toString())).toEqual(Array.from({ length: 60 }, (_, i) => `p${i + 1}`));
  raw.send(JSON.stringify(configureMessage([{ topicFilter: '' }])));
  expect((await raw.nextJson()).data).toEqual({});
});

it('a burst of 100 pings gets 60 pongs, then a close frame with 1008 that the device records', async () => {
  const log = new LogTap();
  const journal = new Journal(systemClock);
  const device = await start({ logger: log.logger, journal });
  const raw = await openRaw(device);
  pingBurst(raw, 100);
  const frames = await framesUntilClose(raw, 101);
  const close = frames.pop() as ServerFrame;
  expect(frames.map((f) => f.opcode)).toEqual(Array<number>(60).fill(PONG));
  expect(close.opcode).toBe(CLOSE);
  expect(close.payload.readUInt16BE(0)).toBe(1008);
  expect(close.payload.subarray(2).toString()).toBe('ping flood: at most 60 pings per 10 s');
  raw.destroy(); // no close frame back: the device still records the code it sent
  const gone = await log.waitFor((e) => e.msg === 'event stream disconnected', 'the session gone');
  expect(gone).toMatchObject({ code: 1008, reason: 'ping flood: at most 60 pings per 10 s' });
  expect(journal.entries({ kind: 'ws-close' })).toEqual([
    expect.objectContaining({ code: 1008, reason: 'ping flood: at most 60 pings per 10 s', by: 'device' }),
  ]);
});
