/**
 * Fault switches of authentication and the device's life, over real sockets: digest nonces
 * that expire (with or without stale=true) or are valid once, and a reboot (port closed,
 * sessions, tokens and nonces gone, initial states back, logins refused for a while).
 * Devices run on a ManualClock, so nonce ages and refusal windows are exact.
 */
import { type DeviceHandle, digestAuthorization, ManualClock } from '../../../src';
import { digestRequest, fetchChallenges } from '../../helpers/digest-request';
import {
  fetchToken,
  openWithDigest,
  openWithToken,
  refusedHandshake,
  streamTarget,
  wsUrl,
} from '../../helpers/event-stream-client';
import { challengesOf, type HttpResult, sendRequest } from '../../helpers/http';
import {
  describeFault,
  faultRig,
  MARKER_FILTER,
  PORT,
  portStates,
  tcpConnect,
  untilMarker,
  waitFor,
} from './fault-test';

const rig = faultRig({ auth: 'digest' });

/** The request target of wssession.cgi (GET, answers a session token). */
function sessionPath(device: DeviceHandle): string {
  return new URL(device.urls.sessionToken).pathname;
}

/** Digest credentials for `path`, answering the challenges of one 401 (a nonce issued now). */
async function freshAuthorization(device: DeviceHandle, path: string, nc = 1): Promise<string> {
  return digestAuthorization(await fetchChallenges(device.url, path), 'root', 'pass', 'GET', path, { nc });
}

function get(device: DeviceHandle, path: string, authorization: string): Promise<HttpResult> {
  return sendRequest(device.url, { method: 'GET', path, headers: { Authorization: authorization } });
}

/** The Digest challenge of a 401. */
function digestChallenge(answer: HttpResult): string {
  expect(answer.status).toBe(401);
  const challenge = challengesOf(answer).find((c) => c.startsWith('Digest '));
  if (challenge === undefined) throw new Error(`no Digest challenge in ${JSON.stringify(answer.headers)}`);
  return challenge;
}

describeFault('digest', () => {
  it('nonceLifetimeMs: a nonce older than the lifetime is refused with stale=true', async () => {
    const clock = new ManualClock();
    const device = await rig.start({ clock });
    await device.fault('digest', { nonceLifetimeMs: 1000 });
    const path = sessionPath(device);
    const authorization = await freshAuthorization(device, path);
    clock.advance(999);
    expect((await get(device, path, authorization)).status).toBe(200);
    clock.advance(1);
    expect(digestChallenge(await get(device, path, authorization))).toMatch(/, stale=true$/);
    // Answering the new challenge works: what a client that reads stale=true does.
    expect((await digestRequest(device.url, { path })).status).toBe(200);
  });

  it('stale: false: an expired nonce is refused like a wrong password, without stale=true', async () => {
    const clock = new ManualClock();
    const device = await rig.start({ clock });
    await device.fault('digest', { nonceLifetimeMs: 1000, stale: false });
    const path = sessionPath(device);
    const authorization = await freshAuthorization(device, path);
    clock.advance(1000);
    expect(digestChallenge(await get(device, path, authorization))).not.toMatch(/stale/);
  });

  it('nonceOnce: a second request with the same nonce gets 401 stale=true', async () => {
    const device = await rig.start();
    await device.fault('digest', { nonceOnce: true });
    const path = sessionPath(device);
    const challenges = await fetchChallenges(device.url, path);
    const first = digestAuthorization(challenges, 'root', 'pass', 'GET', path, { nc: 1 });
    const second = digestAuthorization(challenges, 'root', 'pass', 'GET', path, { nc: 2 });
    expect((await get(device, path, first)).status).toBe(200);
    expect(digestChallenge(await get(device, path, second))).toMatch(/, stale=true$/);
  });

  it('nonceOnce on the stream handshake: the same credentials again get 401 stale=true', async () => {
    const device = await rig.start();
    await device.fault('digest', { nonceOnce: true });
    const { client, authorization } = await openWithDigest(device);
    rig.track(client);
    const again = await refusedHandshake(wsUrl(device, streamTarget(device)), {
      headers: { Authorization: authorization },
    });
    expect(again.status).toBe(401);
    expect(again.headersDistinct['www-authenticate']?.[0]).toMatch(/, stale=true$/);
  });

  it('after clearFaults: the configured lifetime and nonce reuse are back', async () => {
    const clock = new ManualClock();
    const device = await rig.start({ clock });
    await device.fault('digest', { nonceLifetimeMs: 1000, nonceOnce: true });
    const path = sessionPath(device);
    const authorization = await freshAuthorization(device, path);
    expect((await get(device, path, authorization)).status).toBe(200);
    expect(device.clearFaults('digest')).toEqual(['digest']);
    clock.advance(5000);
    // The default lifetime is 300 s, and a lenient device accepts a nonce again.
    expect((await get(device, path, authorization)).status).toBe(200);
    expect((await get(device, path, authorization)).status).toBe(200);
  });
});

