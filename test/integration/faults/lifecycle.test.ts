/**
 * What every switch shares, over real sockets: `forMs` switching a state switch off by
 * itself, BAD_FAULT for an unknown switch or bad parameters, and `reset()` switching every
 * fault off.
 */
import { type FaultName } from '../../../src';
import { refusedHandshake, streamTarget, WAIT_MS, wsUrl } from '../../helpers/event-stream-client';
import { describeFault, faultRig, MARKER_FILTER, PORT, portStates, untilMarker, waitFor } from './fault-test';

const rig = faultRig();

describeFault('no-websocket', () => {
  it('forMs: on for that long, then off by itself; a retrying client gets in', async () => {
    const device = await rig.start();
    const info = await device.fault('no-websocket', { forMs: 100 });
    expect(info.until).toBe(info.since + 100);
    expect(device.faults()).toEqual([info]);
    // A client that retries until the handshake is accepted: what the switch is for.
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const outcome = await rig.handshake(device);
      if (outcome.ok) break;
      expect(outcome.status).toBe(404);
      if (Date.now() > deadline) throw new Error('the handshake was never accepted');
    }
    expect(device.faults()).toEqual([]);
  });
});

describeFault('stall', () => {
  it('forMs: a stalled session is sent events again once the switch is off by itself', async () => {
    const device = await rig.start({ initialStates: [] });
    const client = await rig.open(device);
    await client.configure([{ topicFilter: PORT }, MARKER_FILTER]);
    await device.fault('stall', { forMs: 30 });
    await waitFor(() => device.faults().length === 0, 'the stall to switch itself off');
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    expect(portStates(await untilMarker(device, client))).toEqual([{ port: '1', state: '1' }]);
  });
});

describe('bad switches and parameters', () => {
  it('an unknown switch is BAD_FAULT, naming the switches', async () => {
    const device = await rig.start();
    await expect(device.fault('no-such-switch' as FaultName)).rejects.toMatchObject({
      code: 'BAD_FAULT',
      message: expect.stringMatching(/^no fault switch "no-such-switch"; switches: stall, drop, reboot,/) as string,
    });
  });

  it.each([
    ['slots', { max: 0 }, /^fault slots: max: /],
    ['drop', { mode: 'close', code: 1006 }, /^fault drop: code: not a close code a server may send/],
    ['stall', { pings: 'no' }, /^fault stall: pings: /],
    ['stall', { forMs: 0 }, /^fault stall: forMs: /],
    ['cgi', { status: 500 }, /^fault cgi: status: /],
    ['no-websocket', { unknown: 1 }, /^fault no-websocket: .*unknown/],
  ])('%s %j is BAD_FAULT, and nothing is switched on', async (name, params, message) => {
    const device = await rig.start();
    await expect(device.fault(name as FaultName, params as never)).rejects.toMatchObject({
      code: 'BAD_FAULT',
      message: expect.stringMatching(message) as string,
    });
    expect(device.faults()).toEqual([]);
    expect((await rig.handshake(device)).ok).toBe(true);
  });
});

describe('reset()', () => {
  it('switches every fault off', async () => {
    const device = await rig.start({ initialStates: [] });
    await device.fault('no-websocket');
    await device.fault('no-initial-states');
    await device.fault('clock', { missing: true });
    await device.fault('slots', { max: 1, overflow: 'refuse' });
    expect(device.faults().map((f) => f.name)).toEqual(['no-websocket', 'no-initial-states', 'clock', 'slots']);
    expect((await refusedHandshake(wsUrl(device, streamTarget(device)))).status).toBe(404);
    await device.reset();
    expect(device.faults()).toEqual([]);
    const client = await rig.open(device);
    await rig.open(device);
    await client.configure([{ topicFilter: PORT }, MARKER_FILTER]);
    device.publish(PORT, { source: { port: '1' }, data: { state: '1' } });
    const [note] = await untilMarker(device, client);
    expect(note.timestamp).toEqual(expect.any(Number));
  });
});
