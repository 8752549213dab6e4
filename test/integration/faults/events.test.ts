/**
 * Fault switches of what the event stream carries, seen by a `ws` client: stuck states, no
 * current states after a configure, a flapping input, an event storm, and a wrong device
 * clock. Devices whose timestamps are checked run on a ManualClock, so values are exact.
 */
import { type DeviceHandle, ManualClock } from '../../../src';
import { notificationOf, type StreamClient } from '../../helpers/event-stream-client';
import {
  describeFault,
  faultRig,
  MARKER,
  type Note,
  PORT,
  portStates,
  setPort,
  takeUntilMarker,
  untilMarker,
} from './fault-test';

const rig = faultRig();
const MOTION = 'tns1:VideoSource/MotionAlarm';
const STORM = 'tns1:Device/tnsvendor:IO/VirtualInput';

describeFault('stuck-states', () => {
  it('the first change is delivered, later ones are not, and a new session is told the stuck value', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    expect(portStates(await untilMarker(device, client))).toEqual([
      { port: '1', state: '0' },
      { port: '2', state: '0' },
    ]);
    await device.fault('stuck-states');
    setPort(device, '1', '1');
    setPort(device, '1', '0');
    setPort(device, '1', '1');
    setPort(device, '2', '1');
    // Each state's first change only; stateless events are not affected.
    device.publish(MOTION, { data: { State: '1' } });
    device.publish(MOTION, { data: { State: '0' } });
    expect(portStates(await untilMarker(device, client))).toEqual([
      { port: '1', state: '1' },
      { port: '2', state: '1' },
    ]);
    const late = await rig.configured(device, [{ topicFilter: PORT }, { topicFilter: MOTION }]);
    setPort(device, '1', '0');
    device.publish(MOTION, { data: { State: '1' } });
    const seen = await untilMarker(device, late);
    expect(portStates(seen.filter((n) => n.topic === PORT))).toEqual([
      { port: '1', state: '1' },
      { port: '2', state: '1' },
    ]);
    expect(seen.filter((n) => n.topic === MOTION).map((n) => n.message.data.State)).toEqual(['1']);
  });

  it('after clearFaults, changes are delivered again', async () => {
    const device = await rig.start({ initialStates: [] });
    const client = await rig.configured(device);
    await device.fault('stuck-states');
    setPort(device, '1', '1');
    setPort(device, '1', '0');
    device.clearFaults('stuck-states');
    setPort(device, '1', '0');
    expect(portStates(await untilMarker(device, client))).toEqual([
      { port: '1', state: '1' },
      { port: '1', state: '0' },
    ]);
  });

  it('a reboot while on brings back every initial state', async () => {
    const device = await rig.start();
    await device.fault('stuck-states');
    setPort(device, '1', '1');
    await device.fault('reboot', { downMs: 1 });
    const client = await rig.configured(device);
    expect(portStates(await untilMarker(device, client))).toEqual([
      { port: '1', state: '0' },
      { port: '2', state: '0' },
    ]);
    // Still on: a change after the reboot is the one that sticks.
    setPort(device, '1', '1');
    setPort(device, '1', '0');
    expect(portStates(await untilMarker(device, client))).toEqual([{ port: '1', state: '1' }]);
  });
});

describeFault('no-initial-states', () => {
  it('a configure gets no current states, only later changes; after clearFaults it gets them again', async () => {
    const device = await rig.start();
    await device.fault('no-initial-states');
    const client = await rig.configured(device);
    expect(await untilMarker(device, client)).toEqual([]);
    setPort(device, '1', '1');
    expect(portStates(await untilMarker(device, client))).toEqual([{ port: '1', state: '1' }]);
    device.clearFaults();
    const after = await rig.configured(device);
    expect(portStates(await untilMarker(device, after))).toEqual([
      { port: '1', state: '1' },
      { port: '2', state: '0' },
    ]);
  });
});

describeFault('flap', () => {
  it('defaults: port 1 toggles 1, 0, 1 with timestamps spread over 10 ms', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const device = await rig.start({ clock, initialStates: [] });
    const client = await rig.configured(device);
    await device.fault('flap');
    const edges = await untilMarker(device, client);
    expect(portStates(edges)).toEqual([
      { port: '1', state: '1' },
      { port: '1', state: '0' },
      { port: '1', state: '1' },
    ]);
    expect(edges.map((n) => n.timestamp)).toEqual([t0, t0 + 5, t0 + 10]);
  });

  it('times, withinMs, topic, source and item: N alternating edges within withinMs, the last one kept as the state', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const device = await rig.start({ clock, initialStates: [] });
    const topic = 'tns1:Device/tnsvendor:IO/VirtualInput';
    const client = await rig.configured(device, [{ topicFilter: topic }]);
    await device.fault('flap', { topic, source: { port: '7' }, item: 'active', times: 6, withinMs: 25 });
    const edges = await untilMarker(device, client);
    expect(edges.map((n) => [n.topic, n.message.source.port, n.message.data.active])).toEqual([
      [topic, '7', '1'],
      [topic, '7', '0'],
      [topic, '7', '1'],
      [topic, '7', '0'],
      [topic, '7', '1'],
      [topic, '7', '0'],
    ]);
    const stamps = edges.map((n) => n.timestamp as number);
    expect(stamps).toEqual([t0, t0 + 5, t0 + 10, t0 + 15, t0 + 20, t0 + 25]);
    const late = await rig.configured(device, [{ topicFilter: topic }]);
    expect((await untilMarker(device, late)).map((n) => n.message.data.active)).toEqual(['0']);
  });
});

