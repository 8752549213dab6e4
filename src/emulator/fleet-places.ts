/**
 * Where the devices of a fleet listen (ports mode or address mode), and the progress of
 * their start.
 */
import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { EmulatorError } from '../base/errors';
import type { DeviceOptions } from '../device/device-options';
import type { RunningDevice } from './running-device';

/**
 * Where each device of a fleet listens. Address mode: its address, at the port the first one
 * opened. Ports mode: `port` + i; with port 0, the ports after the first device's free one
 * while they are free (binding a given port is quick, while the kernel's search for a free one
 * slows with every port taken), and a free one wherever that is taken.
 */
export class FleetPlaces {
  /** Address mode: the shared port (once the first device has opened it). Ports mode: the first device's port. */
  private port: number;
  /** Ports mode with free ports: the port the next device tries first. */
  private next = 0;
  private readonly free: boolean;

  constructor(
    base: DeviceOptions,
    private readonly addresses: AddressRange | undefined,
  ) {
    this.port = addresses ? (base.port ?? (base.tls ? 443 : 80)) : (base.port ?? 0);
    this.free = !addresses && this.port === 0;
  }

  /** Starts device `i` with `start` at its place. */
  async start(i: number, start: (place: DeviceOptions) => Promise<RunningDevice>): Promise<RunningDevice> {
    const { addresses } = this;
    if (addresses) {
      const device = await start({ host: addresses.at(i), sharePort: true, port: this.port });
      if (i === 0) this.port = device.device.port;
      return device;
    }
    if (!this.free) return start({ port: this.port && this.port + i });
    for (let tries = 0; i > 0 && tries < MAX_TRIES && this.next > 0 && this.next <= 65535; tries++) {
      try {
        const device = await start({ port: this.next++ });
        return device;
      } catch (err) {
        if (!(err instanceof EmulatorError && err.code === 'PORT_IN_USE')) throw err;
      }
    }
    const device = await start({ port: 0 });
    this.next = device.device.port + 1;
    return device;
  }
}

/** How many taken ports in a row a free-port fleet tries past before it asks the kernel for a free one. */
const MAX_TRIES = 16;

/** A range of IPv4 addresses, one per device. */
export interface AddressRange {
  at(i: number): string;
}

/**
 * The `count` addresses from `start` (BAD_OPTION unless an IPv4 address whose range stays in
 * IPv4, and, outside 127.0.0.0/8, addresses of this machine's interfaces).
 */
export function addressRange(start: string, count: number): AddressRange {
  if (typeof start !== 'string' || !isIPv4(start))
    throw new EmulatorError(
      'BAD_OPTION',
      `addressRange "${String(start)}" must be an IPv4 address, the first device's (e.g. 127.1.0.1)`,
    );
  const first = start.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const last = first + count - 1;
  if (last > 0xffffffff)
    throw new EmulatorError('BAD_OPTION', `addressRange ${start} + ${count} devices goes past 255.255.255.255`);
  const at = (i: number): string => {
    const n = first + i;
    return `${Math.floor(n / 0x1000000)}.${Math.floor(n / 0x10000) % 256}.${Math.floor(n / 0x100) % 256}.${n % 256}`;
  };
  const loopback = (n: number): boolean => Math.floor(n / 0x1000000) === 127;
  if (!loopback(first) || !loopback(last)) {
    const mine = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address)));
    for (let i = 0; i < count; i++)
      if (!loopback(first + i) && !mine.has(at(i)))
        throw new EmulatorError(
          'BAD_OPTION',
          `address ${at(i)} (device ${i + 1} of addressRange ${start}) is not an address of this machine: use one in ` +
            `127.0.0.0/8 (loopback, no set-up on Linux), or add it first (ip addr add ${at(i)}/32 dev lo)`,
        );
  }
  return { at };
}

/** Tells `onProgress` of every 1% of `total` started, and of the last. */
export function progressOf(
  onProgress: ((started: number, total: number) => void) | undefined,
  total: number,
): (started: number) => void {
  if (!onProgress) return () => undefined;
  const step = Math.max(1, Math.floor(total / 100));
  return (started) => {
    if (started % step === 0 || started === total) onProgress(started, total);
  };
}
