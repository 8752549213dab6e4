/** Which devices `GET /_emu/devices` answers (issue 33): matched and paged before any access is made. */
import type { ListedDevice } from '../../../src/control/controlled-emulator';
import { devicePage, DevicesQuerySchema } from '../../../src/control/device-listing';

/** `count` devices at 127.1.0.1 + i, port 80, counting the reads of their access. */
function fleet(count: number): { devices: ListedDevice[]; reads: () => number } {
  let reads = 0;
  const devices = Array.from({ length: count }, (_, i) => {
    const serial = `ACCC8E${String(i + 1).padStart(6, '0')}`;
    return {
      device: { serial, host: `127.1.${Math.floor((i + 1) / 256)}.${(i + 1) % 256}`, port: 80 },
      get access() {
        reads++;
        return { serial } as ListedDevice['access'];
      },
    };
  });
  return { devices, reads: () => reads };
}

const serialsOf = (page: { devices: readonly ListedDevice[] }): string[] => page.devices.map((d) => d.device.serial);

describe('devicePage', () => {
  it('reads no access: a page of a big fleet costs only its own devices', () => {
    const { devices, reads } = fleet(100_000);
    const page = devicePage(devices, DevicesQuerySchema.parse({ q: '127.1.1', limit: '5', offset: '1' }));
    expect(serialsOf(page)).toEqual(['ACCC8E000257', 'ACCC8E000258', 'ACCC8E000259', 'ACCC8E000260', 'ACCC8E000261']);
    expect(page.total).toBeGreaterThan(256);
    expect(devicePage(devices, DevicesQuerySchema.parse({ limit: '3', offset: '99999' })).total).toBe(100_000);
    expect(reads()).toBe(0);
  });

  it('answers every device without a query, and none past the end', () => {
    const { devices } = fleet(3);
    expect(devicePage(devices, {})).toEqual({ devices, total: 3 });
    expect(devicePage(devices, { offset: 3, limit: 1 })).toEqual({ devices: [], total: 3 });
  });

  it('matches every word in the serial or host:port, any case', () => {
    const { devices } = fleet(300);
    expect(serialsOf(devicePage(devices, { q: 'accc8e000299' }))).toEqual(['ACCC8E000299']);
    expect(serialsOf(devicePage(devices, { q: '127.1.1.43:80' }))).toEqual(['ACCC8E000299']);
    expect(serialsOf(devicePage(devices, { q: ' 299  127.1.1 ' }))).toEqual(['ACCC8E000299']);
    // No word spans the serial and the address.
    expect(devicePage(devices, { q: '000299127' }).total).toBe(0);
  });
});
