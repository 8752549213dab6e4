/**
 * Scenarios on a real device: every shipped scenario validates and, played for a few
 * simulated seconds (a ManualScheduler, no sleeps), delivers its topics to a
 * subscribed client over a real socket; `on:` triggers fire on connect and configure.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deviceStarter } from '../helpers/devices';
import {
  openWithToken,
  refusedHandshake,
  type StreamClient,
  topicsDuring,
  wsUrl,
} from '../helpers/event-stream-client';
import {
  type DeviceHandle,
  deviceOptionsForScenario,
  loadScenario,
  loadScenarioFile,
  ManualScheduler,
  playOnDevice,
  type Scenario,
  type ScenarioRun,
} from '../../src';

const SCENARIOS = join(__dirname, '..', '..', 'scenarios');
const start = deviceStarter();
const runs: ScenarioRun[] = [];
const clients: StreamClient[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) run.stop();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function load(file: string): Promise<Scenario> {
  const result = await loadScenarioFile(file);
  if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
  return result.value;
}

/** A device for `scenario`, a client subscribed to everything, and the scenario playing on a manual scheduler. */
async function play(
  scenario: Scenario,
): Promise<{ device: DeviceHandle; client: StreamClient; scheduler: ManualScheduler }> {
  // The device's clock is the scenario's scheduler: token and reject-auth times move with it.
  const scheduler = new ManualScheduler(Date.UTC(2026, 10, 23, 8));
  const device = await start(deviceOptionsForScenario(scenario, { clock: scheduler }));
  runs.push(playOnDevice(device, scenario, { scheduler, seed: 7 }));
  const client = await openWithToken(device);
  clients.push(client);
  expect((await client.configure([{ topicFilter: '' }])).data).toEqual({});
  return { device, client, scheduler };
}

const shipped = readdirSync(SCENARIOS).filter((f) => f.endsWith('.yaml'));

describe('shipped scenarios', () => {
  it('there are some', () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        'default.yaml',
        'motion.yaml',
        'io-port.yaml',
        'body-worn-shift.yaml',
        'flaky-network.yaml',
      ]),
    );
  });

  it.each(shipped)('%s validates', async (file) => {
    await expect(load(join(SCENARIOS, file))).resolves.toBeDefined();
  });

  it('default: system ready and ports on configure, motion on and off every 10 s, port 1 toggling', async () => {
    const { device, client, scheduler } = await play(await load(join(SCENARIOS, 'default.yaml')));
    const initial = await topicsDuring(device, client, scheduler, 0);
    expect(initial.sort()).toEqual([
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:Device/tnsvendor:Status/SystemReady',
    ]);
    expect(await topicsDuring(device, client, scheduler, 9_999)).toEqual([]);
    expect(await topicsDuring(device, client, scheduler, 1)).toEqual(['tns1:VideoSource/MotionAlarm']);
    expect(await topicsDuring(device, client, scheduler, 2_000)).toEqual(['tns1:VideoSource/MotionAlarm']);
    expect(await topicsDuring(device, client, scheduler, 8_000)).toEqual([
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:VideoSource/MotionAlarm',
    ]);
    expect(await topicsDuring(device, client, scheduler, 1_000)).toEqual(['tns1:Device/tnsvendor:IO/Port']);
  });

  it('motion: bursts from the rule engine and the video source', async () => {
    const { device, client, scheduler } = await play(await load(join(SCENARIOS, 'motion.yaml')));
    const topics = await topicsDuring(device, client, scheduler, 12_000);
    expect(topics.filter((t) => t === 'tns1:RuleEngine/MotionRegionDetector/Motion')).toHaveLength(6);
    expect(topics.filter((t) => t === 'tns1:VideoSource/MotionAlarm')).toHaveLength(6);
    expect(device.options.identity.ProdNbr).toBe('W110');
  });

  it('io-port: three door cycles of port 1 and the relay on port 2', async () => {
    const { device, client, scheduler } = await play(await load(join(SCENARIOS, 'io-port.yaml')));
    await topicsDuring(device, client, scheduler, 0); // the initial states
    expect(await topicsDuring(device, client, scheduler, 28_000)).toEqual(
      new Array(12).fill('tns1:Device/tnsvendor:IO/Port'),
    );
    expect(await topicsDuring(device, client, scheduler, 6_000)).toEqual(
      new Array(2).fill('tns1:Device/tnsvendor:IO/VirtualInput'),
    );
  });
});

