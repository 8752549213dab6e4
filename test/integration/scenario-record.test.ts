/**
 * Record -> replay against the emulator itself: events recorded from one device (digest
 * handshake or a session token) become a scenario that, played on a second device,
 * gives a subscribed client the same topics, data and relative order.
 */
import type { DeviceHandle } from '../../src/device/device';
import { loadScenario } from '../../src/scenario/load';
import { deviceOptionsForScenario, playOnDevice } from '../../src/scenario/play-on-device';
import { recordEvents, toScenarioYaml } from '../../src/scenario/recorder';
import { ManualScheduler } from '../../src/scenario/scheduler';
import { deviceStarter } from '../helpers/devices';
import { openWithToken } from '../helpers/event-stream-client';

const start = deviceStarter({ initialStates: [] });
const SEQUENCE: { topic: string; source: Record<string, string>; data: Record<string, string> }[] = [
  { topic: 'tns1:VideoSource/MotionAlarm', source: { VideoSourceConfigurationToken: '1' }, data: { State: '1' } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', source: { port: '2' }, data: { state: '1' } },
  { topic: 'tns1:VideoSource/MotionAlarm', source: { VideoSourceConfigurationToken: '1' }, data: { State: '0' } },
];

/** Publishes SEQUENCE once a session has configured (no sleeps: waits on the device). */
function publishWhenConfigured(device: DeviceHandle): void {
  const stop = device.watchSessions((change) => {
    if (change.kind !== 'configure') return;
    stop();
    setImmediate(() => SEQUENCE.forEach((e) => device.publish(e.topic, { source: e.source, data: e.data })));
  });
}

describe('bwc-emu record', () => {
  it.each([
    ['digest on the handshake', false],
    ['a session token', true],
  ])('records with %s, and the replay gives the same topics, data and order', async (_how, token) => {
    const source = await start();
    publishWhenConfigured(source);
    const events = await recordEvents({ url: `${source.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`, token, maxEvents: SEQUENCE.length });
    expect(events.map((e) => [e.topic, e.data])).toEqual(SEQUENCE.map((e) => [e.topic, e.data]));
    expect(events[0].atMs).toBe(0);

    const yaml = toScenarioYaml(events, { name: 'capture', source: source.url });
    const loaded = loadScenario(yaml, 'capture.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.text).join('\n'));

    const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23));
    const replay = await start(deviceOptionsForScenario(loaded.scenario, { clock: scheduler }));
    const run = playOnDevice(replay, loaded.scenario, { scheduler });
    const client = await openWithToken(replay);
    await client.configure([{ topicFilter: '' }]);
    scheduler.advance(events[events.length - 1].atMs);
    const notes = await client.nextN(SEQUENCE.length);
    expect(notes.map((n) => [n.params.notification.topic, n.params.notification.message.source, n.params.notification.message.data])).toEqual(
      SEQUENCE.map((e) => [e.topic, e.source, e.data]),
    );
    run.stop();
    await client.close();
  });

  it('a wrong password is a clear error', async () => {
    const source = await start();
    await expect(recordEvents({ url: `${source.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`, password: 'wrong', maxEvents: 1 })).rejects.toThrow(
      'the device refused the stream: HTTP 401 (wrong user or password?)',
    );
    await expect(recordEvents({ url: `${source.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`, token: true, password: 'wrong', maxEvents: 1 })).rejects.toThrow(
      '/svc-cgi/wssession.cgi answered HTTP 401 (wrong user or password?)',
    );
  });

  it('a filter that does not parse is the device\'s 2104, said plainly', async () => {
    const source = await start();
    await expect(recordEvents({ url: `${source.url.replace('http', 'ws')}/svc/ws-data-stream?sources=events`, filters: ['tns1:Device/'], maxEvents: 1 })).rejects.toThrow(/events:configure refused: 2104/);
  });
});
