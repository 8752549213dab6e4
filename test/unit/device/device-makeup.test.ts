/**
 * A device's stream server is made at its first use: session watchers that come before it
 * are kept and handed over, so they hear the first session; a watcher removed before it exists
 * never hears anything; one removed after hears nothing more. One device on loopback, real
 * WebSocket sessions.
 */
import type { DeviceHandle, SessionChange } from '../../../src';
import type { DeviceMakeup } from '../../../src/device/device-makeup';
import { deviceStarter } from '../../helpers/devices';
import { openWithToken, type StreamClient } from '../../helpers/event-stream-client';
import { until } from '../../helpers/until';

const start = deviceStarter({ host: '127.0.0.1', initialStates: [] });
const clients: StreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(device: DeviceHandle): Promise<StreamClient> {
  const client = await openWithToken(device);
  clients.push(client);
  return client;
}

/** Whether the device has made its stream server yet (read from its parts: no public face tells). */
function streamMade(device: DeviceHandle): boolean {
  const parts = (device as unknown as { parts?: DeviceMakeup }).parts;
  if (parts === undefined) throw new Error('the device handle no longer keeps its parts as `parts`');
  return parts.streamIfMade !== undefined;
}

/** A watcher that keeps the kinds of change it hears. */
function recorder(): { heard: string[]; listener: (change: SessionChange) => void } {
  const heard: string[] = [];
  return { heard, listener: (change) => heard.push(change.kind) };
}

describe('session watchers and the stream server made at first use', () => {
  it('a watcher that came before any session hears the first session connect, configure and go', async () => {
    const device = await start();
    const early = recorder();
    device.watchSessions(early.listener);
    expect(streamMade(device)).toBe(false);
    const client = await connect(device);
    expect(streamMade(device)).toBe(true);
    await until(() => early.heard.length >= 1, 'the connect');
    expect(early.heard).toEqual(['connect']);
    await client.configure([{ topicFilter: 'tns1:Test/A' }]);
    expect(early.heard).toEqual(['connect', 'configure']);
    await client.close();
    await until(() => early.heard.length >= 3, 'the disconnect');
    expect(early.heard).toEqual(['connect', 'configure', 'disconnect']);
  });

  it('a watcher removed before the stream server exists is never told; one kept beside it is', async () => {
    const device = await start();
    const removed = recorder();
    const kept = recorder();
    const unwatch = device.watchSessions(removed.listener);
    device.watchSessions(kept.listener);
    unwatch();
    expect(streamMade(device)).toBe(false);
    const client = await connect(device);
    await client.configure([{ topicFilter: 'tns1:Test/A' }]);
    await client.close();
    await until(() => kept.heard.length >= 3, 'the kept watcher to hear the disconnect');
    expect(kept.heard).toEqual(['connect', 'configure', 'disconnect']);
    expect(removed.heard).toEqual([]);
  });

  it('a watcher that came before, removed after the stream server exists, hears nothing more', async () => {
    const device = await start();
    const early = recorder();
    const kept = recorder();
    const unwatch = device.watchSessions(early.listener);
    device.watchSessions(kept.listener);
    const client = await connect(device);
    await until(() => early.heard.length >= 1, 'the connect');
    unwatch();
    await client.configure([{ topicFilter: 'tns1:Test/A' }]);
    await client.close();
    await until(() => kept.heard.length >= 3, 'the kept watcher to hear the disconnect');
    expect(early.heard).toEqual(['connect']);
    expect(kept.heard).toEqual(['connect', 'configure', 'disconnect']);
    unwatch(); // again: nothing happens
  });

  it('a watcher that came after the stream server existed hears the next session, until removed', async () => {
    const device = await start();
    const first = await connect(device);
    const late = recorder();
    const unwatch = device.watchSessions(late.listener);
    await first.configure([{ topicFilter: 'tns1:Test/A' }]);
    expect(late.heard).toEqual(['configure']);
    const second = await connect(device);
    await until(() => late.heard.length >= 2, 'the second connect');
    unwatch();
    await second.close();
    await first.configure([{ topicFilter: 'tns1:Test/B' }]);
    expect(late.heard).toEqual(['configure', 'connect']);
  });

  it('the same watcher given twice before the stream server exists hears each change once', async () => {
    const device = await start();
    const twice = recorder();
    device.watchSessions(twice.listener);
    device.watchSessions(twice.listener);
    const client = await connect(device);
    await client.configure([{ topicFilter: 'tns1:Test/A' }]);
    expect(twice.heard).toEqual(['connect', 'configure']);
  });
});
