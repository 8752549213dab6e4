/**
 * A scenario's `body-worn:` recordings: body-worn-shift played on a real device with
 * the reference destination's connection file streams its events to a client and
 * uploads its recording when the scenario reaches it (a ManualScheduler moves the
 * scenario; the uploads are real HTTP). Also: the section's load errors, no upload
 * without a connection file, and a destination that is down.
 */
import { join } from 'node:path';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  type DeviceHandle,
  deviceOptionsForScenario,
  loadScenario,
  loadScenarioFile,
  ManualScheduler,
  playOnDevice,
  type PlayOnDeviceOptions,
  type Scenario,
  type ScenarioRecordingReport,
  type ScenarioRun,
} from '../../src';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';
import { destinationStarter, login } from '../helpers/destinations';
import { deviceStarter } from '../helpers/devices';
import { openWithToken, type StreamClient, topicsDuring } from '../helpers/event-stream-client';

const SHIFT = join(__dirname, '..', '..', 'scenarios', 'body-worn-shift.yaml');
/** The scenarios' start: a fixed past time, so recording names are known. */
const START = Date.UTC(2026, 0, 15, 8);
const iso = (ms: number): string => new Date(ms).toISOString();
/** `20260115T080040Z`: a time as container and recording names have it. */
const compact = (ms: number): string => iso(ms).replace(/[-:]/g, '').replace('.000', '');

const startDevice = deviceStarter();
const startDestination = destinationStarter();
const runs: ScenarioRun[] = [];
const clients: StreamClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) run.stop();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function load(file: string): Promise<Scenario> {
  const result = await loadScenarioFile(file);
  if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
  return result.value;
}

function parse(text: string): Scenario {
  const result = loadScenario(text, 'test.yaml');
  if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
  return result.value;
}

/** What one play produced: the log lines, the recordings' reports, and a wait for a log message. */
interface Played {
  device: DeviceHandle;
  run: ScenarioRun;
  scheduler: ManualScheduler;
  logs: { msg: string; fields?: object }[];
  reports: ScenarioRecordingReport[];
  /** Resolves at the first log line with this message (at once if already logged). */
  logged(msg: string): Promise<void>;
}

/** `scenario` on a device whose clock is a ManualScheduler at {@link START}. */
async function play(scenario: Scenario, options: PlayOnDeviceOptions = {}): Promise<Played> {
  const scheduler = new ManualScheduler(START);
  const device = await startDevice(deviceOptionsForScenario(scenario, { clock: scheduler }));
  const logs: Played['logs'] = [];
  const waiting: { msg: string; resolve: () => void }[] = [];
  const log = (msg: string, fields?: object): void => {
    logs.push({ msg, fields });
    for (const w of waiting.filter((x) => x.msg === msg)) w.resolve();
  };
  const reports: ScenarioRecordingReport[] = [];
  const run = playOnDevice(device, scenario, {
    scheduler,
    seed: 7,
    log,
    onRecording: (r) => reports.push(r),
    ...options,
  });
  runs.push(run);
  const logged = (msg: string): Promise<void> =>
    logs.some((l) => l.msg === msg) ? Promise.resolve() : new Promise((resolve) => waiting.push({ msg, resolve }));
  return { device, run, scheduler, logs, reports, logged };
}

/** A client subscribed to every topic. */
async function subscribe(device: DeviceHandle): Promise<StreamClient> {
  const client = await openWithToken(device);
  clients.push(client);
  expect((await client.configure([{ topicFilter: '' }])).data).toEqual({});
  return client;
}

