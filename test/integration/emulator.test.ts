/**
 * startEmulator through the public face: devices playing scenarios on real sockets, one
 * device per scenario with the next ports and serials, errors as EmulatorError codes with
 * nothing left running, and file watching.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorError, type EmulatorHandle, loadScenario, type ScenarioReload, startEmulator } from '../../src';
import { callFeatureFlags } from '../helpers/rpc-client';

const running: EmulatorHandle[] = [];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-emulator-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startEmulator>[0]): Promise<EmulatorHandle> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

/** Resolves when a TCP server can listen on `port` (and closes it again). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Two consecutive free ports, the first returned. */
async function freePair(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (port < 65535 && (await canListen(port + 1))) return port;
  }
}

describe('startEmulator', () => {
  it('with no scenario runs one device playing the shipped default, reachable at its URLs', async () => {
    const emulator = await start({ device: { port: 0 } });
    expect(emulator.devices).toHaveLength(1);
    const [{ device, scenario, file }] = emulator.devices;
    expect(scenario.name).toBe('default');
    expect(file).toMatch(/scenarios[/\\]default\.yaml$/);
    expect(device.urls.featureFlags).toBe(`${device.url}/svc-cgi/featureflag.cgi`);
    const answer = await callFeatureFlags(device, { apiVersion: '1.0', method: 'listAll' });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toBeDefined();
  });

  it('starts one device per scenario with their own ports and the next serials', async () => {
    const port = await freePair();
    const emulator = await start({
      scenarios: ['motion', 'io-port'],
      device: { port, serial: 'ACCC8E000010' },
    });
    expect(emulator.devices.map((d) => [d.device.port, d.device.serial, d.scenario.name])).toEqual([
      [port, 'ACCC8E000010', 'motion'],
      [port + 1, 'ACCC8E000011', 'io-port'],
    ]);
    expect(emulator.devices[1].device.realm).toContain('ACCC8E000011');
  });

  it('plays a scenario given as a loaded object, without a file', async () => {
    const loaded = loadScenario('name: inline\ntimeline:\n  - pause: 1s\n', 'inline.yaml');
    if (!loaded.ok) throw new Error(loaded.error.message);
    const emulator = await start({ scenarios: [{ scenario: loaded.value }], device: { port: 0 } });
    expect(emulator.devices[0].file).toBeUndefined();
    expect(emulator.devices[0].scenario.name).toBe('inline');
  });

  it('refuses a scenario with errors as BAD_SCENARIO with file:line:col, starting nothing', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'timeline:\n  - emit: { topic: 7 }\n');
    const port = await freePair();
    const failure = startEmulator({ scenarios: ['motion', file], device: { port } });
    await expect(failure).rejects.toBeInstanceOf(EmulatorError);
    await expect(failure).rejects.toMatchObject({
      code: 'BAD_SCENARIO',
      message: expect.stringContaining(`${file}:2:`) as string,
    });
    expect(await canListen(port)).toBe(true);
  });

  it('closes the devices it started when a later one cannot listen (PORT_IN_USE)', async () => {
    const port = await freePair();
    const blocker = await start({ device: { port: port + 1 } });
    expect(blocker.devices[0].device.port).toBe(port + 1);
    const failure = startEmulator({ scenarios: ['motion', 'motion'], device: { port } });
    await expect(failure).rejects.toMatchObject({ code: 'PORT_IN_USE' });
    expect(await canListen(port)).toBe(true);
  });

  it('close() stops every device: their ports are free again', async () => {
    const port = await freePair();
    const emulator = await startEmulator({ scenarios: ['motion', 'motion'], device: { port } });
    await emulator.close();
    expect([await canListen(port), await canListen(port + 1)]).toEqual([true, true]);
  });

  it('with watch, a save replaces the run and a save with errors keeps the last good version', async () => {
    const file = join(dir, 'watched.yaml');
    writeFileSync(file, 'name: first\ntimeline:\n  - pause: 1s\n');
    const reloads: ScenarioReload[] = [];
    let heard: () => void = () => undefined;
    const emulator = await start({
      scenarios: [file],
      device: { port: 0 },
      watch: true,
      onReload: (reload) => {
        reloads.push(reload);
        heard();
      },
    });
    const next = (): Promise<void> => new Promise((resolve) => (heard = resolve));
    const firstRun = emulator.devices[0].run;

    let reloaded = next();
    writeFileSync(file, 'name: second\ntimeline:\n  - pause: 1s\n');
    await reloaded;
    expect(reloads[0]).toMatchObject({ ok: true });
    expect(emulator.devices[0].scenario.name).toBe('second');
    expect(emulator.devices[0].run).not.toBe(firstRun);

    reloaded = next();
    writeFileSync(file, 'name: third\ntimeline: 5\n');
    await reloaded;
    expect(reloads[1]).toMatchObject({ ok: false });
    expect(emulator.devices[0].scenario.name).toBe('second');

    // An override of a CGI the device does not have is an error of the reload too.
    reloaded = next();
    writeFileSync(file, 'name: fourth\ntimeline:\n  - override: { cgi: nosuch.cgi, answer: { status: 503 } }\n');
    await reloaded;
    expect(reloads[2]).toMatchObject({ ok: false, error: { errors: [{ code: 'INVALID_VALUE' }] } });
    expect(JSON.stringify(reloads[2])).toContain('timeline[0]: override: no CGI');
    expect(emulator.devices[0].scenario.name).toBe('second');
  });

  it('does not watch the implicit default scenario even with watch on', async () => {
    /** Closed handles leave the active list only after libuv's close callbacks have run. */
    const watches = async (): Promise<number> => {
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      return process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
    };
    const before = await watches();
    const unwatched = await start({ device: { port: 0 }, watch: true });
    expect(unwatched.devices[0].scenario.name).toBe('default');
    expect(await watches()).toBe(before);
    const file = join(dir, 'named.yaml');
    writeFileSync(file, 'name: named\ntimeline:\n  - pause: 1s\n');
    await start({ scenarios: [file], device: { port: 0 }, watch: true });
    expect(await watches()).toBeGreaterThan(before);
  });
});