describe('flap and storm on a device with another namespace word', () => {
  it('publish their tnsvendor: topics in the word of the device, as its scenarios do', async () => {
    const device = await rig.start({ persona: 'axis', initialStates: [] });
    const client = await rig.configured(device, [{ topicFilter: 'tns1:Device/tnsaxis:IO//.' }]);
    await device.fault('flap', { times: 2 });
    await device.fault('storm', { ratePerSecond: 1000, forMs: 2 });
    const topics = (await untilMarker(device, client)).map((n) => n.topic);
    expect(topics).toEqual([
      'tns1:Device/tnsaxis:IO/Port',
      'tns1:Device/tnsaxis:IO/Port',
      'tns1:Device/tnsaxis:IO/VirtualInput',
      'tns1:Device/tnsaxis:IO/VirtualInput',
    ]);
  });
});

describeFault('storm', () => {
  it('ratePerSecond for forMs: exactly rate * forMs / 1000 events, in order, then the call resolves', async () => {
    const device = await rig.start({ initialStates: [] });
    const client = await rig.configured(device, [{ topicFilter: STORM }]);
    const info = await device.fault('storm', { ratePerSecond: 2_000, forMs: 100 });
    expect(info).toMatchObject({ name: 'storm', params: { topic: STORM, ratePerSecond: 2_000, forMs: 100 } });
    const storm = await untilMarker(device, client);
    expect(storm.map((n) => n.message.data.seq)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
    expect(storm.every((n) => n.topic === STORM)).toBe(true);
    expect(device.faults()).toEqual([]);
  });

  it('ends on a device with a ManualClock that never moves', async () => {
    const device = await rig.start({ clock: new ManualClock(), initialStates: [] });
    const client = await rig.configured(device, [{ topicFilter: MOTION }]);
    await device.fault('storm', { topic: MOTION, ratePerSecond: 300, forMs: 50 });
    const storm = await untilMarker(device, client);
    expect(storm.map((n) => [n.topic, n.message.data.seq])).toEqual(
      Array.from({ length: 15 }, (_, i) => [MOTION, String(i)]),
    );
  });
});

describeFault('clock', () => {
  const T0 = Date.UTC(2026, 0, 1);

  async function clockDevice(): Promise<{ device: DeviceHandle; client: StreamClient; clock: ManualClock }> {
    const clock = new ManualClock(T0);
    const device = await rig.start({ clock, initialStates: [] });
    const client = await rig.configured(device, [{ topicFilter: MOTION }]);
    return { device, client, clock };
  }

  /** Publishes one motion event per entry, the clock moved by that many ms first; returns the timestamps. */
  async function stamps(device: DeviceHandle, client: StreamClient, clock: ManualClock, steps: number[]) {
    for (const step of steps) {
      clock.advance(step);
      device.publish(MOTION, { data: { State: '1' } });
    }
    return (await untilMarker(device, client)).map((n: Note) => n.timestamp);
  }

  it('skewMs shifts every timestamp, either way', async () => {
    const { device, client, clock } = await clockDevice();
    await device.fault('clock', { skewMs: 3_600_000 });
    expect(await stamps(device, client, clock, [0, 1000])).toEqual([T0 + 3_600_000, T0 + 1000 + 3_600_000]);
    await device.fault('clock', { skewMs: -86_400_000 });
    expect(await stamps(device, client, clock, [0])).toEqual([T0 + 1000 - 86_400_000]);
  });

  it('missing: notifications have no timestamp at all', async () => {
    const { device, client } = await clockDevice();
    await device.fault('clock', { missing: true });
    device.publish(MOTION, { data: { State: '1' } });
    device.publish(MARKER);
    const message = await client.next();
    expect(notificationOf(message)).not.toHaveProperty('timestamp');
    expect(await takeUntilMarker(client)).toEqual([]);
  });

  it('backwardsStepMs: each timestamp that much before the previous, though the clock moves on', async () => {
    const { device, client, clock } = await clockDevice();
    expect(await stamps(device, client, clock, [0])).toEqual([T0]);
    await device.fault('clock', { backwardsStepMs: 250 });
    // The step counts from the last stamp given (the marker's, T0), not from the clock.
    expect(await stamps(device, client, clock, [1000, 1000])).toEqual([T0 - 250, T0 - 500]);
  });

  it('after clearFaults, timestamps are the device clock again', async () => {
    const { device, client, clock } = await clockDevice();
    await device.fault('clock', { skewMs: 5000, backwardsStepMs: 100 });
    device.clearFaults('clock');
    expect(await stamps(device, client, clock, [42])).toEqual([T0 + 42]);
  });
});