describe('body-worn-shift with a connection file', () => {
  it('streams the shift and uploads the incident recording, complete, with its clips, bookmarks and GPS trail', async () => {
    const destination = await startDestination();
    const played = await play(await load(SHIFT), { connection: destination.connectionFile() });
    const client = await subscribe(played.device);
    await topicsDuring(played.device, client, played.scheduler, 0); // the initial states
    await played.logged('body worn system connected');

    // Up to just before 88s: the recording is still being made, nothing uploaded.
    const before = await topicsDuring(played.device, client, played.scheduler, 87_999);
    expect(before.filter((t) => t === 'tns1:Device/tnsvendor:BodyWorn/Recording')).toHaveLength(2); // active at 40s, inactive at 87s
    expect(played.reports).toEqual([]);
    expect(destination.recordings()).toEqual([]);

    const after = await topicsDuring(played.device, client, played.scheduler, 180_000 - 87_999);
    await played.run.done; // the timeline played and the recording has its outcome
    const topics = [...before, ...after];
    const count = (t: string): number => topics.filter((x) => x === `tns1:Device/tnsvendor:${t}`).length;
    expect([
      count('BodyWorn/Docked'),
      count('BodyWorn/Recording'),
      count('BodyWorn/ButtonPress'),
      count('GNSS/Position'),
      count('Power/Battery'),
    ]).toEqual([2, 2, 2, 8, 4]);

    // Triggered when the Recording state went active (start + 40s), two 24 s clips of 256 KB.
    const container = `officer_1_ACCC8E00B0D1_${compact(START + 40_000)}`;
    expect(played.reports).toEqual([
      expect.objectContaining({
        index: 0,
        at: 88_000,
        container,
        status: 'transferred',
        clips: 2,
        bytes: 512_000,
        warnings: [],
      }),
    ]);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({
        container,
        userId: 'officer_1',
        serial: 'ACCC8E00B0D1',
        triggerOnTime: iso(START + 40_000),
        status: 'complete',
        clips: 2,
        bytes: 512_000,
        durationSeconds: 48,
      }),
    ]);
    const uploaded = played.logs.filter((l) => l.msg === 'body-worn recording uploaded');
    expect(uploaded).toEqual([
      {
        msg: 'body-worn recording uploaded',
        fields: expect.objectContaining({ recording: container, status: 'transferred', at: '88s' }) as object,
      },
    ]);

    // The officer and the camera (from the scenario's device:, not listed) are registered.
    const swift = await login(destination);
    expect((await swift.send('HEAD', '/Users/officer_1')).headers['x-object-meta-name']).toBe('Alex%20Smith');
    const camera = await swift.send('HEAD', '/Devices/ACCC8E00B0D1');
    expect(camera.status).toBe(200);
    expect(camera.headers['x-object-meta-model']).toBe('W110');
    // Bookmarks at the two button presses (52s and 72s of the scenario), and the GPS trail.
    const start = (START + 40_000) / 1000;
    const id = `${compact(START + 40_000)}_0001`;
    const objects = String((await swift.send('GET', `/${container}`)).body)
      .trim()
      .split('\n')
      .sort();
    expect(objects).toEqual(
      [
        `${start}_${id}.mkv`,
        `${start + 24}_${id}.mkv`,
        `bookmark_${start + 12}_1`,
        `bookmark_${start + 32}_2`,
        `${start}_${id}_gpstrail.json`,
      ].sort(),
    );
  });

  it('uploads at `at` / speed, with the trigger time still in scenario time', async () => {
    const destination = await startDestination();
    const played = await play(
      parse(
        [
          'device: { serial: CAM42 }',
          'body-worn:',
          '  users: [ { id: u1, name: User One } ]',
          '  recordings:',
          '    - { at: 40s, user: u1, clip-duration: 10s, clip-size: 10KB }',
          '',
        ].join('\n'),
      ),
      { connection: destination.connectionFile(), speed: 4 },
    );
    await played.logged('body worn system connected');
    played.scheduler.advance(9_999);
    expect(played.reports).toEqual([]);
    played.scheduler.advance(1);
    await played.run.done;
    expect(played.reports).toEqual([
      expect.objectContaining({ status: 'transferred', serial: 'CAM42', clips: 1, bytes: 10_000 }),
    ]);
    expect(destination.recordings()).toEqual([
      expect.objectContaining({
        serial: 'CAM42',
        triggerOnTime: iso(START + 30_000),
        status: 'complete',
        durationSeconds: 10,
      }),
    ]);
  });

  it('registers listed cameras and uploads their recordings too; an explicit trigger-on is kept', async () => {
    const destination = await startDestination();
    const played = await play(
      parse(
        [
          'device: { serial: CAM1, model: W101 }',
          'body-worn:',
          '  users: [ { id: u1, name: User One }, { id: u2, name: User Two } ]',
          '  devices: [ { serial: CAM2, name: Spare camera, model: W110 } ]',
          '  recordings:',
          '    - { at: 20s, user: u1, clip-duration: 5s, clip-size: 1KB }',
          '    - { at: 10s, user: u2, device: CAM2, trigger-on: "2026-01-01T10:00:00Z", clip-duration: 5s, clip-size: 1KB }',
          '',
        ].join('\n'),
      ),
      { connection: destination.connectionFile() },
    );
    played.scheduler.advance(20_000);
    await played.run.done;
    // Uploaded in the order they fall due.
    expect(played.reports.map((r) => [r.index, r.serial, r.status])).toEqual([
      [1, 'CAM2', 'transferred'],
      [0, 'CAM1', 'transferred'],
    ]);
    const received = destination
      .recordings()
      .map((r) => [r.userId, r.serial, r.triggerOnTime, r.status])
      .sort();
    expect(received).toEqual([
      ['u1', 'CAM1', iso(START + 15_000), 'complete'],
      ['u2', 'CAM2', '2026-01-01T10:00:00.000Z', 'complete'],
    ]);
    const swift = await login(destination);
    expect((await swift.send('HEAD', '/Devices/CAM1')).headers['x-object-meta-model']).toBe('W101');
    expect((await swift.send('HEAD', '/Devices/CAM2')).headers['x-object-meta-name']).toBe('Spare%20camera');
  });

  it('a destination that is down fails the recordings due, the device plays on, and the next one connects again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bwc-scenario-rec-'));
    dirs.push(dataDir);
    const first = await startDestination({ dataDir });
    const { port } = first;
    const connection = first.connectionFile();
    await first.close();
    const played = await play(
      parse(
        [
          'device: { serial: CAM7 }',
          'body-worn:',
          '  users: [ { id: u1, name: User One } ]',
          '  recordings:',
          '    - { at: 10s, user: u1, clip-duration: 5s, clip-size: 1KB }',
          '    - { at: 20s, user: u1, clip-duration: 5s, clip-size: 1KB }',
          'timeline:',
          '  - { every: 5s, times: 4, emit: { topic: tns1:Test/Tick } }',
          '',
        ].join('\n'),
      ),
      { connection, retry: { attempts: 1 } },
    );
    const client = await subscribe(played.device);
    await played.logged('body worn system cannot connect');
    await topicsDuring(played.device, client, played.scheduler, 0); // the device's initial states
    expect(await topicsDuring(played.device, client, played.scheduler, 10_000)).toEqual([
      'tns1:Test/Tick',
      'tns1:Test/Tick',
    ]);
    while (played.reports.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(played.reports[0]).toMatchObject({
      index: 0,
      status: 'failed',
      clips: 0,
      request: { message: expect.any(String) as string },
    });
    expect(played.logs.some((l) => l.msg === 'body-worn recording not uploaded')).toBe(true);

    const second = await startDestination({ dataDir, port });
    expect(await topicsDuring(played.device, client, played.scheduler, 10_000)).toEqual([
      'tns1:Test/Tick',
      'tns1:Test/Tick',
    ]);
    await played.run.done;
    expect(played.reports.map((r) => r.status)).toEqual(['failed', 'transferred']);
    expect(second.recordings()).toEqual([expect.objectContaining({ serial: 'CAM7', status: 'complete', clips: 1 })]);
  });
});

