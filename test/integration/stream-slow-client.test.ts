/**
 * A client that stops reading, over a real socket: once more than maxBufferedBytes wait
 * for it, the device drops what waits and sends its close frame (1013) behind no more
 * than the socket's high-water mark, so the client, reading again, gets it after what the
 * kernel held rather than after everything it missed; the device records 1013 even when
 * the client never answers the close.
 */
import { setImmediate as nextLoop } from 'node:timers/promises';
import { systemClock } from '../../src/base/clock';
import { Journal } from '../../src/base/journal';
import { deviceStarter } from '../helpers/devices';
import { configureMessage } from '../helpers/event-stream-client';
import { LogTap } from '../helpers/event-stream-log';
import { RawWebSocket } from '../helpers/event-stream-raw';

const MIB = 1024 * 1024;
const MOTION = 'tns1:VideoSource/MotionAlarm';
/** Far more than the kernel's socket buffers hold for a client that does not read (a few MiB). */
const MAX_BUFFERED = 16 * MIB;

const start = deviceStarter({ initialStates: [] });

it('gets the 1013 close frame behind what the kernel held, not behind all that waited', async () => {
  const log = new LogTap();
  const journal = new Journal(systemClock);
  const device = await start({ maxBufferedBytes: MAX_BUFFERED, logger: log.logger, journal });
  let gotBeforeClose = -1;
  const slow = await RawWebSocket.open(
    device.port,
    `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`,
  );
  try {
    slow.send(JSON.stringify(configureMessage([{ topicFilter: '' }])));
    expect((await slow.nextJson()).data).toEqual({});
    slow.pause();

    const blob = 'x'.repeat(16 * 1024);
    let published = 0;
    // Publish in ticks, as a scenario does, until the device gives up on the client (at most 4 times the limit).
    while (
      log.withMessage('client too slow: closing the session').length === 0 &&
      published < (4 * MAX_BUFFERED) / blob.length
    ) {
      for (let i = 0; i < 16; i++, published++) device.publish(MOTION, { data: { blob, n: String(published) } });
      await nextLoop();
    }
    const [tooSlow] = log.withMessage('client too slow: closing the session');
    expect(tooSlow).toMatchObject({ limit: MAX_BUFFERED });

    slow.resume();
    let notifications = 0;
    let notificationBytes = 0;
    let frame = await slow.nextFrame();
    for (; frame.opcode !== 0x8; frame = await slow.nextFrame()) {
      notifications++;
      notificationBytes += frame.payload.length;
    }
    expect(frame.payload.readUInt16BE(0)).toBe(1013);
    expect(frame.payload.subarray(2).toString()).toBe('client too slow: send buffer full');
    // Before, the close frame came after all of the 16 MiB that waited, and more.
    expect(notificationBytes).toBeLessThan(MAX_BUFFERED / 2);
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
