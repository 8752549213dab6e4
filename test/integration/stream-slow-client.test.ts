/**
 * A client that stops reading, over a real socket: once more than maxBufferedBytes wait
 * for it, the device drops what waits and sends its close frame (1013) behind no more
 * than the socket's high-water mark, so the client, reading again, gets it after what the
 * kernel held rather than after everything it missed; the device records 1013 even when
 * the client never answers the close. The device waits 30 s (as ws does) for a slow
 * client to read its way to the close frame: one back after 10 s reads it and answers it,
 * one that never comes back is cut at 30 s. Timers are Jest's fake ones there: no sleeps.
 */
import { setImmediate as nextLoop } from 'node:timers/promises';
import { systemClock } from '../../src/base/clock';
import { Journal } from '../../src/base/journal';
import type { DeviceHandle } from '../../src';
import { deviceStarter } from '../helpers/devices';
import { configureMessage } from '../helpers/event-stream-client';
import { CLOSE_TIMEOUT_MS, SLOW_CLOSE_TIMEOUT_MS } from '../../src/events/close-handshake';
import { type LogEntry, LogTap } from '../helpers/event-stream-log';
import { RawWebSocket } from '../helpers/event-stream-raw';

const MIB = 1024 * 1024;
const MOTION = 'tns1:VideoSource/MotionAlarm';
/** Far more than the kernel's socket buffers hold for a client that does not read (a few MiB). */
const MAX_BUFFERED = 16 * MIB;

const start = deviceStarter({ initialStates: [] });

afterEach(() => {
  jest.useRealTimers();
});

/**
 * Publishes 16 KiB events in ticks, as a scenario does, until the device gives up on the
 * client (at most 4 times the limit); returns the log line that says so.
 */
async function publishUntilTooSlow(device: { publish: DeviceHandle['publish'] }, log: LogTap): Promise<LogEntry> {
  const blob = 'x'.repeat(16 * 1024);
  let published = 0;
  while (
    log.withMessage('client too slow: closing the session').length === 0 &&
    published < (4 * MAX_BUFFERED) / blob.length
  ) {
    for (let i = 0; i < 16; i++, published++) device.publish(MOTION, { data: { blob, n: String(published) } });
    await nextLoop();
  }
  const [tooSlow] = log.withMessage('client too slow: closing the session');
  expect(tooSlow).toMatchObject({ limit: MAX_BUFFERED });
  return tooSlow;
}

/** Reads frames up to the close frame; returns it and the bytes of the notifications before it. */
async function readToClose(slow: RawWebSocket): Promise<{ close: Buffer; notifications: number; bytes: number }> {
  let notifications = 0;
  let bytes = 0;
  let frame = await slow.nextFrame();
  for (; frame.opcode !== 0x8; frame = await slow.nextFrame()) {
    notifications++;
    bytes += frame.payload.length;
  }
  return { close: frame.payload, notifications, bytes };
}

/** A client of `device` subscribed to everything, then not reading. */
async function pausedClient(device: { port: number; issueToken: () => string }): Promise<RawWebSocket> {
  const slow = await RawWebSocket.open(
    device.port,
    `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`,
  );
  slow.send(JSON.stringify(configureMessage([{ topicFilter: '' }])));
  expect((await slow.nextJson()).data).toEqual({});
  slow.pause();
  return slow;
}

/** A device that gives up on a client once MAX_BUFFERED wait for it, its log and journal, and a paused client. */
async function slowClientSetup(): Promise<{
  log: LogTap;
  journal: Journal;
  device: DeviceHandle;
  slow: RawWebSocket;
}> {
  const log = new LogTap();
  const journal = new Journal(systemClock);
  const device = await start({ maxBufferedBytes: MAX_BUFFERED, logger: log.logger, journal });
  return { log, journal, device, slow: await pausedClient(device) };
}

/** Fake timers for what the device sets from now on (its close timers); I/O and immediates stay real. */
function fakeTimers(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'] });
}

it('gets the 1013 close frame behind what the kernel held, not behind all that waited', async () => {
  const { log, journal, device, slow } = await slowClientSetup();
  let gotBeforeClose = -1;
  try {
    await publishUntilTooSlow(device, log);
    slow.resume();
    const { close, notifications, bytes } = await readToClose(slow);
    expect(close.readUInt16BE(0)).toBe(1013);
    expect(close.subarray(2).toString()).toBe('client too slow: send buffer full');
    // Before, the close frame came after all of the 16 MiB that waited, and more.
    expect(bytes).toBeLessThan(MAX_BUFFERED / 2);
    gotBeforeClose = notifications;
  } finally {
    slow.destroy(); // without answering the close
  }
  const gone = await log.waitFor((e) => e.msg === 'event stream disconnected', 'the slow session gone');
  expect(gone).toMatchObject({ code: 1013, reason: 'client too slow: send buffer full', sent: gotBeforeClose });
  expect(gone.dropped).toBeGreaterThan(0);
  expect(journal.entries({ kind: 'ws-close' })).toEqual([
    expect.objectContaining({ code: 1013, reason: 'client too slow: send buffer full', by: 'device' }),
  ]);
});

it('waits for a client back after twice the usual close timeout: it reads the 1013 frame and answers it', async () => {
  const { log, device, slow } = await slowClientSetup();
  try {
    fakeTimers();
    await publishUntilTooSlow(device, log);
    // Away for 10 s: the usual close timeout (5 s) would have cut it.
    jest.advanceTimersByTime(2 * CLOSE_TIMEOUT_MS);
    expect(log.withMessage('close not answered in time: connection cut')).toEqual([]);
    jest.useRealTimers();
    slow.resume();
    const { close } = await readToClose(slow);
    expect(close.readUInt16BE(0)).toBe(1013);
    expect(close.subarray(2).toString()).toBe('client too slow: send buffer full');
    // It answers the close; the device then closes the connection at once.
    slow.send(close, 0x8);
    await slow.closed();
  } finally {
    slow.destroy();
  }
  const gone = await log.waitFor((e) => e.msg === 'event stream disconnected', 'the slow session gone');
  expect(gone).toMatchObject({ code: 1013, reason: 'client too slow: send buffer full' });
  expect(log.withMessage('close not answered in time: connection cut')).toEqual([]);
});

it('cuts a client too slow to read that does not come back within 30 s, the 1013 recorded', async () => {
  const { log, journal, device, slow } = await slowClientSetup();
  try {
    fakeTimers();
    await publishUntilTooSlow(device, log);
    jest.advanceTimersByTime(SLOW_CLOSE_TIMEOUT_MS - 1);
    expect(log.withMessage('close not answered in time: connection cut')).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(log.withMessage('close not answered in time: connection cut')).toEqual([
      expect.objectContaining({ code: 1013 }),
    ]);
    jest.useRealTimers();
    slow.resume();
    await slow.closed();
  } finally {
    slow.destroy();
  }
  await log.waitFor((e) => e.msg === 'event stream disconnected', 'the slow session gone');
  expect(journal.entries({ kind: 'ws-close' })).toEqual([
    expect.objectContaining({ code: 1013, reason: 'client too slow: send buffer full', by: 'device' }),
  ]);
});
