/**
 * The control API on a real emulator, over real sockets: health, devices, events reaching a
 * client, journal, reset, scenario replacement with file:line:col errors, the token, and
 * turning it off.
 */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../src';
import { openWithToken, type StreamClient } from '../helpers/event-stream-client';

const QUIET = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');

let emulator: EmulatorHandle;
const clients: StreamClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator?.close();
});

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<string> {
  if (!QUIET.ok) throw new Error(QUIET.error.message);
  emulator = await startEmulator({ scenarios: [{ scenario: QUIET.value }], device: { port: 0 }, ...options });
  return `${emulator.devices[0].device.url}/_emu`;
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the control API', () => {
  it('answers health and devices, with the control URL in the access list', async () => {
    const control = await start();
    expect(await call(`${control}/health`)).toEqual({ status: 200, json: { status: 'ready', devices: 1 } });
    const devices = await call(`${control}/devices`);
    expect(devices.json).toEqual([expect.objectContaining({ serial: emulator.devices[0].device.serial, control })]);
  });

  it('publishes an event a client receives, then shows it in the journal; reset empties it', async () => {
    const control = await start();
    const client = await openWithToken(emulator.devices[0].device);
    clients.push(client);
    await client.configure([{ topicFilter: 'tns1:VideoSource//.' }]);
    const published = await call(
      `${control}/events`,
      json('POST', { topic: 'tns1:VideoSource/MotionAlarm', data: { State: '1' } }),
    );
    expect(published.status).toBe(200);
    expect((await client.next()).params?.notification.topic).toBe('tns1:VideoSource/MotionAlarm');
    const journal = (await call(`${control}/journal?kind=notification`)).json as { entries: { topic: string }[] };
    expect(journal.entries.map((e) => e.topic)).toEqual(['tns1:VideoSource/MotionAlarm']);
    expect((await call(`${control}/reset`, { method: 'POST' })).status).toBe(204);
    expect((await call(`${control}/journal`)).json).toEqual({ entries: [], dropped: 0 });
    expect(emulator.sessions()).toEqual([]);
  });

  it('replaces the scenario, or refuses one with errors as file:line:col', async () => {
    const control = await start();
    const good = await call(`${control}/scenario`, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/yaml' },
      body: 'name: replaced\ntimeline:\n  - pause: 1h\n',
    });
    expect(good).toEqual({ status: 200, json: { name: 'replaced' } });
    expect(emulator.devices[0].scenario.name).toBe('replaced');
    const bad = await call(`${control}/scenario`, json('PUT', { yaml: 'timeline:\n  - at: soon\n' }));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 'BAD_SCENARIO' } });
    expect((bad.json as { error: { errors: { line: number }[] } }).error.errors[0]).toMatchObject({ line: 2 });
    expect(emulator.devices[0].scenario.name).toBe('replaced');
  });

  it('with a token, refuses requests without it (401) and serves them with it', async () => {
    const control = await start({ control: { token: 's3cret-token' } });
    expect((await call(`${control}/devices`)).status).toBe(401);
    expect((await call(`${control}/devices`, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await call(`${control}/devices`, { headers: { Authorization: 'Bearer s3cret-token' } })).status).toBe(200);
  });

  it('answers 429 with Retry-After to an address past 20 wrong tokens, even with the right one', async () => {
    const control = await start({ control: { token: 's3cret-token' } });
    for (let i = 0; i < 20; i++)
      expect((await call(`${control}/devices`, { headers: { Authorization: `Bearer guess${i}` } })).status).toBe(401);
    const throttled = await fetch(`${control}/devices`, { headers: { Authorization: 'Bearer s3cret-token' } });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await throttled.json()).toMatchObject({ error: { code: 'THROTTLED' } });
  });

  it("is not served when turned off: /_emu is the device's 404", async () => {
    const control = await start({ control: false });
    expect((await fetch(`${control}/health`)).status).toBe(404);
    expect(emulator.access()[0].control).toBeUndefined();
  });

  it('serves the fleet routes on the first device', async () => {
    const control = await start({ devices: 3 });
    const second = emulator.devices[1].device.serial;
    const flags = await call(`${control}/devices/${second}/flags`);
    expect(flags.status).toBe(200);
    expect((await call(`${control}/devices/NOPE/flags`)).status).toBe(404);
  });
});