describe('body-worn-shift without a connection file', () => {
  it('plays the events, uploads nothing and says so once', async () => {
    const destination = await startDestination();
    const played = await play(await load(SHIFT));
    const client = await subscribe(played.device);
    await topicsDuring(played.device, client, played.scheduler, 0);
    const topics = await topicsDuring(played.device, client, played.scheduler, 180_000);
    await played.run.done;
    expect(topics.filter((t) => t === 'tns1:Device/tnsvendor:BodyWorn/Recording')).toHaveLength(2);
    expect(played.run.recordings).toBeUndefined();
    expect(played.reports).toEqual([]);
    expect(played.logs.filter((l) => l.msg.startsWith('body-worn'))).toEqual([
      {
        msg: 'body-worn recordings are not uploaded: no connection file (--connection-file)',
        fields: { recordings: 1 },
      },
    ]);
    expect(destination.recordings()).toEqual([]);
  });
});

describe('body-worn: load errors', () => {
  const errors = (lines: string[]): string[] => {
    const result = loadScenario([...lines, ''].join('\n'), 'bw.yaml');
    return result.ok ? [] : result.error.errors.map((e) => `${e.code} ${e.text}`);
  };

  it('accepts recordings of the scenario camera (implicit or named) and of listed cameras', () => {
    expect(
      errors([
        'device: { serial: CAM1 }',
        'body-worn:',
        '  users: [ { id: u1, name: U } ]',
        '  devices: [ { serial: CAM2, name: C } ]',
        '  recordings:',
        '    - { at: 1m, user: u1 }',
        '    - { at: 2m, user: u1, device: CAM1 }',
        '    - { at: 3m, user: u1, device: CAM2 }',
      ]),
    ).toEqual([]);
  });

  it('reports an unknown user and an unknown camera at their positions', () => {
    expect(
      errors([
        'device: { serial: CAM1 }',
        'body-worn:',
        '  users: [ { id: u1, name: U } ]',
        '  devices: [ { serial: CAM2, name: C } ]',
        '  recordings:',
        '    - { at: 1m, user: nobody }',
        '    - at: 2m',
        '      user: u1',
        '      device: CAM9',
      ]),
    ).toEqual([
      'UNKNOWN_USER bw.yaml:6:23: user "nobody" is not in body-worn.users (u1)',
      'UNKNOWN_DEVICE bw.yaml:9:15: device "CAM9" is not in body-worn.devices or the scenario\'s device (CAM1, CAM2)',
    ]);
  });

  it('says when there are no users, and checks camera names without a scenario device', () => {
    expect(errors(['body-worn:', '  recordings:', '    - { at: 1m, user: u1, device: X }'])).toEqual([
      'UNKNOWN_USER bw.yaml:3:23: user "u1" is not in body-worn.users (none)',
      'UNKNOWN_DEVICE bw.yaml:3:35: device "X" is not in body-worn.devices (none)',
    ]);
  });

  it('reports schema errors in the section: missing at and recordings, bad sizes, unknown keys, a serial a destination cannot take', () => {
    expect(
      errors([
        'body-worn:',
        '  users: [ { id: u1, name: U } ]',
        '  recordings:',
        '    - { user: u1, clip-size: lots, colour: red }',
      ]),
    ).toEqual([
      'MISSING_KEY bw.yaml:4:7: missing required key "at" in body-worn.recordings.0',
      'INVALID_VALUE bw.yaml:4:30: "lots" is not a size (e.g. 500MB, 2GiB, 1048576)',
      'UNKNOWN_KEY bw.yaml:4:36: unknown key "colour" in body-worn.recordings.0',
    ]);
    expect(errors(['body-worn:', '  users: []'])).toEqual([
      'MISSING_KEY bw.yaml:2:3: missing required key "recordings" in body-worn',
    ]);
    expect(errors(['device: { serial: "ACCC-8E" }', 'body-worn: { recordings: [] }'])).toEqual([
      'INVALID_VALUE bw.yaml:1:19: a camera with body-worn recordings needs a serial of 1-32 letters and digits, not "ACCC-8E"',
    ]);
  });
});

