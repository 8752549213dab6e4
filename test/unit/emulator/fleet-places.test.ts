/**
 * Where a fleet's devices listen: the address range of address mode (octet carries, IPv4 only,
 * loopback or the machine's own addresses), the start's progress (every 1%, never a call per
 * device of a big fleet), and FleetPlaces with a fake start (the shared port of address mode,
 * port + i, consecutive free ports past taken ones).
 */
import { networkInterfaces } from 'node:os';
import fc from 'fast-check';
import { EmulatorError } from '../../../src/base/errors';
import type { DeviceOptions } from '../../../src/device/device-options';
import { addressRange, FleetPlaces, progressOf } from '../../../src/emulator/fleet-places';
import type { RunningDevice } from '../../../src/emulator/running-device';
import { propertyRuns } from '../../helpers/fast-check-config';

/** The error `fn` throws, as `CODE: message`. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof EmulatorError) return `${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
}

/** `n` as a dotted IPv4 address, worked out another way than the code's. */
function dotted(n: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return [...bytes].join('.');
}

describe('addressRange', () => {
  it('counts across octet boundaries', () => {
    const range = addressRange('127.1.0.254', 3);
    expect([0, 1, 2].map((i) => range.at(i))).toEqual(['127.1.0.254', '127.1.0.255', '127.1.1.0']);
    expect(addressRange('127.1.0.255', 2).at(1)).toBe('127.1.1.0');
    expect(addressRange('127.0.255.255', 2).at(1)).toBe('127.1.0.0');
    const big = addressRange('127.1.0.1', 100_000);
    expect(big.at(0)).toBe('127.1.0.1');
    expect(big.at(255)).toBe('127.1.1.0');
    expect(big.at(99_999)).toBe('127.2.134.160');
  });

  it('gives the dotted form of start + i (property)', () => {
    const loopbackFirst = 127 * 0x1000000;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffff }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.nat(),
        (offset, wanted, pick) => {
          const first = loopbackFirst + offset;
          const count = Math.min(wanted, loopbackFirst + 0xffffff - first + 1);
          const i = pick % count;
          expect(addressRange(dotted(first), count).at(i)).toBe(dotted(first + i));
        },
      ),
      propertyRuns(500),
    );
  });

  it.each(['localhost', '::1', '127.1.0', '127.1.0.300', '', ' 127.1.0.1', '127.1.0.1/8'])(
    'refuses %p: not an IPv4 address',
    (start) => {
      expect(thrown(() => addressRange(start, 1))).toMatch(/^BAD_OPTION: addressRange ".*" must be an IPv4 address/);
    },
  );

  it('refuses a start that is not a string', () => {
    expect(thrown(() => addressRange(undefined as unknown as string, 1))).toMatch(
      /^BAD_OPTION: addressRange "undefined"/,
    );
  });

  it('refuses a range past 255.255.255.255, and not one that ends there', () => {
    expect(thrown(() => addressRange('255.255.255.250', 7))).toBe(
      'BAD_OPTION: addressRange 255.255.255.250 + 7 devices goes past 255.255.255.255',
    );
    // Six end at 255.255.255.255: not past IPv4, refused only as not this machine's.
    expect(thrown(() => addressRange('255.255.255.250', 6))).not.toContain('goes past');
  });

  it('refuses an address outside loopback that is not this machine, saying how to add it', () => {
    const message = thrown(() => addressRange('203.0.113.7', 3));
    expect(message).toContain('BAD_OPTION: address 203.0.113.7 (device 1 of addressRange 203.0.113.7)');
    expect(message).toContain('127.0.0.0/8');
    expect(message).toContain('ip addr add 203.0.113.7/32 dev lo');
  });

  it('refuses a loopback range that runs out of 127.0.0.0/8, naming the first address outside', () => {
    const message = thrown(() => addressRange('127.255.255.254', 3));
    expect(message).toContain('address 128.0.0.0 (device 3 of addressRange 127.255.255.254)');
    expect(message).toContain('ip addr add 128.0.0.0/32');
    expect(addressRange('127.255.255.254', 2).at(1)).toBe('127.255.255.255');
  });

  const own = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((a) => a.family === 'IPv4' && !a.address.startsWith('127.'))?.address;
  (own ? it : it.skip)("takes this machine's own address outside loopback, and refuses the next one", () => {
    const address = own as string;
    expect(addressRange(address, 1).at(0)).toBe(address);
    const parts = address.split('.').map(Number);
    const next = dotted(((parts[0] * 256 + parts[1]) * 256 + parts[2]) * 256 + parts[3] + 1);
    const mine = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
    if (!mine.includes(next)) expect(thrown(() => addressRange(address, 2))).toContain(`address ${next} (device 2 of`);
  });
});

