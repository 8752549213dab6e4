/**
 * Fault switches of the event stream, seen by a `ws` client over a real socket: a stalled
 * stream (with and without pongs), dropped sessions (TCP reset or a close frame), a limit on
 * concurrent sessions, and a device without the WebSocket endpoint.
 */
import { once } from 'node:events';
import { refusedHandshake, type StreamClient, streamTarget, wsUrl } from '../../helpers/event-stream-client';
import {
  describeFault,
  faultRig,
  MARKER,
  MARKER_FILTER,
  PORT,
  portStates,
  setPort,
  roundTrips,
  takeUntilMarker,
  untilMarker,
  waitFor,
} from './fault-test';

// No initial states: a configured session has nothing queued, whatever the others do.
const rig = faultRig({ initialStates: [] });

/** Resolves true when the client hears a pong for a ping sent now. */
function ping(client: StreamClient): { pong: Promise<void>; heard: () => boolean } {
  let heard = false;
  const pong = once(client.ws, 'pong').then(() => {
    heard = true;
  });
  client.ws.ping();
  return { pong, heard: () => heard };
}

describeFault('stall', () => {
  it('a configured session is sent nothing while stalled, and events published meanwhile are lost', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    const before = device.sessions()[0].sent;
    await device.fault('stall');
    setPort(device, '1', '1');
    device.publish(PORT, { source: { port: '2' }, data: { state: '1' } });
    expect(device.sessions()[0].sent).toBe(before);
    expect(device.clearFaults('stall')).toEqual(['stall']);
    // The first message after the stall is the marker: nothing was queued while stalled.
    expect(await untilMarker(device, client)).toEqual([]);
    setPort(device, '1', '0');
    expect(portStates(await untilMarker(device, client))).toEqual([{ port: '1', state: '0' }]);
  });

  it('pings: true (the default): the stalled device still answers pings and configures', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    await device.fault('stall', { pings: true });
    await ping(client).pong;
    expect((await client.configure([{ topicFilter: PORT }, MARKER_FILTER], 'during')).context).toBe('during');
    device.clearFaults();
  });

  it('pings: false: a client ping gets no pong while stalled; it is answered once the stall ends', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    await device.fault('stall', { pings: false });
    const { pong, heard } = ping(client);
    client.send({
      apiVersion: '1.0',
      context: 'held',
      method: 'events:configure',
      params: { eventFilterList: [{ topicFilter: PORT }, MARKER_FILTER] },
    });
    await roundTrips(device);
    expect(heard()).toBe(false);
    expect(client.pending).toBe(0);
    device.clearFaults('stall');
    await pong;
    // The configure sent while held is read and answered now, in order.
    expect((await client.next()).context).toBe('held');
  });

  it('pings: false: a session that connects during the stall is held too', async () => {
    const device = await rig.start();
    await device.fault('stall', { pings: false });
    const client = await rig.open(device);
    const { pong, heard } = ping(client);
    await roundTrips(device);
    expect(heard()).toBe(false);
    device.clearFaults();
    await pong;
    expect((await client.configure([MARKER_FILTER])).data).toEqual({});
  });
});

describeFault('drop', () => {
  it('mode reset (the default): the client sees the connection end without a close frame (1006)', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    const info = await device.fault('drop');
    expect(info).toMatchObject({ name: 'drop', params: { mode: 'reset', code: 1011 } });
    expect(await client.waitForClose()).toEqual({ code: 1006, reason: '' });
    await waitFor(() => device.sessions().length === 0, 'the device to forget the session');
    // The device still serves new sessions.
    await rig.configured(device);
  });

  it('mode close: every session gets a close frame with the chosen code and reason', async () => {
    const device = await rig.start();
    const clients = [await rig.configured(device), await rig.configured(device)];
    await device.fault('drop', { mode: 'close', code: 4001, reason: 'dropped for the test' });
    for (const client of clients)
      expect(await client.waitForClose()).toEqual({ code: 4001, reason: 'dropped for the test' });
  });

  it('mode close without a code: 1011 "dropped by the device"', async () => {
    const device = await rig.start();
    const client = await rig.configured(device);
    await device.fault('drop', { mode: 'close' });
    expect(await client.waitForClose()).toEqual({ code: 1011, reason: 'dropped by the device' });
  });

  it('is an action: nothing stays on', async () => {
    const device = await rig.start();
    await device.fault('drop');
    expect(device.faults()).toEqual([]);
  });
});

describeFault('slots', () => {
  it('overflow refuse: the handshake over the limit gets 503; a slot freed or the switch off lets it in', async () => {
    const device = await rig.start();
    await device.fault('slots', { max: 2, overflow: 'refuse' });
    const first = await rig.configured(device);
    await rig.configured(device);
    const url = wsUrl(device, streamTarget(device));
    const refused = await refusedHandshake(url);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/slot/);
    await first.close();
    await waitFor(() => device.sessions().length === 1, 'the first session to be gone');
    await rig.configured(device);
    expect((await refusedHandshake(url)).status).toBe(503);
    device.clearFaults('slots');
    await rig.configured(device);
  });

  it('overflow evict: a new session closes the oldest with the chosen code and reason', async () => {
    const device = await rig.start();
    await device.fault('slots', { max: 2, overflow: 'evict', code: 4008, reason: 'slots full' });
    const oldest = await rig.configured(device);
    const middle = await rig.configured(device);
    const newest = await rig.configured(device);
    expect(await oldest.waitForClose()).toEqual({ code: 4008, reason: 'slots full' });
    setPort(device, '1', '1');
    device.publish(MARKER);
    for (const client of [middle, newest])
      expect(portStates(await takeUntilMarker(client))).toEqual([{ port: '1', state: '1' }]);
    expect(middle.closeInfo).toBeUndefined();
  });

  it('defaults: at most 4, the oldest evicted with 1008', async () => {
    const device = await rig.start();
    await device.fault('slots');
    const clients: StreamClient[] = [];
    for (let i = 0; i < 5; i++) clients.push(await rig.configured(device));
    expect(await clients[0].waitForClose()).toEqual({ code: 1008, reason: 'event subscription slots exhausted' });
    expect(clients.slice(1).map((c) => c.closeInfo)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describeFault('no-websocket', () => {
  it('the stream handshake gets 404 while on, and works again after clearFaults', async () => {
    const device = await rig.start();
    await device.fault('no-websocket');
    const refused = await rig.handshake(device);
    expect(refused).toMatchObject({ ok: false, status: 404 });
    if (!refused.ok) expect(refused.body).toMatch(/no WebSocket/);
    expect(device.clearFaults()).toEqual(['no-websocket']);
    const accepted = await rig.handshake(device);
    expect(accepted.ok).toBe(true);
  });

  it('also with credentials: the 404 comes before authentication', async () => {
    const device = await rig.start({ auth: 'digest' });
    await device.fault('no-websocket');
    const refused = await refusedHandshake(wsUrl(device, streamTarget(device)));
    expect(refused.status).toBe(404);
  });
});