describe('bwc-emu --connection-file', () => {
  it('refuses a file that is not a connection file, one problem a line, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwc-scenario-rec-'));
    dirs.push(dir);
    const file = join(dir, 'cd.json');
    writeFileSync(file, JSON.stringify({ ConnectionFileVersion: '2.0', SiteName: 'x' }));
    const c = capture();
    expect(
      await main(
        ['--scenario', 'body-worn-shift', '--connection-file', file, '--port', '0', '--log-level', 'silent'],
        c.io,
      ),
    ).toBe(2);
    const lines = c.err().trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => l.startsWith(`bwc-emu: --connection-file ${file}: `))).toBe(true);
    expect(c.err()).toContain('ConnectionFileVersion');
    const missing = capture();
    expect(await main(['--connection-file', join(dir, 'nope.json'), '--port', '0'], missing.io)).toBe(2);
    expect(missing.err()).toMatch(/^bwc-emu: --connection-file .*nope\.json: cannot read it: /);
  });

  it('uploads the shift recording from the command line', async () => {
    const destination = await startDestination();
    const dir = mkdtempSync(join(tmpdir(), 'bwc-scenario-rec-'));
    dirs.push(dir);
    const file = join(dir, 'cd.json');
    writeFileSync(file, JSON.stringify(destination.connectionFile()));
    const c = capture();
    const exit = main(
      [
        '--scenario',
        'body-worn-shift',
        '--no-watch',
        '--connection-file',
        file,
        '--port',
        '0',
        '--speed',
        '100',
        '--log-format',
        'json',
      ],
      c.io,
    );
    await c.started;
    expect(c.err()).toContain(`recordings     1 to upload to ${destination.authUrl} as the scenario plays`);
    for (let i = 0; i < 500 && !c.out().includes('"msg":"body-worn recording uploaded"'); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.out()).toContain('"msg":"body-worn recording uploaded"');
    expect(destination.recordings()).toEqual([
      expect.objectContaining({ serial: 'ACCC8E00B0D1', status: 'complete', clips: 2 }),
    ]);
    c.stop();
    expect(await exit).toBe(0);
  });
});
