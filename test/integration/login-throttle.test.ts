/**
 * Failed logins throttled per remote address and per remote address and user (issue 16,
 * finding 7; issue 29): past the limit every attempt gets 429 with Retry-After, unchecked, on
 * HTTP and on the WebSocket handshake alike, until the window ends; the log gets a few lines
 * and one summary, not one line per failure. Other addresses: test/integration/login-lockout.test.ts.
 */
import { type DeviceHandle, type DeviceOptions, ManualClock } from '../../src';
import { deviceStarter } from '../helpers/devices';
import { digestRequest } from '../helpers/digest-request';
import { refusedHandshake, streamTarget, wsUrl } from '../helpers/event-stream-client';
import { LogTap } from '../helpers/event-stream-log';

const ACCOUNTS: DeviceOptions['accounts'] = [
  { name: 'root', password: 'pass', role: 'admin' },
  { name: 'viewer', password: 'view', role: 'viewer' },
];
const start = deviceStarter({ accounts: ACCOUNTS });

/** One digest login to wssession.cgi; the final status. */
async function login(device: DeviceHandle, username: string, password: string): Promise<number> {
  const path = new URL(device.urls.sessionToken).pathname;
  return (await digestRequest(device.url, { path, username, password })).status;
}

describe('login throttling', () => {
  it('answers 429 with Retry-After to every login from an address past 20 wrong ones in 10 s, until the window ends', async () => {
    const clock = new ManualClock();
    const device = await start({ clock });
    // Users of their own, each named fewer than 10 times: the address's limit is reached first.
    for (let i = 0; i < 20; i++) expect(await login(device, `user${i % 4}`, `guess${i}`)).toBe(401);
    clock.advance(4_000);
    const path = new URL(device.urls.sessionToken).pathname;
    const refused = await digestRequest(device.url, { path, username: 'root', password: 'pass' });
    expect({ status: refused.status, retryAfter: refused.headers['retry-after'], body: refused.body }).toEqual({
      status: 429,
      retryAfter: '6',
      body: 'too many failed logins from 127.0.0.1: at most 20 per 10 s; retry in 6 s\n',
    });
    // The event stream's handshake is throttled too.
    const url = wsUrl(device, streamTarget(device));
    const handshake = await refusedHandshake(url, { headers: { Authorization: 'Digest username="root"' } });
    expect(handshake.status).toBe(429);
    // As after a 401, the connection is kept for the client's next request.
    expect(handshake.headers.connection).toBeUndefined();
    clock.advance(6_000);
    expect(await login(device, 'root', 'pass')).toBe(200);
  });

  it('throttles a user guessed from an address past 10 wrong ones, for that address only, before the address', async () => {
    const clock = new ManualClock();
    const device = await start({ clock });
    for (let i = 0; i < 10; i++) expect(await login(device, 'viewer', 'wrong')).toBe(401);
    const path = new URL(device.urls.sessionToken).pathname;
    const refused = await digestRequest(device.url, { path, username: 'viewer', password: 'view' });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: 'too many failed logins for user "viewer" from 127.0.0.1: at most 10 per 10 s; retry in 10 s\n',
    });
    expect(await login(device, 'root', 'pass')).toBe(200);
  });

  it('refuses the retired limit loginFailuresPerUser, saying why', async () => {
    await expect(start({ limits: { loginFailuresPerUser: 5 } as DeviceOptions['limits'] })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining(
        '(loginFailuresPerUser: wrong logins are no longer counted per user from any address',
      ) as string,
    });
  });

  it('does not count the first leg of digest as a failure', async () => {
    const device = await start({ limits: { loginFailuresPerRemote: 2 } });
    for (let i = 0; i < 10; i++) expect(await login(device, 'root', 'pass')).toBe(200);
  });

  it('logs 10 refusals one by one per interval and the rest in one summary line (at close at the latest)', async () => {
    const log = new LogTap();
    const device = await start({ logger: log.logger });
    for (let i = 0; i < 60; i++) await login(device, 'root', `guess${i}`);
    await device.close();
    const single = log.entries.filter((e) => e.msg === 'authentication failed' && e.level === 40);
    const summaries = log.withMessage('authentication failures not logged one by one (counted by remote address)');
    expect(single).toHaveLength(10);
    expect(summaries).toEqual([expect.objectContaining({ count: 50, intervalMs: 10_000, by: { '127.0.0.1': 50 } })]);
  });
});
