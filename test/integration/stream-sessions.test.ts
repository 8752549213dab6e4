/**
 * Event stream sessions over real sockets: configure answers and every error code,
 * one notification per matching filter, filter replacement, the state of stateful
 * topics right after configure, the 2107 limit, binary frames, a slow client closed
 * without hurting a fast one, and the handle's sessions() / closeSessions().
 */
import { deviceStarter } from '../helpers/devices';
import { configureMessage, openWithToken, type StreamClient, type StreamMessage } from '../helpers/event-stream-client';
import { RawWebSocket } from '../helpers/event-stream-raw';
import { LogTap } from '../helpers/event-stream-log';
import type { DeviceHandle } from '../../src';

const PORT = 'tns1:Device/tnsvendor:IO/Port';
const MOTION = 'tns1:VideoSource/MotionAlarm';
const READY = 'tns1:Device/tnsvendor:Status/SystemReady';

const clients: StreamClient[] = [];
const start = deviceStarter();
async function connect(device: DeviceHandle): Promise<StreamClient> {
  const client = await openWithToken(device);
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const MARKER = { topicFilter: 'tns1:Test/Marker' };

/** Publishes a marker event and takes messages until it arrives: proves nothing else was queued. */
async function takeUntilMarker(device: DeviceHandle, client: StreamClient): Promise<StreamMessage[]> {
  device.publish('tns1:Test/Marker', { data: { end: '1' } });
  const seen: StreamMessage[] = [];
  for (;;) {
    const message = await client.next();
    if (message.params?.notification?.topic === 'tns1:Test/Marker') return seen;
    seen.push(message);
  }
}

describe('events:configure answers', () => {
  let device: DeviceHandle;
  let client: StreamClient;
  beforeEach(async () => {
    device = await start({ initialStates: [] });
    client = await connect(device);
  });

  it('success: same apiVersion, context and method, data {}', async () => {
    expect(await client.configure([{ topicFilter: PORT }], 'ctx-1')).toEqual({
      apiVersion: '1.0',
      context: 'ctx-1',
      method: 'events:configure',
      data: {},
    });
  });

  it('apiVersion "1" is read as 1.0', async () => {
    const answer = await client.request({
      apiVersion: '1',
      method: 'events:configure',
      params: { eventFilterList: [{ topicFilter: '' }] },
    });
    expect(answer.data).toEqual({});
  });

  it.each([
    [
      '2100 for an unsupported major version',
      {
        apiVersion: '2.0',
        context: 'c',
        method: 'events:configure',
        params: { eventFilterList: [{ topicFilter: '' }] },
      },
      2100,
    ],
    ['2101 for text that is not JSON', '{"apiVersion":', 2101],
    ['2102 for an unknown method', { apiVersion: '1.0', context: 'c', method: 'events:subscribe', params: {} }, 2102],
    ['2103 without params', { apiVersion: '1.0', context: 'c', method: 'events:configure' }, 2103],
    ['2103 without eventFilterList', { apiVersion: '1.0', context: 'c', method: 'events:configure', params: {} }, 2103],
    ['2104 for an empty eventFilterList', configureMessage([], 'c'), 2104],
    ['2103 for an entry with neither filter', configureMessage([{}], 'c'), 2103],
    ['2104 for a topic filter that does not parse', configureMessage([{ topicFilter: 'tns1:Device/' }], 'c'), 2104],
    [
      '2104 for a content filter that does not parse',
      configureMessage([{ contentFilter: "boolean(//SimpleItem[@Name='port'" }], 'c'),
      2104,
    ],
  ])('%s', async (_what, request, code) => {
    const answer = await client.request(request);
    expect(answer.error?.code).toBe(code);
    expect(typeof answer.error?.message).toBe('string');
    expect(answer.data).toBeUndefined();
    if (typeof request !== 'string') expect(answer.context).toBe('c');
  });

  it('2104 names the entry and the position', async () => {
    const answer = await client.configure([{ topicFilter: PORT }, { topicFilter: 'tns1:Device//|' }]);
    expect(answer.error?.code).toBe(2104);
    expect(answer.error?.message).toMatch(/eventFilterList\[1\]/);
    expect(answer.error?.message).toMatch(/column \d+/);
  });

  it('binary frames are answered with 2101', async () => {
    client.send(Buffer.from(JSON.stringify(configureMessage([{ topicFilter: '' }]))), { binary: true });
    expect((await client.next()).error?.code).toBe(2101);
  });

  it('a failed configure keeps the earlier filters', async () => {
    await client.configure([{ topicFilter: PORT }, MARKER]);
    expect((await client.configure([{ topicFilter: '((' }])).error?.code).toBe(2104);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    expect((await takeUntilMarker(device, client)).map((m) => m.params?.notification.topic)).toEqual([PORT]);
  });
});

describe('the 2107 limit', () => {
  it('a message over maxMessageBytes gets 2107, and the session still works', async () => {
    const device = await start({ initialStates: [], maxMessageBytes: 1024 });
    const client = await connect(device);
    const big = configureMessage([{ topicFilter: `tns1:${'A'.repeat(2000)}` }], 'big');
    const answer = await client.request(big);
    expect(answer.error?.code).toBe(2107);
    expect((await client.configure([{ topicFilter: '' }])).data).toEqual({});
  });
});

describe('notifications', () => {
  let device: DeviceHandle;
  beforeEach(async () => {
    device = await start({ initialStates: [] });
  });

  it('nothing arrives before a successful configure', async () => {
    const client = await connect(device);
    device.publish(MOTION, { data: { State: '1' } });
    await client.configure([{ topicFilter: 'tns1:Test/Marker' }]);
    expect(await takeUntilMarker(device, client)).toEqual([]);
  });

  it('the notification shape: apiVersion, method, topic, timestamp, source/key/data, no context', async () => {
    const client = await connect(device);
    await client.configure([{ topicFilter: MOTION }]);
    device.publish(MOTION, { source: { VideoSourceConfigurationToken: '1' }, data: { State: '1' } });
    const note = await client.next();
    expect(note).toEqual({
      apiVersion: '1.0',
      method: 'events:notify',
      params: {
        notification: {
          topic: MOTION,
          timestamp: expect.any(Number) as number,
          message: { source: { VideoSourceConfigurationToken: '1' }, key: {}, data: { State: '1' } },
        },
      },
    });
  });

  it('an event matching two filters is sent twice; a combined filter sends it once', async () => {
    const client = await connect(device);
    await client.configure([{ topicFilter: PORT }, { topicFilter: 'tns1:Device//.' }, MARKER]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    expect(await takeUntilMarker(device, client)).toHaveLength(2);
    await client.configure([{ topicFilter: `${PORT} | tns1:Device//.` }, MARKER]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '0' } });
    expect(await takeUntilMarker(device, client)).toHaveLength(1);
  });

  it('a topic and a content filter in one entry must both match', async () => {
    const client = await connect(device);
    await client.configure([
      { topicFilter: PORT, contentFilter: "boolean(//SimpleItem[@Name='port' and @Value='2'])" },
      MARKER,
    ]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    device.publish(PORT, { source: { port: '2' }, data: { state: '1' } });
    device.publish('tns1:Device/tnsvendor:IO/VirtualInput', { source: { port: '2' }, data: { active: '1' } });
    const got = await takeUntilMarker(device, client);
    expect(got.map((m) => [m.params?.notification.topic, m.params?.notification.message.source.port])).toEqual([
      [PORT, '2'],
    ]);
  });

  it('a new configure replaces the filters at once', async () => {
    const client = await connect(device);
    await client.configure([{ topicFilter: PORT }, MARKER]);
    await client.configure([{ topicFilter: MOTION }, MARKER]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    device.publish(MOTION, { data: { State: '1' } });
    expect((await takeUntilMarker(device, client)).map((m) => m.params?.notification.topic)).toEqual([MOTION]);
  });

  it('the onvif: prefix is read as tns1:', async () => {
    const client = await connect(device);
    await client.configure([{ topicFilter: 'onvif:VideoSource/MotionAlarm' }, MARKER]);
    device.publish(MOTION, { data: { State: '1' } });
    expect((await takeUntilMarker(device, client)).map((m) => m.params?.notification.topic)).toEqual([MOTION]);
  });
});

describe('stateful topics', () => {
  it('right after configure: the current state of every matching stateful topic, and only those', async () => {
    const device = await start(); // default states: system ready, ports 1 and 2
    device.publish(PORT, { source: { port: '2' }, data: { state: '1' } }, { stateful: true });
    device.publish(MOTION, { data: { State: '1' } }); // not stateful: never replayed
    const client = await connect(device);
    await client.configure([{ topicFilter: PORT }, MARKER]);
    const states = await takeUntilMarker(device, client);
    expect(
      states.map((m) => [m.params?.notification.message.source.port, m.params?.notification.message.data.state]).sort(),
    ).toEqual([
      ['1', '0'],
      ['2', '1'],
    ]);
    await client.configure([{ topicFilter: READY }, MARKER]);
    expect((await takeUntilMarker(device, client)).map((m) => m.params?.notification.message.data)).toEqual([
      { ready: '1' },
    ]);
  });
});

describe('several sources', () => {
  it('sources=events,events is one source; an unknown source is refused', async () => {
    const device = await start({ initialStates: [] });
    const client = await openWithToken(device, device.issueToken(), '?sources=events,events');
    clients.push(client);
    expect((await client.configure([{ topicFilter: '' }])).data).toEqual({});
    expect(device.sessions()[0].sources).toEqual(['events']);
    await expect(openWithToken(device, device.issueToken(), '?sources=events,video')).rejects.toThrow(/400/);
  });
});

describe('a slow client', () => {
  it('is closed with 1013 once maxBufferedBytes wait for it; a fast client gets everything', async () => {
    const log = new LogTap();
    const device = await start({ initialStates: [], maxBufferedBytes: 64 * 1024, logger: log.logger });
    const slow = await RawWebSocket.open(
      device.port,
      `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`,
    );
    slow.send(JSON.stringify(configureMessage([{ topicFilter: '' }])));
    expect((await slow.nextJson()).data).toEqual({});
    slow.pause();
    const fast = await connect(device);
    await fast.configure([{ topicFilter: '' }]);

    const data = { blob: 'x'.repeat(16 * 1024) };
    const total = 1500; // ~24 MiB to the slow client: far past its 64 KiB limit and the kernel buffers
    let published = 0;
    const publishSome = (): void => {
      for (let i = 0; i < 3 && published < total; i++, published++)
        device.publish(MOTION, { data: { ...data, n: String(published) } });
    };
    // Publish in ticks while the fast client keeps up, as a scenario would.
    while (published < total) {
      publishSome();
      await fast.waitForCount(published + 1);
    }
    const closed = await log.waitFor(
      (e) => e.msg === 'client too slow: closing the session',
      'the slow session closed',
    );
    expect(closed.limit).toBe(64 * 1024);
    expect(fast.received).toBe(total + 1); // the configure answer and every event
    // The stuck client, once it reads again, gets what its socket held (the rest was dropped), then the close frame.
    slow.resume();
    let frame = await slow.nextFrame();
    while (frame.opcode !== 8) frame = await slow.nextFrame();
    expect(frame.payload.readUInt16BE(0)).toBe(1013);
    expect(frame.payload.subarray(2).toString()).toBe('client too slow: send buffer full');
    slow.destroy();
    await log.waitFor((e) => e.msg === 'event stream disconnected' && Number(e.dropped) > 0, 'the slow session gone');
    expect(device.sessions().map((s) => s.dropped)).toEqual([0]);
  });
});

describe('sessions() and closeSessions()', () => {
  it('reports id, user, filters and counts; closeSessions ends them with 1001', async () => {
    const device = await start({ initialStates: [] });
    const client = await connect(device);
    await client.configure([{ topicFilter: PORT }, { contentFilter: "boolean(//SimpleItem[@Name='port'])" }]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    await client.nextN(2);
    const [info] = device.sessions();
    expect(info).toMatchObject({ state: 'CONFIGURED', user: 'root', sent: 2, dropped: 0, sources: ['events'] });
    expect(info.filters).toEqual([{ topicFilter: PORT }, { contentFilter: "boolean(//SimpleItem[@Name='port'])" }]);
    expect(device.closeSessions()).toBe(1);
    expect((await client.waitForClose()).code).toBe(1001);
  });
});

describe("the device's close", () => {
  it('ends the connection once the client answered the close frame, though the client keeps its end open', async () => {
    const log = new LogTap();
    const device = await start({ initialStates: [], logger: log.logger });
    // As websocket-client 1.2 does: answers the close frame, never closes the TCP connection itself.
    const raw = await RawWebSocket.open(
      device.port,
      `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`,
      {},
      '127.0.0.1',
      undefined,
      true,
    );
    expect(device.closeSessions(1011, 'internal error')).toBe(1);
    const frame = await raw.nextFrame();
    expect([frame.opcode, frame.payload.readUInt16BE(0)]).toEqual([8, 1011]);
    raw.send(frame.payload.subarray(0, 2), 8);
    // Well within the close timeout (5 s) that cuts a client that never answers.
    await log.waitFor((e) => e.msg === 'event stream disconnected', 'the session gone', 2000);
    expect(device.sessions()).toEqual([]);
    raw.destroy();
  });
});

describe('watchSessions()', () => {
  it('tells connect, configure (with what the filters subscribe to) and disconnect, in order', async () => {
    const device = await start({ initialStates: [] });
    const seen: string[] = [];
    const stop = device.watchSessions((change) => {
      if (change.kind === 'configure')
        seen.push(
          `configure ${change.session.id} port:${change.subscribesTo(PORT)} motion:${change.subscribesTo(MOTION)}`,
        );
      else if (change.kind === 'disconnect') seen.push(`disconnect ${change.session.id} ${change.code}`);
      else seen.push(`connect ${change.session.id} ${change.session.user}`);
    });
    const client = await connect(device);
    await client.configure([{ topicFilter: 'tns1:Device//.' }]);
    await client.configure([{ contentFilter: "boolean(//SimpleItem[@Name='port'])" }]);
    expect((await client.configure([])).error?.code).toBe(2104); // a refused configure is not told
    const id = device.sessions()[0].id;
    device.closeSessions(4000, 'bye');
    await client.waitForClose();
    await new Promise<void>((resolve) => {
      const check = (): void => (seen.length === 4 ? resolve() : void setImmediate(check));
      check();
    });
    expect(seen).toEqual([
      `connect ${id} root`,
      `configure ${id} port:true motion:false`,
      `configure ${id} port:true motion:true`,
      `disconnect ${id} 4000`,
    ]);
    stop();
  });

  it('a watcher that throws is logged and does not break the session or other watchers', async () => {
    const log = new LogTap();
    const device = await start({ initialStates: [], logger: log.logger });
    const kinds: string[] = [];
    device.watchSessions(() => {
      throw new Error('boom');
    });
    device.watchSessions((change) => kinds.push(change.kind));
    const client = await connect(device);
    expect((await client.configure([{ topicFilter: '' }])).data).toEqual({});
    expect(kinds).toEqual(['connect', 'configure']);
    expect(log.withMessage('session watcher failed')).toHaveLength(2);
  });
});
