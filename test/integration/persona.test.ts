/**
 * A device with the `axis` persona playing shipped scenarios: the CGIs under /axis-cgi,
 * the stream under /vapix, realm AXIS_<serial>, and the scenarios' `tnsvendor:` topics
 * published as `tnsaxis:` to a client that filters on the vendor namespace. Clients of
 * such devices marshal `"contentFilter": ""` and `channelFilter` too; the device accepts them.
 */
import { join } from 'node:path';
import { fetchChallenges } from '../helpers/digest-request';
import { deviceStarter } from '../helpers/devices';
import {
  fetchToken,
  notificationOf,
  openWithToken,
  type StreamClient,
  topicsDuring,
} from '../helpers/event-stream-client';
import {
  deviceOptionsForScenario,
  type EmulatorHandle,
  loadScenarioFile,
  ManualScheduler,
  playOnDevice,
  type Scenario,
  type ScenarioRun,
  startEmulator,
} from '../../src';

const SCENARIOS = join(__dirname, '..', '..', 'scenarios');
const AXIS_PORT = 'tns1:Device/tnsaxis:IO/Port';
/** topicsDuring ends each wait with this topic, so every client here subscribes to it too. */
const MARKER = { topicFilter: 'tns1:Test/Marker' };
const start = deviceStarter();
const runs: ScenarioRun[] = [];
const clients: StreamClient[] = [];
const emulators: EmulatorHandle[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) run.stop();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function load(name: string): Promise<Scenario> {
  const result = await loadScenarioFile(join(SCENARIOS, `${name}.yaml`));
  if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
  return result.value;
}

describe("persona 'axis' with a shipped scenario", () => {
  it('io-port: tnsaxis topics to a filter on tns1:Device/tnsaxis:IO/Port, over /axis-cgi and /vapix', async () => {
    const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23, 8));
    const scenario = await load('io-port');
    const device = await start(deviceOptionsForScenario(scenario, { persona: 'axis', clock: scheduler }));
    runs.push(playOnDevice(device, scenario, { scheduler, seed: 7 }));
    expect(new URL(device.urls.sessionToken).pathname).toBe('/axis-cgi/wssession.cgi');
    expect(new URL(device.urls.eventStream).pathname).toBe('/vapix/ws-data-stream');
    expect((await fetchChallenges(device.url, '/axis-cgi/wssession.cgi'))[0]).toMatch(
      /^Digest realm="AXIS_ACCC8E000001", /,
    );

    // A token over real digest, as a client of the real device family gets it.
    const client = await openWithToken(device, await fetchToken(device));
    clients.push(client);
    const answer = await client.configure([{ topicFilter: AXIS_PORT, contentFilter: '', channelFilter: [] }, MARKER]);
    expect(answer.error).toBeUndefined();
    const initial = [notificationOf(await client.next()), notificationOf(await client.next())];
    expect(initial.map((n) => [n.topic, n.message.source])).toEqual([
      [AXIS_PORT, { port: '1' }],
      [AXIS_PORT, { port: '2' }],
    ]);
    // The first door cycle: port 1 opens, the relay on port 2 follows, both close.
    const topics = await topicsDuring(device, client, scheduler, 12_000);
    expect(topics).toEqual(new Array(4).fill(AXIS_PORT));
  });

  it('a filter written in the neutral namespace still selects the tnsaxis topics', async () => {
    const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23, 8));
    const scenario = await load('io-port');
    const device = await start(deviceOptionsForScenario(scenario, { persona: 'axis', clock: scheduler }));
    runs.push(playOnDevice(device, scenario, { scheduler, seed: 7 }));
    const client = await openWithToken(device);
    clients.push(client);
    await client.configure([{ topicFilter: 'onvif:Device/tnsvendor:IO/VirtualInput' }, MARKER]);
    expect(notificationOf(await client.next()).topic).toBe('tns1:Device/tnsaxis:IO/VirtualInput');
    expect(await topicsDuring(device, client, scheduler, 34_000)).toEqual(
      new Array(2).fill('tns1:Device/tnsaxis:IO/VirtualInput'),
    );
  });
});

describe("startEmulator({ device: { persona: 'axis' } })", () => {
  it('plays the default scenario in the tnsaxis namespace; the journal keeps what the client sent', async () => {
    const emulator = await startEmulator({ device: { persona: 'axis', port: 0 } });
    emulators.push(emulator);
    const { device } = emulator.devices[0];
    expect(device.realm).toBe('AXIS_ACCC8E000001');
    const client = await openWithToken(device);
    clients.push(client);
    const sent = [{ topicFilter: AXIS_PORT, contentFilter: '' }];
    expect(
      (
        await client.request({
          apiVersion: '1',
          method: 'events:configure',
          params: { eventFilterList: sent, channelFilter: null },
        })
      ).error,
    ).toBeUndefined();
    const states = [notificationOf(await client.next()), notificationOf(await client.next())];
    expect(states.map((n) => [n.topic, n.message.data])).toEqual([
      [AXIS_PORT, { state: '0' }],
      [AXIS_PORT, { state: '0' }],
    ]);
    expect(device.sessions()[0].filters).toEqual([{ topicFilter: AXIS_PORT }]);
    const configured = emulator.journal({ kind: 'configure' });
    expect(configured.at(-1)).toMatchObject({ kind: 'configure', filters: sent, error: undefined });
  });
});