describeFault('reboot', () => {
  it('port closed during downMs; then sessions, tokens and nonces are gone, a fresh login works, initial states are back', async () => {
    const device = await rig.start({ auth: 'both', clock: new ManualClock() });
    const path = sessionPath(device);
    const client = await openWithToken(device, await fetchToken(device));
    rig.track(client);
    await client.configure([{ topicFilter: PORT }, MARKER_FILTER]);
    expect(portStates(await untilMarker(device, client))).toEqual([
      { port: '1', state: '0' },
      { port: '2', state: '0' },
    ]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } }, { stateful: true });
    const unusedToken = await fetchToken(device);
    const oldAuthorization = await freshAuthorization(device, path);
    expect((await get(device, path, oldAuthorization)).status).toBe(200);

    const rebooting = device.fault('reboot', { downMs: 100 });
    // The port is closed as the call returns: a connect made now is refused, whatever the timers do.
    expect(await tcpConnect(device.port)).toBe('ECONNREFUSED');
    expect(await client.waitForClose()).toEqual({ code: 1006, reason: '' });
    expect(await rebooting).toMatchObject({ name: 'reboot', params: { downMs: 100, refuseLoginsMs: 0 } });

    expect(await tcpConnect(device.port)).toBe('connected');
    await waitFor(() => device.sessions().length === 0, 'the old session to be gone');
    expect(
      (await refusedHandshake(wsUrl(device, streamTarget(device, `?sources=events&wssession=${unusedToken}`)))).status,
    ).toBe(401);
    // A nonce of before the reboot is unknown now: not stale, just refused.
    expect(digestChallenge(await get(device, path, oldAuthorization))).not.toMatch(/stale/);

    const fresh = await openWithToken(device, await fetchToken(device));
    rig.track(fresh);
    await fresh.configure([{ topicFilter: PORT }, MARKER_FILTER]);
    expect(portStates(await untilMarker(device, fresh))).toEqual([
      { port: '1', state: '0' },
      { port: '2', state: '0' },
    ]);
  });

  it('refuseLoginsMs: once back, every login is refused (401) for that long', async () => {
    const clock = new ManualClock();
    const device = await rig.start({ clock });
    await device.fault('reboot', { downMs: 1, refuseLoginsMs: 10_000 });
    const path = sessionPath(device);
    expect((await digestRequest(device.url, { path })).status).toBe(401);
    expect((await refusedHandshake(wsUrl(device, streamTarget(device)))).status).toBe(401);
    clock.advance(9_999);
    expect((await digestRequest(device.url, { path })).status).toBe(401);
    clock.advance(1);
    expect((await digestRequest(device.url, { path })).status).toBe(200);
  });

  it('one reboot at a time: a second one while down is BAD_FAULT', async () => {
    const device = await rig.start();
    const first = device.fault('reboot', { downMs: 50 });
    await expect(device.fault('reboot')).rejects.toMatchObject({
      code: 'BAD_FAULT',
      message: 'fault reboot is already under way',
    });
    await first;
    expect(await tcpConnect(device.port)).toBe('connected');
  });

  it('closing the device while it is down ends the reboot at once', async () => {
    const device = await rig.start();
    const rebooting = device.fault('reboot', { downMs: 3_600_000 });
    expect(await tcpConnect(device.port)).toBe('ECONNREFUSED');
    await device.close();
    await expect(rebooting).resolves.toMatchObject({ name: 'reboot' });
    expect(await tcpConnect(device.port)).toBe('ECONNREFUSED');
  });
});
