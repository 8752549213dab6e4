/** Feature flag values survive a device restart when a state directory is given. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callFeatureFlags } from '../helpers/rpc-client';
import { createLogger, type DeviceHandle, type DeviceOptions, startDevice } from '../../src';

let stateDir: string;
const devices: DeviceHandle[] = [];
async function start(options: DeviceOptions = {}): Promise<DeviceHandle> {
  const device = await startDevice({ port: 0, stateDir, ...options });
  devices.push(device);
  return device;
}
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'bwc-state-'));
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.close()));
  rmSync(stateDir, { recursive: true, force: true });
});

function valueOf(device: DeviceHandle, name: string): boolean | undefined {
  return device.flags().find((f) => f.name === name)?.value;
}

describe('stateDir', () => {
  it('keeps values set over HTTP across a restart', async () => {
    const first = await start();
    const set = await callFeatureFlags(first, {
      apiVersion: '1.0',
      method: 'set',
      params: { flagValues: { graphics_udvd: true, bwc_gnss_track_upload: false } },
    });
    expect(set.json.data).toEqual({ result: 'Success' });
    await first.close();

    const second = await start();
    const list = await callFeatureFlags(second, { apiVersion: '1.0', method: 'listAll' });
    const values = Object.fromEntries(
      (list.json.data as { flags: Array<{ name: string; value: boolean }> }).flags.map((f) => [f.name, f.value]),
    );
    expect(values).toMatchObject({ graphics_udvd: true, bwc_gnss_track_upload: false, restrictRootAccess: false });
  });

  it('stores the values in <stateDir>/<serial>/flags.json, with no temp files left', async () => {
    const device = await start({ serial: 'SERIAL01' });
    await device.setFlags({ restrictRootAccess: true });
    expect(readdirSync(join(stateDir, 'SERIAL01'))).toEqual(['flags.json']);
    expect(JSON.parse(readFileSync(join(stateDir, 'SERIAL01', 'flags.json'), 'utf8'))).toMatchObject({
      restrictRootAccess: true,
    });
  });

  it('keeps devices with different serials apart', async () => {
    const a = await start({ serial: 'AAA' });
    const b = await start({ serial: 'BBB' });
    await a.setFlags({ graphics_udvd: true });
    await Promise.all([a.close(), b.close()]);
    expect(valueOf(await start({ serial: 'AAA' }), 'graphics_udvd')).toBe(true);
    expect(valueOf(await start({ serial: 'BBB' }), 'graphics_udvd')).toBe(false);
  });

  it('without stateDir, a restart starts from the defaults', async () => {
    const first = await start({ stateDir: undefined });
    await first.setFlags({ graphics_udvd: true });
    await first.close();
    expect(valueOf(await start({ stateDir: undefined }), 'graphics_udvd')).toBe(false);
  });

  it('a corrupted state file is logged as a warning and the device starts with defaults', async () => {
    mkdirSync(join(stateDir, 'ACCC8E000001'), { recursive: true });
    writeFileSync(join(stateDir, 'ACCC8E000001', 'flags.json'), '{"graphics_udvd": tr');
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) });
    const device = await start({ logger });
    expect(valueOf(device, 'graphics_udvd')).toBe(false);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/is not valid JSON/) as string }),
    );
    await device.setFlags({ graphics_udvd: true });
    expect(JSON.parse(readFileSync(join(stateDir, 'ACCC8E000001', 'flags.json'), 'utf8'))).toMatchObject({
      graphics_udvd: true,
    });
  });
});