describe('progressOf', () => {
  /** What `onProgress` is told while `total` devices start one by one. */
  function told(total: number): [number, number][] {
    const calls: [number, number][] = [];
    const progress = progressOf((started, all) => calls.push([started, all]), total);
    for (let started = 1; started <= total; started++) progress(started);
    return calls;
  }

  it('tells every 1% of 100,000 and the end: 100 calls, not one per device', () => {
    const calls = told(100_000);
    expect(calls).toHaveLength(100);
    expect(calls[0]).toEqual([1000, 100_000]);
    expect(calls[99]).toEqual([100_000, 100_000]);
    expect(calls.every(([started], k) => started === (k + 1) * 1000)).toBe(true);
  });

  it('tells the end when it is no whole step, once', () => {
    const calls = told(12_345);
    expect(calls).toHaveLength(101);
    expect(calls[99]).toEqual([12_300, 12_345]);
    expect(calls[100]).toEqual([12_345, 12_345]);
  });

  it('tells each start of a fleet of fewer than 100, and the one device of a fleet of 1', () => {
    expect(told(3)).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(told(1)).toEqual([[1, 1]]);
  });

  it('ends with the total, rises by at most 1% at a time, and calls at most 101 times from 10,000 on (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120_000 }), (total) => {
        const calls = told(total);
        expect(calls[calls.length - 1]).toEqual([total, total]);
        const step = Math.max(1, Math.floor(total / 100));
        calls.forEach(([started], k) => expect(started - (k === 0 ? 0 : calls[k - 1][0])).toBeLessThanOrEqual(step));
        if (total >= 10_000) expect(calls.length).toBeLessThanOrEqual(101);
      }),
      propertyRuns(40),
    );
  });

  it('does nothing without a callback', () => {
    const progress = progressOf(undefined, 10);
    for (let started = 1; started <= 10; started++) expect(progress(started)).toBeUndefined();
  });
});

/** A fake start: records each place, answers with the port `portOf` gives (or throws what it throws). */
function fakeStart(portOf: (place: DeviceOptions) => number): {
  places: DeviceOptions[];
  start: (place: DeviceOptions) => Promise<RunningDevice>;
} {
  const places: DeviceOptions[] = [];
  // Async: what portOf throws is the promise's rejection, as a device that cannot listen.
  const start = async (place: DeviceOptions): Promise<RunningDevice> => {
    places.push(place);
    await Promise.resolve();
    return { device: { port: portOf(place) } } as unknown as RunningDevice;
  };
  return { places, start };
}

const TAKEN = (): never => {
  throw new EmulatorError('PORT_IN_USE', 'taken');
};

