/**
 * Fleets: many devices from one scenario, each with its own serial, realm, flags, tokens and
 * sessions, `{{serial}}`/`{{index}}` filled per device, disjoint serial ranges with
 * deviceIndexBase, and one watch of a shared scenario file replaying it on every device.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmulatorHandle, loadScenario, type ScenarioReload, startEmulator } from '../../src';
import { digestRequest } from '../helpers/digest-request';
import { openWithToken } from '../helpers/event-stream-client';

const running: EmulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});
async function start(options: Parameters<typeof startEmulator>[0]): Promise<EmulatorHandle> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

const TEMPLATE = loadScenario(
  [
    'name: fleet',
    'states:',
    '  - topic: tns1:Device/tnsvendor:Status/Camera',
    '    source: { serial: "{{serial}}" }',
    '    data: { index: "{{ index }}" }',
    'timeline:',
    '  - pause: 1h',
    '',
  ].join('\n'),
  'fleet.yaml',
);

describe('a fleet', () => {
  it('runs 50 devices, each answering with its own identity on its own port', async () => {
    const fleet = await start({ devices: 50, device: { port: 0, serial: 'ACCC8E000100' } });
    expect(fleet.devices).toHaveLength(50);
    const serials = fleet.devices.map((d) => d.device.serial);
    expect(new Set(serials).size).toBe(50);
    expect(serials[0]).toBe('ACCC8E000100');
    expect(serials[49]).toBe('ACCC8E000149');
    expect(new Set(fleet.devices.map((d) => d.device.port)).size).toBe(50);
    const answers = await Promise.all(
      fleet.devices.map(async ({ device }) => {
        const answer = await digestRequest(device.url, {
          method: 'POST',
          path: new URL(device.urls.basicDeviceInfo).pathname,
          username: 'root',
          password: 'pass',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: '1.0', method: 'getAllProperties' }),
        });
        const json = JSON.parse(answer.body) as { data: { propertyList: { SerialNumber: string } } };
        return [json.data.propertyList.SerialNumber, device.realm.endsWith(device.serial)];
      }),
    );
    expect(answers).toEqual(serials.map((s) => [s, true]));
  });

  it('keeps flags, tokens and sessions per device', async () => {
    const fleet = await start({ devices: 3, device: { port: 0 } });
    const [a, b] = fleet.devices.map((d) => d.device);
    const name = fleet.flags()[0].name;
    await fleet.setFlags({ [name]: true }, { device: a.serial });
    await fleet.setFlags({ [name]: false }, { device: b.serial });
    expect([fleet.flags({ device: 0 })[0].value, fleet.flags({ device: 1 })[0].value]).toEqual([true, false]);
    const token = a.issueToken();
    await expect(openWithToken(b, token)).rejects.toThrow(); // a token of one camera is unknown to another
    const client = await openWithToken(a, a.issueToken());
    await client.configure([{ topicFilter: '' }]);
    expect(fleet.sessions().map((s) => s.device)).toEqual([a.serial]);
    await client.close();
  });

  it('fills {{serial}} and {{index}} per device, with indexes from deviceIndexBase', async () => {
    if (!TEMPLATE.ok) throw new Error(TEMPLATE.error.message);
    const fleet = await start({
      scenarios: [{ scenario: TEMPLATE.value }],
      devices: 2,
      deviceIndexBase: 40,
      device: { port: 0, serial: 'CAM000' },
    });
    expect(fleet.devices.map((d) => d.device.serial)).toEqual(['CAM040', 'CAM041']);
    for (const [i, { device, scenario }] of fleet.devices.entries()) {
      expect(scenario.states?.[0]).toMatchObject({
        source: { serial: device.serial },
        data: { index: String(40 + i) },
      });
    }
    expect(TEMPLATE.value.states?.[0].source).toEqual({ serial: '{{serial}}' }); // the original is untouched
  });

  it('refuses a fleet size that does not fit the scenarios, or a bad index base', async () => {
    await expect(startEmulator({ scenarios: ['motion', 'io-port'], devices: 3 })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('2 scenarios') as string,
    });
    await expect(startEmulator({ devices: 0 })).rejects.toMatchObject({ code: 'BAD_OPTION' });
    await expect(startEmulator({ devices: 2, deviceIndexBase: -1 })).rejects.toMatchObject({ code: 'BAD_OPTION' });
    await expect(startEmulator({ devices: 3, device: { port: 65534 } })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: 'devices 3 from port 65534 would go past port 65535; use port 0 for free ports',
    });
    for (const token of ['', 'two words', 'tab\there'])
      await expect(startEmulator({ control: { token } })).rejects.toMatchObject({ code: 'BAD_OPTION' });
  });

  it('watches a shared scenario file once and replays a save on every device', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-fleet-'));
    try {
      const file = join(dir, 'shared.yaml');
      writeFileSync(file, 'name: first\ntimeline:\n  - pause: 1h\n');
      let heard: (reload: ScenarioReload) => void = () => undefined;
      const reloads: ScenarioReload[] = [];
      const fleet = await start({
        scenarios: [file],
        devices: 3,
        device: { port: 0 },
        watch: true,
        onReload: (reload) => {
          reloads.push(reload);
          heard(reload);
        },
      });
      const reloaded = new Promise((resolve) => (heard = resolve));
      writeFileSync(file, 'name: second\ntimeline:\n  - pause: 1h\n');
      await reloaded;
      expect(reloads).toHaveLength(1);
      expect(fleet.devices.map((d) => d.scenario.name)).toEqual(['second', 'second', 'second']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
