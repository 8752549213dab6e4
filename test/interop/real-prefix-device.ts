/**
 * A device as the interop clients expect one: the real-device prefixes /axis-cgi and /vapix
 * and a real-looking identity, closed after each test of the file that calls this.
 */
import { type DeviceHandle, type DeviceOptions, startDevice } from '../../src';

/** Registers the `afterEach` that closes the device; returns how to start it (`options` win). */
export function realPrefixDevice(): (options?: DeviceOptions) => Promise<DeviceHandle> {
  let device: DeviceHandle | undefined;
  afterEach(async () => {
    await device?.close();
    device = undefined;
  });
  return async (options = {}) => {
    device = await startDevice({
      port: 0,
      cgiPrefix: '/axis-cgi',
      wsPrefix: '/vapix',
      serial: 'ACCC8E00ABCD',
      identity: { Brand: 'AXIS', ProdNbr: 'W110', Version: '11.11.73' },
      ...options,
    });
    return device;
  };
}