describe('FleetPlaces', () => {
  it('address mode: each device at its address, sharing the port the first one opened', async () => {
    const places = new FleetPlaces({ port: 0 }, addressRange('127.1.0.255', 3));
    const fake = fakeStart((place) => (place.port === 0 ? 40_123 : (place.port as number)));
    for (let i = 0; i < 3; i++) await places.start(i, fake.start);
    expect(fake.places).toEqual([
      { host: '127.1.0.255', sharePort: true, port: 0 },
      { host: '127.1.1.0', sharePort: true, port: 40_123 },
      { host: '127.1.1.1', sharePort: true, port: 40_123 },
    ]);
  });

  it('address mode: port 80 unless told, 443 with TLS, the given one otherwise', async () => {
    for (const [base, port] of [
      [{}, 80],
      [{ tls: true }, 443],
      [{ port: 8080, tls: true }, 8080],
    ] as [DeviceOptions, number][]) {
      const fake = fakeStart((place) => place.port as number);
      const places = new FleetPlaces(base, addressRange('127.1.0.1', 2));
      await places.start(0, fake.start);
      await places.start(1, fake.start);
      expect(fake.places.map((p) => p.port)).toEqual([port, port]);
    }
  });

  it('ports mode with a port: device i at port + i', async () => {
    const fake = fakeStart((place) => place.port as number);
    const places = new FleetPlaces({ port: 9000 }, undefined);
    for (let i = 0; i < 4; i++) await places.start(i, fake.start);
    expect(fake.places).toEqual([{ port: 9000 }, { port: 9001 }, { port: 9002 }, { port: 9003 }]);
  });

  it('free ports: a free one first, then the ports after it, past a taken one', async () => {
    const taken = new Set([50_002, 50_003]);
    const fake = fakeStart((place) => {
      if (place.port === 0) return 50_000;
      if (taken.has(place.port as number)) TAKEN();
      return place.port as number;
    });
    const places = new FleetPlaces({}, undefined);
    const ports: number[] = [];
    for (let i = 0; i < 4; i++) ports.push((await places.start(i, fake.start)).device.port);
    expect(ports).toEqual([50_000, 50_001, 50_004, 50_005]);
    expect(fake.places.map((p) => p.port)).toEqual([0, 50_001, 50_002, 50_003, 50_004, 50_005]);
  });

  it('free ports: after 16 taken in a row, a free one from the kernel, and the ports after that one next', async () => {
    let asked = 0;
    const fake = fakeStart((place) => {
      if (place.port === 0) return ++asked === 1 ? 50_000 : 61_000;
      if ((place.port as number) < 60_000) TAKEN();
      return place.port as number;
    });
    const places = new FleetPlaces({ port: 0 }, undefined);
    await places.start(0, fake.start);
    expect((await places.start(1, fake.start)).device.port).toBe(61_000);
    const tried = fake.places.map((p) => p.port);
    expect(tried).toEqual([0, ...Array.from({ length: 16 }, (_, k) => 50_001 + k), 0]);
    expect((await places.start(2, fake.start)).device.port).toBe(61_001);
  });

  it('free ports: past 65535, a free one from the kernel', async () => {
    let asked = 0;
    const fake = fakeStart((place) => (place.port === 0 ? (++asked === 1 ? 65_535 : 40_000) : 1));
    const places = new FleetPlaces({}, undefined);
    await places.start(0, fake.start);
    expect((await places.start(1, fake.start)).device.port).toBe(40_000);
    expect(fake.places.map((p) => p.port)).toEqual([0, 0]);
  });

  it('free ports: any other error than PORT_IN_USE is thrown at once', async () => {
    const fake = fakeStart((place) => {
      if (place.port === 0) return 50_000;
      throw new EmulatorError('LISTEN_FAILED', 'no file descriptors left');
    });
    const places = new FleetPlaces({}, undefined);
    await places.start(0, fake.start);
    await expect(places.start(1, fake.start)).rejects.toMatchObject({ code: 'LISTEN_FAILED' });
    expect(fake.places.map((p) => p.port)).toEqual([0, 50_001]);
    const plain = fakeStart((place) => {
      if (place.port === 0) return 50_000;
      throw new Error('EADDRINUSE, not as an EmulatorError');
    });
    const other = new FleetPlaces({}, undefined);
    await other.start(0, plain.start);
    await expect(other.start(1, plain.start)).rejects.toThrow('not as an EmulatorError');
    expect(plain.places).toHaveLength(2);
  });
});
