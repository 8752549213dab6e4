import { type DeviceHandle, type DeviceOptions, startDevice } from '../../src';
/** Devices for a test file: started on a free port, all closed after each test. */

/** Registers an `afterEach` that closes what the returned `start()` started. */
export function deviceStarter(defaults: DeviceOptions = {}): (options?: DeviceOptions) => Promise<DeviceHandle> {
  const devices: DeviceHandle[] = [];
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.close()));
  });
  return async (options = {}) => {
    const device = await startDevice({ port: 0, ...defaults, ...options });
    devices.push(device);
    return device;
  };
}
