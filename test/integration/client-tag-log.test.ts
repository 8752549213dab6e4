/**
 * An `X-BWC-Emu-Client` value the device does not know is logged once per request, on the
 * app's path, the fast token path and the stream handshake alike, with or without a journal,
 * and at most LOGGED_IGNORED_TAGS per interval one by one: the rest go into one summary line.
 */
import { IGNORED_TAG_LOG_INTERVAL_MS, IGNORED_TAG_MESSAGE, LOGGED_IGNORED_TAGS } from '../../src/base/client-tag';
import { ManualClock } from '../../src/base/clock';
import { deviceStarter } from '../helpers/devices';
import { handshake, streamTarget, wsUrl } from '../helpers/event-stream-client';
import { LogTap } from '../helpers/event-stream-log';
import { sendRequest } from '../helpers/http';

const start = deviceStarter();
const WRONG = { 'X-BWC-Emu-Client': 'Dashboard' };
const SUMMARY = 'X-BWC-Emu-Client values ignored, not logged one by one (counted by remote address)';

describe('an ignored X-BWC-Emu-Client value', () => {
  it('is logged once per request on a device without a journal: the app, the fast token path, a handshake', async () => {
    const tap = new LogTap();
    const device = await start({ logger: tap.logger });
    const tokenPath = new URL(device.urls.sessionToken).pathname;
    await sendRequest(device.url, { path: tokenPath, headers: WRONG });
    await sendRequest(device.url, { path: `${tokenPath}?via=app`, headers: WRONG });
    await sendRequest(device.url, { path: '/nowhere', headers: WRONG });
    const refused = await handshake(wsUrl(device, streamTarget(device)), { headers: WRONG });
    expect(refused.ok ? 101 : refused.status).toBe(401);
    const ignored = tap.withMessage(IGNORED_TAG_MESSAGE);
    expect(ignored.map((e) => [e.level, e.value])).toEqual(Array(4).fill([30, 'Dashboard']));
    expect(ignored.every((e) => typeof e.remote === 'string')).toBe(true);
  });

  it(`logs ${LOGGED_IGNORED_TAGS} per interval one by one and counts the rest into one summary line`, async () => {
    const tap = new LogTap();
    const clock = new ManualClock();
    const device = await start({ logger: tap.logger, clock });
    for (let i = 0; i < LOGGED_IGNORED_TAGS + 3; i++) await sendRequest(device.url, { path: '/', headers: WRONG });
    expect(tap.withMessage(IGNORED_TAG_MESSAGE)).toHaveLength(LOGGED_IGNORED_TAGS);
    expect(tap.withMessage(SUMMARY)).toEqual([]);
    clock.advance(IGNORED_TAG_LOG_INTERVAL_MS);
    await sendRequest(device.url, { path: '/', headers: WRONG });
    expect(tap.withMessage(SUMMARY)).toEqual([
      expect.objectContaining({ level: 40, count: 3, intervalMs: IGNORED_TAG_LOG_INTERVAL_MS }),
    ]);
    expect(tap.withMessage(IGNORED_TAG_MESSAGE)).toHaveLength(LOGGED_IGNORED_TAGS + 1);
  });
});
