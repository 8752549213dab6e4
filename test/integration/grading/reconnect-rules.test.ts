/**
 * Reconnect rules over real sockets: retries without back-off, no reconnect or a late one
 * after the device ended a session (a drop, a reboot), a stall nobody noticed, and a
 * session never configured. Time moves on the manual clock; nothing sleeps.
 */
import { PORT, describeRule, entries, gradingRig, type GradingRun, until } from './grading-rig';
import { refusedHandshake, streamTarget, type StreamClient, wsUrl } from '../../helpers/event-stream-client';

const start = gradingRig();

/** Opens a session and configures it for the rig's Port topic, as a good client does on every connect. */
async function openConfigured(run: GradingRun): Promise<StreamClient> {
  const client = await run.open();
  expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
  return client;
}

/** One connect attempt with a fresh token that the device must refuse; returns its HTTP status. */
async function refusedAttempt(run: GradingRun): Promise<number> {
  const target = streamTarget(run.device, `?sources=events&wssession=${encodeURIComponent(run.device.issueToken())}`);
  return (await refusedHandshake(wsUrl(run.device, target))).status;
}

/** Attempts refused connects, advancing the clock by each of `gapsMs` between two; returns their statuses. */
async function refusedAttempts(run: GradingRun, gapsMs: readonly number[]): Promise<number[]> {
  const statuses = [await refusedAttempt(run)];
  for (const gap of gapsMs) {
    run.advance(gap);
    statuses.push(await refusedAttempt(run));
  }
  return statuses;
}

/**
 * Lets the session run 1 s, then drops every session with a close frame (code 1011) and
 * waits until the client and the journal saw it.
 */
async function dropSessions(run: GradingRun, client: StreamClient, runForMs = 1000): Promise<void> {
  run.advance(runForMs);
  await run.device.fault('drop', { mode: 'close', code: 1011, reason: 'internal error' });
  expect((await client.waitForClose()).code).toBe(1011);
  await until('the ws-close in the journal', () => entries(run, 'ws-close').length > 0);
}

/**
 * Lets the session run 1 s, then reboots the device (sessions reset, port closed), moving
 * the clock `downForMs` while it is down, and resolves when it is back; logins are refused
 * for `refuseLoginsMs` on the device clock after.
 */
async function reboot(run: GradingRun, client: StreamClient, downForMs: number, refuseLoginsMs = 0): Promise<void> {
  run.advance(1000);
  const back = run.device.fault('reboot', { downMs: 200, refuseLoginsMs });
  await client.waitForClose();
  await until('the reset session in the journal', () => entries(run, 'ws-close').length > 0);
  // Moved while the device is still down (downMs is real time): the end is downForMs later.
  run.advance(downForMs);
  await back;
  const faults = entries(run, 'fault').map((e) => [e.kind === 'fault' ? e.state : '', Date.parse(e.time)]);
  const resetAt = Date.parse(entries(run, 'ws-close')[0].time);
  expect(faults).toEqual([
    ['start', resetAt],
    ['end', resetAt + downForMs],
  ]);
}