describe('shipped scenarios that act on sessions', () => {
  it('body-worn-shift: undock, GPS, a recording with two bookmarks, dock', async () => {
    const { device, client, scheduler } = await play(await load(join(SCENARIOS, 'body-worn-shift.yaml')));
    expect(device.serial).toBe('ACCC8E00B0D1');
    await topicsDuring(device, client, scheduler, 0); // the initial states
    const topics = await topicsDuring(device, client, scheduler, 180_000);
    const count = (t: string): number => topics.filter((x) => x === `tns1:Device/tnsvendor:${t}`).length;
    expect([
      count('BodyWorn/Docked'),
      count('BodyWorn/Recording'),
      count('BodyWorn/ButtonPress'),
      count('GNSS/Position'),
      count('Power/Battery'),
    ]).toEqual([2, 2, 2, 8, 4]);
    expect(topics.indexOf('tns1:Device/tnsvendor:BodyWorn/ButtonPress')).toBeGreaterThan(
      topics.indexOf('tns1:Device/tnsvendor:BodyWorn/Recording'),
    );
  });

  it('flaky-network: streams dropped with 1011, then a reboot: 1001 and logins refused for 8 s', async () => {
    const { device, client, scheduler } = await play(await load(join(SCENARIOS, 'flaky-network.yaml')));
    scheduler.advance(10_000);
    expect(await client.waitForClose()).toEqual({ code: 1011, reason: 'network trouble' });
    const again = await openWithToken(device);
    clients.push(again);
    await again.configure([{ topicFilter: '' }]);
    scheduler.advance(10_000);
    expect(await again.waitForClose()).toEqual({ code: 1001, reason: 'device rebooting' });
    const refused = await refusedHandshake(
      wsUrl(device, `/svc/ws-data-stream?sources=events&wssession=${device.issueToken()}`),
    );
    expect(refused.status).toBe(401);
    scheduler.advance(8_000);
    const back = await openWithToken(device);
    clients.push(back);
    await back.configure([{ topicFilter: 'tns1:Device/tnsvendor:Status/SystemReady' }]);
    expect((await back.next()).params?.notification.message.data).toEqual({ ready: '1' });
  });
});

describe('triggers and flags on a device', () => {
  it('on: connect and on: { configure: topic } fire from real sessions; flags reach featureflag state', async () => {
    const result = loadScenario(
      [
        'flags: { scenario_flag: true }',
        'device: { serial: ACCC8E00BEEF, firmware: 12.0.1 }',
        'timeline:',
        '  - on: connect',
        '    emit: { topic: tns1:Test/Connected }',
        '  - on: { configure: tns1:VideoSource/MotionAlarm }',
        '    after: 1s',
        '    emit: { topic: tns1:VideoSource/MotionAlarm, data: { State: 1 } }',
        '',
      ].join('\n'),
      'triggers.yaml',
    );
    if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
    const { device, client, scheduler } = await play(result.value);
    expect(device.serial).toBe('ACCC8E00BEEF');
    expect(device.options.identity.Version).toBe('12.0.1');
    expect(device.flags().find((f) => f.name === 'scenario_flag')?.value).toBe(true);
    // Trigger steps run on the scenario's scheduler: the connect event comes once time
    // moves, after the states the configure brought. The configure for "everything"
    // subscribes to the motion topic, so that trigger fires 1 s after it.
    expect(await topicsDuring(device, client, scheduler, 0)).toEqual([
      'tns1:Device/tnsvendor:Status/SystemReady',
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:Test/Connected',
    ]);
    expect(await topicsDuring(device, client, scheduler, 999)).toEqual([]);
    expect(await topicsDuring(device, client, scheduler, 1)).toEqual(['tns1:VideoSource/MotionAlarm']);
    const second = await openWithToken(device);
    clients.push(second);
    expect(await topicsDuring(device, client, scheduler, 0)).toEqual(['tns1:Test/Connected']);
    await second.configure([{ topicFilter: 'tns1:Device//.' }]); // does not subscribe to motion
    expect(await topicsDuring(device, client, scheduler, 5_000)).toEqual([]);
  });
});
