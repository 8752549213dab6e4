/**
 * `GET /_emu/devices?q=&offset=&limit=` on a fleet in address mode (issue 33): the devices
 * matching a serial or an address, a page of them, how many match in `X-Total-Count`; bad
 * values refused 400; without parameters every device, as before.
 */
import { type EmulatorHandle, startEmulator } from '../../src';
import { scenarioOf } from '../helpers/scenario-of';

const QUIET = { scenario: scenarioOf('name: quiet', 'timeline:', '  - pause: 1h') };
const DEVICES = 30;

let fleet: EmulatorHandle;
let control: string;
beforeAll(async () => {
  fleet = await startEmulator({
    scenarios: [QUIET],
    devices: DEVICES,
    addressRange: '127.12.0.1',
    device: { port: 0, serial: 'ACCC8E000100' },
  });
  control = fleet.devices[0].access.control ?? '';
});
afterAll(() => fleet?.close());

/** The answer of `GET /_emu/devices<search>`: its status, its body, and its X-Total-Count. */
async function devices(search: string): Promise<{ status: number; body: unknown; total: string | null }> {
  const res = await fetch(`${control}/devices${search}`);
  return { status: res.status, body: await res.json(), total: res.headers.get('x-total-count') };
}

/** The serials of an answer's devices. */
const serials = (body: unknown): string[] => (body as { serial: string }[]).map((d) => d.serial);

describe('GET /_emu/devices with a query', () => {
  it('answers every device without parameters, as before', async () => {
    const { status, body, total } = await devices('');
    expect(status).toBe(200);
    expect(body).toHaveLength(DEVICES);
    expect(body).toEqual(
      fleet.access().map((a) => ({ ...a, user: a.user ?? null, password: a.password ?? null, control: a.control })),
    );
    expect(total).toBe(String(DEVICES));
  });

  it('finds devices by part of the serial, any case', async () => {
    const { body, total } = await devices('?q=accc8e00012');
    expect(serials(body)).toEqual(Array.from({ length: 10 }, (_, i) => `ACCC8E00012${i}`));
    expect(total).toBe('10');
  });

  it('finds devices by address, and by address and port', async () => {
    const port = fleet.devices[0].device.port;
    const byAddress = await devices('?q=127.12.0.3');
    expect(serials(byAddress.body)).toEqual(['ACCC8E000102', 'ACCC8E000129']); // .3 and .30
    const exact = await devices(`?q=${encodeURIComponent(`127.12.0.3:${port}`)}`);
    expect(serials(exact.body)).toEqual(['ACCC8E000102']);
    expect((exact.body as { urls: { base: string } }[])[0].urls.base).toBe(`http://127.12.0.3:${port}`);
    const words = await devices(`?q=${encodeURIComponent(' 127.12.0.2  ACCC8E00012 ')}`);
    // ACCC8E000120-129 are at 127.12.0.21-30: every word is in those at .21-.29.
    expect(serials(words.body)).toEqual(Array.from({ length: 9 }, (_, i) => `ACCC8E00012${i}`));
    expect(await devices('?q=nothing')).toEqual({ status: 200, body: [], total: '0' });
  });

  it('pages through every device exactly once with offset and limit', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < DEVICES; offset += 7) {
      const { status, body, total } = await devices(`?offset=${offset}&limit=7`);
      expect({ status, total }).toEqual({ status: 200, total: String(DEVICES) });
      seen.push(...serials(body));
    }
    expect(seen).toEqual(fleet.devices.map((d) => d.device.serial));
    expect((await devices('?offset=30')).body).toEqual([]);
    const matching = await devices('?q=127.12.0.1&offset=2&limit=3'); // .1, .10-.19
    expect(serials(matching.body)).toEqual(['ACCC8E000110', 'ACCC8E000111', 'ACCC8E000112']);
    expect(matching.total).toBe('11');
  });

  it.each(['limit=0', 'limit=10001', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=1e3', 'q=a&q=b', 'other=1'])(
    'refuses %s with 400 BAD_REQUEST',
    async (search) => {
      const { status, body } = await devices(`?${search}`);
      expect(status).toBe(400);
      const { error } = body as { error: { code: string; message: string } };
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.message).toMatch(/^query/);
    },
  );
});
