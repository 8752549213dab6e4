/**
 * Subscription rules over real sockets: overlapping filters or sessions, a filter with a
 * typo, a filter the device refuses, too many sessions at once, and a client that stops
 * reading until the device closes it with 1013.
 */
import type { Socket } from 'node:net';
import { MOTION, PORT, describeRule, entries, gradingRig, type GradingRun, until } from './grading-rig';
import { notificationOf, type StreamClient } from '../../helpers/event-stream-client';

const start = gradingRig();

/** Opens a session and configures it with `filters`; the answer must be a success. */
async function openWith(run: GradingRun, filters: readonly { topicFilter: string }[]): Promise<StreamClient> {
  const client = await run.open();
  const answer = await client.configure(filters);
  expect(answer.error).toBeUndefined();
  return client;
}

/** The topics of the next `n` notifications `client` receives. */
async function topicsOf(client: StreamClient, n: number): Promise<string[]> {
  return (await client.nextN(n)).map((m) => notificationOf(m).topic);
}

describeRule('duplicate-subscription', () => {
  it('finds two filters of one configure selecting the Port topic, and the notifications that came twice', async () => {
    const run = await start();
    const client = await openWith(run, [{ topicFilter: PORT }, { topicFilter: 'tns1:Device/tnsvendor:IO//.' }]);
    // The Port state right after configure, once per filter.
    expect(await topicsOf(client, 2)).toEqual([PORT, PORT]);
    run.advance(1000);
    run.device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    expect(await topicsOf(client, 2)).toEqual([PORT, PORT]);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['duplicate-subscription', 'warning']]);
    expect(findings[0].message).toBe(`1 topic selected twice (${PORT}); 2 notifications arrived twice`);
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['configure', 'notification', 'notification']);
  });

  // Copies are told apart by the event number, not by topic and time.
  it('counts each doubled event once when several events of the topic come within 50 ms', async () => {
    const run = await start();
    const client = await openWith(run, [{ topicFilter: PORT }, { topicFilter: 'tns1:Device/tnsvendor:IO//.' }]);
    expect(await topicsOf(client, 2)).toEqual([PORT, PORT]);
    run.advance(1000);
    await run.device.fault('flap', { times: 3 }); // 3 edges of Port 1 within 10 ms
    expect(await topicsOf(client, 6)).toEqual(Array(6).fill(PORT));
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['duplicate-subscription', 'warning']]);
    expect(findings[0].message).toBe(`1 topic selected twice (${PORT}); 4 notifications arrived twice`);
  });

  it('finds two sessions of one client both subscribed to the motion topic', async () => {
    const run = await start();
    const first = await openWith(run, [{ topicFilter: MOTION }]);
    const second = await openWith(run, [{ topicFilter: MOTION }]);
    run.advance(1000);
    run.device.publish(MOTION, { data: { State: '1' } });
    expect(await topicsOf(first, 1)).toEqual([MOTION]);
    expect(await topicsOf(second, 1)).toEqual([MOTION]);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['duplicate-subscription', 'warning']]);
    expect(findings[0].message).toBe(`1 topic selected twice (${MOTION}); 1 notification arrived twice`);
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['configure', 'configure', 'notification']);
  });

  it('finds nothing for one session with one filter per topic', async () => {
    const run = await start();
    const client = await openWith(run, [{ topicFilter: PORT }, { topicFilter: MOTION }]);
    expect(await topicsOf(client, 1)).toEqual([PORT]);
    run.advance(1000);
    run.device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    run.device.publish(MOTION, { data: { State: '1' } });
    expect(await topicsOf(client, 2)).toEqual([PORT, MOTION]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('filter-matches-nothing', () => {
  it('finds a typo in the topic (MotionAlrm)', async () => {
    const run = await start();
    await openWith(run, [{ topicFilter: 'tns1:VideoSource/MotionAlrm' }]);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['filter-matches-nothing', 'warning']]);
    // The rig's scenario publishes two topics: Port (its state) and MotionAlarm.
    expect(findings[0].message).toBe(
      'topic filter "tns1:VideoSource/MotionAlrm" matches none of the 2 topics the device publishes',
    );
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['configure']);
  });

  it('finds nothing for the onvif: alias of the motion topic', async () => {
    const run = await start();
    const client = await openWith(run, [{ topicFilter: 'onvif:VideoSource/MotionAlarm' }]);
    run.device.publish(MOTION, { data: { State: '1' } });
    expect(await topicsOf(client, 1)).toEqual([MOTION]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('invalid-filter', () => {
  it('finds a configure the device refused for a syntax error, with its code', async () => {
    const run = await start();
    const client = await run.open();
    const answer = await client.configure([{ topicFilter: 'tns1:VideoSource//MotionAlarm' }]);
    const error = {
      code: 2104,
      message:
        "Invalid parameter: eventFilterList[0].topicFilter: unexpected 'M' at column 19: '//' and '//.' may only end a topic path",
    };
    expect(answer.error).toEqual(error);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['invalid-filter', 'error']]);
    expect(findings[0].message).toBe(`1 configure request refused; first: 2104 ${error.message}`);
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['configure']);
    expect(findings[0].evidence[0]).toMatchObject({
      filters: [{ topicFilter: 'tns1:VideoSource//MotionAlarm' }],
      error,
    });
  });

  it('finds nothing for a filter the device accepts', async () => {
    const run = await start();
    await openWith(run, [{ topicFilter: 'tns1:VideoSource//.' }]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('concurrent-sessions', () => {
  it('finds 3 sessions of one client open at once', async () => {
    const run = await start();
    await openWith(run, [{ topicFilter: PORT }]);
    await openWith(run, [{ topicFilter: MOTION }]);
    run.track(await run.open()); // leaked before its configure
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['concurrent-sessions', 'warning']]);
    expect(findings[0].message).toBe('held 3 sessions open at once (at most 2 expected)');
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-open', 'ws-open', 'ws-open']);
  });

  it('finds nothing for 2 sessions at once, nor for 3 one after the other', async () => {
    const run = await start();
    const first = await openWith(run, [{ topicFilter: PORT }]);
    await openWith(run, [{ topicFilter: MOTION }]);
    await first.close();
    await until('the first session closed', () => entries(run, 'ws-close').length === 1);
    await openWith(run, [{ topicFilter: PORT }]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('slow-consumer', () => {
  it('finds a client that stopped reading until the device closed its session with 1013', async () => {
    const run = await start({ maxBufferedBytes: 64 * 1024 });
    const slow = await openWith(run, [{ topicFilter: MOTION }]);
    const socket = (slow.ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    const data = { blob: 'x'.repeat(16 * 1024) };
    // Publish in ticks until the device gives up on the client (its kernel buffers fill first).
    const closing = (): boolean => run.device.sessions().every((s) => s.state === 'CLOSED');
    for (let n = 0; !closing(); n++) {
      if (n > 4000) throw new Error('the device never closed the slow session');
      run.device.publish(MOTION, { data: { ...data, n: String(n) } });
      if (n % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    }
    socket.resume();
    expect(await slow.waitForClose()).toEqual({ code: 1013, reason: 'client too slow: send buffer full' });
    await until('the ws-close in the journal', () => entries(run, 'ws-close').length === 1);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['slow-consumer', 'error']]);
    expect(findings[0].message).toBe('1 session closed with 1013: the client did not read fast enough');
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['ws-close']);
    expect(findings[0].evidence[0]).toMatchObject({ code: 1013, by: 'device' });
  });

  it('finds nothing for a client that reads everything', async () => {
    const run = await start({ maxBufferedBytes: 64 * 1024 });
    const client = await openWith(run, [{ topicFilter: MOTION }]);
    const data = { blob: 'x'.repeat(16 * 1024) };
    for (let n = 0; n < 200; n++) {
      run.device.publish(MOTION, { data: { ...data, n: String(n) } });
      if (n % 2 === 1) await client.waitForCount(n + 2);
    }
    await client.waitForCount(201);
    expect(run.device.sessions().map((s) => s.dropped)).toEqual([0]);
    expect(run.findings()).toEqual([]);
  });
});