describeRule('reconnect-no-backoff', () => {
  it('finds 5 attempts 100 ms apart while a rebooted device refuses logins', async () => {
    const run = await start();
    const before = await openConfigured(run);
    await reboot(run, before, 5000, 60_000);
    expect(await refusedAttempts(run, [100, 100, 100, 100])).toEqual([401, 401, 401, 401, 401]);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['reconnect-no-backoff', 'error']]);
    expect(findings[0].message).toBe(
      '5 refused connection attempts in 400 ms, a median 100 ms apart ' +
        '(intervals 100 ms, 100 ms, 100 ms, 100 ms); expected at least 1.00 s, growing',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(Array(5).fill('auth-refused'));
    expect(findings[0].evidence.map((e) => (e.kind === 'auth-refused' ? e.code : ''))).toEqual(
      Array(5).fill('REJECTING'),
    );
  });

  it('finds 5 attempts 100 ms apart while every slot is taken (overflow refuse)', async () => {
    const run = await start();
    await openConfigured(run);
    await run.device.fault('slots', { max: 1, overflow: 'refuse' });
    expect(await refusedAttempts(run, [100, 100, 100, 100])).toEqual([503, 503, 503, 503, 503]);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['reconnect-no-backoff', 'error']]);
    expect(findings[0].message).toBe(
      '5 refused connection attempts in 400 ms, a median 100 ms apart ' +
        '(intervals 100 ms, 100 ms, 100 ms, 100 ms); expected at least 1.00 s, growing',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(Array(5).fill('ws-refused'));
  });

  it('finds nothing when the attempts during refused logins back off 2, 4, 8, 16 s and the client then gets in', async () => {
    const run = await start();
    const before = await openConfigured(run);
    await reboot(run, before, 5000, 31_000);
    expect(await refusedAttempts(run, [2000, 4000, 8000, 16_000])).toEqual([401, 401, 401, 401, 401]);
    run.advance(2000); // 32 s after the device was back: logins work again
    await openConfigured(run);
    expect(run.findings()).toEqual([]);
  });

  it('finds nothing when the attempts at full slots back off 2, 4, 8, 16 s', async () => {
    const run = await start();
    await openConfigured(run);
    await run.device.fault('slots', { max: 1, overflow: 'refuse' });
    expect(await refusedAttempts(run, [2000, 4000, 8000, 16_000])).toEqual([503, 503, 503, 503, 503]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('no-reconnect', () => {
  it('finds a client that never comes back after a drop with 1011, once 60 s have passed', async () => {
    const run = await start();
    const client = await openConfigured(run);
    await dropSessions(run, client);
    run.advance(30_000);
    expect(run.findings()).toEqual([]); // the window is not over: not judged yet
    run.advance(31_000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['no-reconnect', 'error']]);
    expect(findings[0].message).toBe(
      'did not come back within 61.0 s after the device ended its session (close code 1011, "internal error")',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-close']);
    expect(findings[0].evidence[0]).toMatchObject({ code: 1011, by: 'device' });
  });

  // On one clock tick open and drop have equal times: the journal order tells them apart.
  it('finds a client that never comes back after a drop in the millisecond its session opened', async () => {
    const run = await start();
    const client = await openConfigured(run);
    await dropSessions(run, client, 0);
    run.advance(61_000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['no-reconnect', 'error']]);
    expect(findings[0].message).toBe(
      'did not come back within 61.0 s after the device ended its session (close code 1011, "internal error")',
    );
  });

  it('finds nothing when the client comes back 5 s after the drop', async () => {
    const run = await start();
    const client = await openConfigured(run);
    await dropSessions(run, client);
    run.advance(5000);
    await openConfigured(run);
    run.advance(61_000);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('reconnect-slow', () => {
  it('finds a client that comes back 90 s after a drop', async () => {
    const run = await start();
    const client = await openConfigured(run);
    await dropSessions(run, client);
    run.advance(90_000);
    await openConfigured(run);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['reconnect-slow', 'warning']]);
    expect(findings[0].message).toBe(
      'came back 90.0 s after the device ended its session (close code 1011, "internal error"); expected within 60.0 s',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-close', 'ws-open']);
  });

  it('finds nothing when the client comes back 59 s after a drop', async () => {
    const run = await start();
    const client = await openConfigured(run);
    await dropSessions(run, client);
    run.advance(59_000);
    await openConfigured(run);
    expect(run.findings('reconnect-slow')).toEqual([]);
    expect(run.findings()).toEqual([]);
  });

  describe('after a reboot, the window counts from the device being back', () => {
    it('finds nothing for a client back 50 s after the device (70 s after its session was reset)', async () => {
      const run = await start();
      const client = await openConfigured(run);
      await reboot(run, client, 20_000);
      run.advance(50_000);
      await openConfigured(run);
      expect(run.findings()).toEqual([]);
    });

    it('finds a client back 70 s after the device as slow (90 s after the reset)', async () => {
      const run = await start();
      const client = await openConfigured(run);
      await reboot(run, client, 20_000);
      run.advance(70_000);
      await openConfigured(run);
      const findings = run.findings();
      expect(findings.map((f) => [f.rule, f.severity])).toEqual([['reconnect-slow', 'warning']]);
      // The reset (no close frame) reads as 1006 on the device's side.
      expect(findings[0].message).toBe(
        'came back 70.0 s after the device ended its session (close code 1006); expected within 60.0 s',
      );
      expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-close', 'ws-open']);
    });

    it('finds no reconnect 61 s after the device is back, and nothing at 59 s', async () => {
      const run = await start();
      const client = await openConfigured(run);
      await reboot(run, client, 20_000);
      run.advance(59_000); // 79 s after the reset, 59 s after the device was back
      expect(run.findings()).toEqual([]);
      run.advance(2000);
      const findings = run.findings();
      expect(findings.map((f) => [f.rule, f.severity])).toEqual([['no-reconnect', 'error']]);
      expect(findings[0].message).toBe(
        'did not come back within 61.0 s after the device ended its session (close code 1006)',
      );
      expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-close']);
      expect(findings[0].evidence[0]).toMatchObject({ by: 'device' });
    });
  });
});

describeRule('stall-undetected', () => {
  it('finds a client that keeps its session through a 31 s stall without pongs', async () => {
    const run = await start();
    await openConfigured(run);
    await run.device.fault('stall', { pings: false });
    run.advance(31_000);
    run.device.clearFaults('stall');
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['stall-undetected', 'warning']]);
    expect(findings[0].message).toBe(
      'kept its session open for 31.0 s while the device answered no ping; expected a reconnect within 30.0 s',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-open', 'fault']);
    expect(findings[0].evidence[1]).toMatchObject({ name: 'stall', state: 'on', params: { pings: false } });
  });

  it('finds nothing for a client that opens a new session 25 s into the stall', async () => {
    const run = await start();
    const stalled = await openConfigured(run);
    await run.device.fault('stall', { pings: false });
    run.advance(25_000);
    // Its pings unanswered, the client gives up on the session and connects again; the
    // held device reads neither the old session's end nor the new one's configure yet.
    stalled.ws.terminate();
    const fresh = await run.open();
    const answer = fresh.configure([{ topicFilter: PORT }]);
    run.advance(6000);
    run.device.clearFaults('stall');
    expect((await answer).error).toBeUndefined();
    await until('the old session closed', () => entries(run, 'ws-close').length === 1);
    expect(run.findings('stall-undetected')).toEqual([]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('configure-missing', () => {
  it('finds a session never configured, 11 s after it opened', async () => {
    const run = await start();
    await run.open();
    run.advance(9000);
    expect(run.findings()).toEqual([]);
    run.advance(2000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['configure-missing', 'error']]);
    expect(findings[0].message).toBe('a session was not configured within 10.0 s of opening');
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-open']);
  });

  it('says "after a reconnect" when the session before was configured', async () => {
    const run = await start();
    const first = await openConfigured(run);
    await dropSessions(run, first);
    run.advance(2000);
    const second = await run.open();
    run.advance(11_000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['configure-missing', 'error']]);
    expect(findings[0].message).toBe(
      'a session was not configured within 10.0 s of opening after a reconnect (the session before was configured)',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-open']);
    const [open] = findings[0].evidence;
    expect(open.kind === 'ws-open' && open.session).toBe(run.device.sessions()[0].id);
    expect(second.closeInfo).toBeUndefined();
  });

  it('finds nothing for a session configured 9 s after it opened', async () => {
    const run = await start();
    const client = await run.open();
    run.advance(9000);
    expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
    run.advance(60_000);
    expect(run.findings()).toEqual([]);
  });
});
