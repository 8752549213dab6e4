/**
 * The device a fuzz surface runs against: started from the public API on a free port,
 * its error-level log lines collected, login throttling off (every wrong password would
 * otherwise soon be a 429), limits on tokens and sessions far above a run, Basic on
 * over plain HTTP so both schemes are exercised, and nonces that outlive the run.
 */
import { type DeviceHandle, type DeviceOptions, startDevice } from '../../src';
import { ErrorLog } from './error-log';

/** A device under fuzz and its error log. */
export interface FuzzDevice {
  device: DeviceHandle;
  errors: ErrorLog;
}

/** Starts the device; `options` add to or override the fuzz settings; devices may share one `errors`. */
export async function startFuzzDevice(options: DeviceOptions = {}, errors = new ErrorLog()): Promise<FuzzDevice> {
  const device = await startDevice({
    port: 0,
    logger: errors.logger,
    basicOverHttp: true,
    nonceLifetimeMs: 86_400_000,
    ...options,
    limits: {
      loginFailuresPerRemote: 0,
      loginFailuresPerRemoteUser: 0,
      tokensPerAccount: 1_000_000,
      maxSessions: 1_000_000,
      maxSessionsPerAccount: 1_000_000,
      maxAccountTerms: 100_000_000,
      maxDeviceTerms: 100_000_000,
      ...options.limits,
    },
  });
  return { device, errors };
}
