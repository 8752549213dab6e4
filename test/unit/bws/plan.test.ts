/**
 * Upload plans (src/bws/plan.ts) and their expansion (src/bws/expand-plan.ts):
 * file:line:col errors, defaults, `generate:` counts, container and clip names,
 * contiguous times, the reference's metadata with ISO twins, bookmarks, GNSS
 * trails, and determinism.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { expandPlan, type ExpandOptions, type PlannedRecording } from '../../../src/bws/expand-plan';
import { DEFAULT_PLAN, loadPlan, type Plan, type PlanInput, PlanSchema } from '../../../src/bws/plan';
import { propertyRuns } from '../../helpers/fast-check-config';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0); // 2026-11-23T12:00:00Z
const OPTIONS: ExpandOptions = { now: NOW, containerType: 'mkv' };

function load(text: string): Plan {
  const result = loadPlan(text, 'plan.yaml');
  if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
  return result.value;
}

function errors(text: string) {
  const result = loadPlan(text, 'plan.yaml');
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.error.errors;
}

const plan = (input: PlanInput): Plan => PlanSchema.parse(input);

/** One user, one camera, and the recordings given. */
const small = (recordings: PlanInput['recordings']): Plan =>
  plan({
    users: [{ id: 'u1', name: 'User One' }],
    devices: [{ serial: 'CAM1', name: 'Camera', model: 'W200', firmware: '1.2.3' }],
    recordings,
  });

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('loadPlan errors: file:line:col', () => {
  it('an unknown key, at the key, at every level', () => {
    const text = [
      'users:',
      '  - id: u1',
      '    name: U',
      '    colour: red',
      'devices:',
      '  - { serial: CAM1, name: C, lens: wide }',
      'recordings:',
      '  - user: u1',
      '    device: CAM1',
      '    bookmarks: [ { at: 2s, colour: red } ]',
      '    speed: fast',
      'extra: 1',
      '',
    ].join('\n');
    expect(errors(text).map((e) => [e.code, e.text])).toEqual([
      ['UNKNOWN_KEY', 'plan.yaml:4:5: unknown key "colour" in users.0'],
      ['UNKNOWN_KEY', 'plan.yaml:6:30: unknown key "lens" in devices.0'],
      ['UNKNOWN_KEY', 'plan.yaml:10:28: unknown key "colour" in recordings.0.bookmarks.0'],
      ['UNKNOWN_KEY', 'plan.yaml:11:5: unknown key "speed" in recordings.0'],
      ['UNKNOWN_KEY', 'plan.yaml:12:1: unknown key "extra" at the top level'],
    ]);
  });

  it.each([
    ['5XB', '"5XB" is not a size (e.g. 500MB, 2GiB, 1048576)'],
    ['five', '"five" is not a size (e.g. 500MB, 2GiB, 1048576)'],
    ['0MB', 'must be more than 0 bytes'],
    ['-5MB', '"-5MB" is not a size (e.g. 500MB, 2GiB, 1048576)'],
  ])('a bad size %s, at the value', (size, message) => {
    const found = errors(
      `users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings:\n  - user: u1\n    device: CAM1\n    clip-size: ${size}\n`,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'INVALID_VALUE', file: 'plan.yaml', line: 6, col: 16 });
    expect(found[0].text).toBe(`plan.yaml:6:16: ${message}`);
  });

  it.each([0, -1, 1.5])('a numeric size %d that is not a positive whole number', (size) => {
    const found = errors(`generate: { users: 1, devices: 1, recordings: 1, clip-size: ${size} }\n`);
    expect(found).toHaveLength(1);
    expect(found[0].text).toMatch(/^plan\.yaml:1:\d+: /);
    expect(found[0].col).toBe(`generate: { users: 1, devices: 1, recordings: 1, clip-size: `.length + 1);
  });

  it.each([
    '2026-13-01T00:00:00Z',
    '2026-11-23T10:15:00+01:00',
    '2026-11-23',
    '2026-11-23 10:15:00Z',
    'yesterday',
    '2026-11-23T10:15Z',
  ])('a bad time %s, at the value', (time) => {
    const found = errors(
      `users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings:\n  - user: u1\n    device: CAM1\n    trigger-on: "${time}"\n`,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: 'INVALID_VALUE', line: 6, col: 17 });
    expect(found[0].text).toBe(`plan.yaml:6:17: "${time}" is not an RFC 3339 UTC time like 2026-11-23T10:15:00Z`);
  });

  it('a time that is not a string', () => {
    const found = errors(
      'users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings: [ { user: u1, device: CAM1, trigger-on: 20261123 } ]\n',
    );
    expect(found.map((e) => [e.line, e.col, e.message])).toEqual([
      [3, 53, 'expected an RFC 3339 UTC time like 2026-11-23T10:15:00Z'],
    ]);
  });

  it('an impossible date or hour is refused, not rolled over', () => {
    for (const time of [
      '2026-02-30T10:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-03-01T24:00:00Z',
      '2025-02-29T00:00:00Z',
    ]) {
      const found = errors(
        `users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings:\n  - user: u1\n    device: CAM1\n    trigger-on: "${time}"\n`,
      );
      expect(found.map((e) => [e.line, e.col])).toEqual([[6, 17]]);
    }
  });

  it('a bad duration', () => {
    const found = errors(
      'users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings:\n  - user: u1\n    device: CAM1\n    clip-duration: 30\n',
    );
    expect(found.map((e) => [e.code, e.text])).toEqual([
      ['BAD_DURATION', 'plan.yaml:6:20: duration 30 has no unit; write 30ms or 30s'],
    ]);
  });

  it('a user or camera a recording names that is not in the plan, at the reference', () => {
    const text = [
      'users:',
      '  - { id: u1, name: U }',
      'devices:',
      '  - { serial: CAM1, name: C }',
      'recordings:',
      '  - user: u1',
      '    device: CAM1',
      '  - user: ghost',
      '    device: CAM9',
      '',
    ].join('\n');
    expect(errors(text).map((e) => [e.code, e.text])).toEqual([
      ['UNKNOWN_USER', 'plan.yaml:8:11: user "ghost" is not in users: (u1)'],
      ['UNKNOWN_DEVICE', 'plan.yaml:9:13: device "CAM9" is not in devices: (CAM1)'],
    ]);
  });

  it('references with no users or devices at all say "none"', () => {
    expect(errors('recordings: [ { user: u1, device: CAM1 } ]\n').map((e) => e.message)).toEqual([
      'user "u1" is not in users: (none)',
      'device "CAM1" is not in devices: (none)',
    ]);
  });

  it('ids and serials that cannot be part of names are refused', () => {
    const found = errors('users: [ { id: "bad id", name: U } ]\ndevices: [ { serial: CAM_1, name: C } ]\n');
    expect(found.map((e) => [e.line, e.col])).toEqual([
      [1, 16],
      [2, 22],
    ]);
    expect(found[0].message).toMatch(/a user id is 1-64 letters/);
    expect(found[1].message).toMatch(/a serial number is 1-32 letters and digits/);
  });

  it('counts out of range in generate: are refused', () => {
    const found = errors('generate: { users: 0, devices: 100001, recordings: 1, clips: 0 }\n');
    expect(found.map((e) => e.col)).toEqual([20, 32, 62]);
  });

  it('YAML syntax errors and duplicate keys have positions too', () => {
    expect(errors('users: [ { id: u1, name: U }\n')[0]).toMatchObject({ code: 'YAML_SYNTAX', file: 'plan.yaml' });
    expect(errors('name: a\nname: b\n')[0]).toMatchObject({ code: 'DUPLICATE_KEY', line: 2, col: 1 });
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => stringify(v)),
        ),
        (text) => {
          const result = loadPlan(text, 'p.yaml');
          if (!result.ok) for (const e of result.error.errors) expect(e.text).toMatch(/^p\.yaml:\d+:\d+: /);
        },
      ),
      propertyRuns(200),
    );
  });
});

describe('defaults', () => {
  it('an empty plan has no users, devices or recordings', () => {
    expect(load('{}\n')).toEqual({ users: [], devices: [], recordings: [] });
  });

  it('fills in every default of users, devices, recordings and bookmarks', () => {
    const loaded = load(
      'users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings: [ { user: u1, device: CAM1, bookmarks: [ { at: 1s, tags: { n: 42 } } ] } ]\n',
    );
    expect(loaded.users).toEqual([{ id: 'u1', name: 'U', active: true }]);
    expect(loaded.devices).toEqual([{ serial: 'CAM1', name: 'C', model: 'W110', firmware: '11.11.73', active: true }]);
    expect(loaded.recordings).toEqual([
      {
        user: 'u1',
        device: 'CAM1',
        'trigger-on-reason': 'Button',
        'trigger-off-reason': 'Button',
        clips: 1,
        'clip-duration': 30_000,
        'clip-size': 1024 * 1024,
        bookmarks: [{ at: 1000, category: '1', tags: { n: '42' } }],
        gps: false,
        timezone: 'Europe/Stockholm',
      },
    ]);
  });

  it('generate: defaults one clip of 1 MiB and 30 s', () => {
    expect(load('generate: { users: 1, devices: 1, recordings: 1 }\n').generate).toEqual({
      users: 1,
      devices: 1,
      recordings: 1,
      clips: 1,
      'clip-size': 1024 * 1024,
      'clip-duration': 30_000,
    });
  });

  it('sizes and times as written', () => {
    const loaded = load(
      'users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings: [ { user: u1, device: CAM1, clip-size: 5MB, trigger-on: "2026-11-23T10:15:00Z" }, { user: u1, device: CAM1, clip-size: 512KiB }, { user: u1, device: CAM1, clip-size: 1000 } ]\n',
    );
    expect(loaded.recordings.map((r) => r['clip-size'])).toEqual([5_000_000, 512 * 1024, 1000]);
    expect(loaded.recordings[0]['trigger-on']).toBe(Date.UTC(2026, 10, 23, 10, 15, 0));
  });

  it('the built-in plan is valid, as an object and as YAML', () => {
    const parsed = PlanSchema.parse(DEFAULT_PLAN);
    expect(parsed.users).toHaveLength(2);
    expect(parsed.devices).toHaveLength(2);
    expect(parsed.recordings).toHaveLength(3);
    expect(load(stringify(DEFAULT_PLAN))).toEqual(parsed);
  });
});

describe('generate: expansion', () => {
  it('makes the users, cameras and recordings asked for, after the listed ones, round robin', () => {
    const loaded = load(
      [
        'users: [ { id: listed, name: Listed } ]',
        'devices: [ { serial: LISTED1, name: L } ]',
        'recordings: [ { user: listed, device: LISTED1 } ]',
        'generate: { users: 3, devices: 2, recordings: 7, clips: 2, clip-size: 10KB, clip-duration: 5s }',
        '',
      ].join('\n'),
    );
    const expanded = expandPlan(loaded, OPTIONS);
    expect(expanded.users.map((u) => u.id)).toEqual(['listed', 'user_0001', 'user_0002', 'user_0003']);
    expect(expanded.devices.map((d) => d.id)).toEqual(['LISTED1', 'BWC00000001', 'BWC00000002']);
    expect(expanded.recordings).toHaveLength(8);
    expect(expanded.recordings[0]).toMatchObject({ userId: 'listed', serial: 'LISTED1' });
    const generated = expanded.recordings.slice(1);
    expect(generated.map((r) => r.userId)).toEqual([
      'user_0001',
      'user_0002',
      'user_0003',
      'user_0001',
      'user_0002',
      'user_0003',
      'user_0001',
    ]);
    expect(generated.map((r) => r.serial)).toEqual([
      'BWC00000001',
      'BWC00000002',
      'BWC00000001',
      'BWC00000002',
      'BWC00000001',
      'BWC00000002',
      'BWC00000001',
    ]);
    for (const r of generated) {
      expect(r.clips).toHaveLength(2);
      expect(r.clips.every((c) => c.bytes === 10_000 && c.stop - c.start === 5)).toBe(true);
    }
    expect(new Set(expanded.recordings.map((r) => r.container)).size).toBe(8);
  });

  it('counts match for any sizes (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (users, devices, recordings, clips) => {
          const expanded = expandPlan(
            plan({ generate: { users, devices, recordings, clips, 'clip-size': 1000, 'clip-duration': '2s' } }),
            OPTIONS,
          );
          expect(expanded.users).toHaveLength(users);
          expect(expanded.devices).toHaveLength(devices);
          expect(expanded.recordings).toHaveLength(recordings);
          expect(expanded.recordings.reduce((n, r) => n + r.clips.length, 0)).toBe(recordings * clips);
          expect(new Set(expanded.recordings.map((r) => r.container)).size).toBe(recordings);
          expect(new Set(expanded.recordings.map((r) => r.id)).size).toBe(recordings);
          const ids = new Set(expanded.users.map((u) => u.id));
          const serials = new Set(expanded.devices.map((d) => d.id));
          expect(expanded.recordings.every((r) => ids.has(r.userId) && serials.has(r.serial))).toBe(true);
        },
      ),
      propertyRuns(60),
    );
  });
});

describe('expandPlan names and times', () => {
  const TRIGGER = '2026-11-23T10:15:00Z';
  const triggerSeconds = Date.UTC(2026, 10, 23, 10, 15, 0) / 1000;

  it('container {user}_{serial}_{YYYYMMDDTHHMMSSZ}, clips {start}_{id}.{type}, contiguous', () => {
    const [r] = expandPlan(
      small([
        { user: 'u1', device: 'CAM1', 'trigger-on': TRIGGER, clips: 3, 'clip-duration': '20s', 'clip-size': '2KB' },
      ]),
      OPTIONS,
    ).recordings;
    expect(r.container).toBe('u1_CAM1_20261123T101500Z');
    expect(r.id).toBe('20261123T101500Z_0001');
    expect(r.triggerOn).toBe(triggerSeconds * 1000);
    expect(r.clips.map((c) => c.name)).toEqual([
      `${triggerSeconds}_${r.id}.mkv`,
      `${triggerSeconds + 20}_${r.id}.mkv`,
      `${triggerSeconds + 40}_${r.id}.mkv`,
    ]);
    expect(r.clips.map((c) => [c.start, c.stop])).toEqual([
      [triggerSeconds, triggerSeconds + 20],
      [triggerSeconds + 20, triggerSeconds + 40],
      [triggerSeconds + 40, triggerSeconds + 60],
    ]);
    expect(r.clips.every((c) => c.bytes === 2000 && c.type === 'mkv')).toBe(true);
    expect(new Set(r.clips.map((c) => c.seed)).size).toBe(3);
  });

  it('mp4 clips end .mp4', () => {
    const [r] = expandPlan(small([{ user: 'u1', device: 'CAM1', 'trigger-on': TRIGGER, clips: 2 }]), {
      ...OPTIONS,
      containerType: 'mp4',
    }).recordings;
    expect(r.clips.map((c) => c.name)).toEqual([`${triggerSeconds}_${r.id}.mp4`, `${triggerSeconds + 30}_${r.id}.mp4`]);
    expect(r.clips.every((c) => c.type === 'mp4')).toBe(true);
  });

  it('a recording id carries its place in the plan', () => {
    const expanded = expandPlan(
      small([
        { user: 'u1', device: 'CAM1', 'trigger-on': TRIGGER },
        { user: 'u1', device: 'CAM1', 'trigger-on': '2026-11-23T11:00:00Z' },
      ]),
      OPTIONS,
    );
    expect(expanded.recordings.map((r) => r.id)).toEqual(['20261123T101500Z_0001', '20261123T110000Z_0002']);
  });

  it('clip times are contiguous and cover the recording for any plan (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 0, max: 10 * 365 * 86_400 }),
        (clips, seconds, offset) => {
          const trigger = new Date(Date.UTC(2020, 0, 1) + offset * 1000).toISOString().replace('.000Z', 'Z');
          const [r] = expandPlan(
            small([{ user: 'u1', device: 'CAM1', 'trigger-on': trigger, clips, 'clip-duration': `${seconds}s` }]),
            OPTIONS,
          ).recordings;
          expect(r.clips[0].start).toBe(Number(r.metadata.StartTime));
          for (let i = 1; i < r.clips.length; i++) expect(r.clips[i].start).toBe(r.clips[i - 1].stop);
          expect(r.clips[r.clips.length - 1].stop).toBe(Number(r.metadata.StopTime));
          expect(Number(r.metadata.StopTime) - Number(r.metadata.StartTime)).toBe(clips * seconds);
          expect(r.container.endsWith(`_${trigger.replace(/[-:]/g, '')}`)).toBe(true);
        },
      ),
      propertyRuns(100),
    );
  });

  it('recordings without a trigger time end before now, 10 minutes apart, in plan order', () => {
    const expanded = expandPlan(
      small([
        { user: 'u1', device: 'CAM1', clips: 2, 'clip-duration': '1m' },
        { user: 'u1', device: 'CAM1', clips: 2, 'clip-duration': '1m' },
        { user: 'u1', device: 'CAM1', clips: 2, 'clip-duration': '1m' },
      ]),
      OPTIONS,
    );
    const stops = expanded.recordings.map((r) => Number(r.metadata.StopTime) * 1000);
    const starts = expanded.recordings.map((r) => r.triggerOn);
    expect(stops.every((stop) => stop <= NOW)).toBe(true);
    expect(starts[1] - starts[0]).toBe(10 * 60_000);
    expect(starts[2] - starts[1]).toBe(10 * 60_000);
    expect(stops[2]).toBe(NOW - 10 * 60_000);
    expect(starts.every((t) => t % 1000 === 0)).toBe(true);
  });
});

describe('expandPlan metadata', () => {
  const TIMES = ['TriggerOnTime', 'TriggerOffTime', 'StartTime', 'StopTime'];

  function oneRecording(
    extra: Partial<PlanInput['recordings'] extends (infer R)[] | undefined ? R : never> = {},
  ): PlannedRecording {
    return expandPlan(
      small([
        {
          user: 'u1',
          device: 'CAM1',
          'trigger-on': '2026-11-23T10:15:00Z',
          clips: 2,
          'clip-duration': '30s',
          'trigger-on-reason': 'Holster',
          'trigger-off-reason': 'Timeout',
          timezone: 'America/New_York',
          ...extra,
        },
      ]),
      OPTIONS,
    ).recordings[0];
  }

  it('the container carries every field of the reference, with an ISO twin for each time', () => {
    const r = oneRecording();
    expect(Object.keys(r.metadata).sort()).toEqual(
      [
        'ContainerName',
        'BWCSerialNumber',
        'SCUSerialNumber',
        'FirmwareVersion',
        'UserID',
        'BWCModel',
        'TimeZone',
        'TriggerOn',
        'TriggerOff',
        ...TIMES.flatMap((t) => [t, `${t}ISO`]),
      ].sort(),
    );
    expect(r.metadata).toMatchObject({
      ContainerName: r.container,
      BWCSerialNumber: 'CAM1',
      UserID: 'u1',
      BWCModel: 'W200',
      FirmwareVersion: '1.2.3',
      TimeZone: 'America/New_York',
      TriggerOn: 'Holster',
      TriggerOff: 'Timeout',
      TriggerOnTime: String(Date.UTC(2026, 10, 23, 10, 15) / 1000),
      TriggerOnTimeISO: '2026-11-23T10:15:00Z',
      TriggerOffTimeISO: '2026-11-23T10:16:00Z',
      StartTimeISO: '2026-11-23T10:15:00Z',
      StopTimeISO: '2026-11-23T10:16:00Z',
    });
    for (const t of TIMES) {
      expect(r.metadata[t]).toMatch(/^\d+$/);
      expect(r.metadata[`${t}ISO`]).toMatch(RFC3339_UTC);
      expect(Date.parse(r.metadata[`${t}ISO`])).toBe(Number(r.metadata[t]) * 1000);
    }
    expect(r.metadata.SCUSerialNumber).not.toBe('');
    // No Status: the upload adds it (Transferring, then Complete).
    expect(r.metadata.Status).toBeUndefined();
  });

  it('ISO twins agree with the epoch values for any time (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2090, 0, 1) / 1000 }), (seconds) => {
        const trigger = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
        const r = oneRecording({ 'trigger-on': trigger });
        for (const t of TIMES) expect(Date.parse(r.metadata[`${t}ISO`])).toBe(Number(r.metadata[t]) * 1000);
        expect(r.metadata.TriggerOnTimeISO).toBe(trigger);
      }),
      propertyRuns(100),
    );
  });

  it('registrations: users Name/Active (Userid with StoreUserIDKey), cameras Name/Active/Model', () => {
    const p = plan({
      users: [
        { id: 'u1', name: 'Alex Smith' },
        { id: 'u2', name: 'Sam', active: false },
      ],
      devices: [
        { serial: 'CAM1', name: 'Camera 1', model: 'W200' },
        { serial: 'CAM2', name: 'Camera 2', active: false },
      ],
    });
    const plain = expandPlan(p, OPTIONS);
    expect(plain.users).toEqual([
      { id: 'u1', metadata: { Name: 'Alex Smith', Active: 'True' } },
      { id: 'u2', metadata: { Name: 'Sam', Active: 'False' } },
    ]);
    expect(plain.devices).toEqual([
      { id: 'CAM1', metadata: { Name: 'Camera 1', Active: 'True', Model: 'W200' } },
      { id: 'CAM2', metadata: { Name: 'Camera 2', Active: 'False', Model: 'W110' } },
    ]);
    expect(expandPlan(p, { ...OPTIONS, storeUserIdKey: true }).users.map((u) => u.metadata.Userid)).toEqual([
      'u1',
      'u2',
    ]);
  });

  it('bookmarks: bookmark_{Timestamp}_{n}, CategoryID, StartTime, EndTime, Tags k:v;k:v', () => {
    const start = Date.UTC(2026, 10, 23, 10, 15) / 1000;
    const r = oneRecording({
      bookmarks: [
        { at: '12s', category: '3', tags: { plate: 'ABC123', colour: 'red', count: 2 } },
        { at: '40.5s', length: '5s' },
      ],
    });
    expect(r.bookmarks).toEqual([
      {
        name: `bookmark_${start + 12}_1`,
        metadata: {
          CategoryID: '3',
          CategoryName: '',
          StartTime: String(start + 12),
          EndTime: String(start + 12),
          Tags: 'plate:ABC123;colour:red;count:2',
        },
        body: '',
      },
      {
        name: `bookmark_${start + 40}_2`,
        metadata: {
          CategoryID: '1',
          CategoryName: '',
          StartTime: String(start + 40.5),
          EndTime: String(start + 45.5),
          Tags: '',
        },
        body: '',
      },
    ]);
  });

  it('GNSS trail: {start}_{id}_gpstrail.json, a point every 10 s by default, or the points given', () => {
    const start = Date.UTC(2026, 10, 23, 10, 15) / 1000;
    const byDefault = oneRecording({ gps: true });
    expect(byDefault.gpsTrail?.name).toBe(`${start}_${byDefault.id}_gpstrail.json`);
    expect(byDefault.gpsTrail?.metadata).toEqual({ StartTime: String(start), StopTime: String(start + 60) });
    const track = JSON.parse(byDefault.gpsTrail?.body ?? '') as {
      RecordingID: string;
      Points: { Time: string; Latitude: number; Longitude: number }[];
    };
    expect(track.RecordingID).toBe(byDefault.id);
    expect(track.Points).toHaveLength(7); // 0, 10, ... 60 s
    expect(track.Points[0].Time).toBe('2026-11-23T10:15:00.000Z');
    expect(track.Points[6].Time).toBe('2026-11-23T10:16:00.000Z');
    for (const p of track.Points) {
      expect(Math.abs(p.Latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(p.Longitude)).toBeLessThanOrEqual(180);
    }
    const given = oneRecording({ gps: [{ at: '5s', lat: 59.3, lon: 18.07 }] });
    expect(JSON.parse(given.gpsTrail?.body ?? '')).toEqual({
      RecordingID: given.id,
      Points: [{ Time: '2026-11-23T10:15:05.000Z', Latitude: 59.3, Longitude: 18.07 }],
    });
    expect(oneRecording({ gps: false }).gpsTrail).toBeUndefined();
    expect(oneRecording({ gps: [] }).gpsTrail).toBeUndefined();
  });

  it('a recording of a camera not in the plan still expands (the destination refuses it), with the default model', () => {
    const [r] = expandPlan(
      small([{ user: 'u1', device: 'NOCAM', 'trigger-on': '2026-11-23T10:15:00Z' }]),
      OPTIONS,
    ).recordings;
    expect(r.metadata).toMatchObject({ BWCSerialNumber: 'NOCAM', BWCModel: 'W110', FirmwareVersion: '11.11.73' });
  });

  it('two recordings that would share a container are refused', () => {
    const found = errors(
      'users: [ { id: u1, name: U } ]\ndevices: [ { serial: CAM1, name: C } ]\nrecordings:\n  - { user: u1, device: CAM1, trigger-on: "2026-11-23T10:15:00Z" }\n  - { user: u1, device: CAM1, trigger-on: "2026-11-23T10:15:00Z" }\n',
    );
    expect(found.map((e) => e.line)).toEqual([5]);
  });

  it('two recordings of one user and camera in the same second get their own containers, a second apart', () => {
    const expanded = expandPlan(
      small([
        { user: 'u1', device: 'CAM1', 'trigger-on': '2026-11-23T10:15:00Z' },
        { user: 'u1', device: 'CAM1', 'trigger-on': '2026-11-23T10:15:00.500Z' },
      ]),
      OPTIONS,
    );
    expect(expanded.recordings.map((r) => r.container)).toEqual([
      'u1_CAM1_20261123T101500Z',
      'u1_CAM1_20261123T101501Z',
    ]);
  });
});

describe('determinism', () => {
  it('the same plan and now give the same expansion; another now moves only untimed recordings', () => {
    const p = plan({
      ...DEFAULT_PLAN,
      recordings: [
        ...(DEFAULT_PLAN.recordings ?? []),
        { user: 'officer_1', device: 'AABBCCDD1234', 'trigger-on': '2026-01-01T00:00:00Z' },
      ],
      generate: { users: 2, devices: 2, recordings: 4 },
    });
    const a = expandPlan(p, OPTIONS);
    expect(expandPlan(p, OPTIONS)).toEqual(a);
    expect(JSON.stringify(expandPlan(PlanSchema.parse(JSON.parse(JSON.stringify(DEFAULT_PLAN))), OPTIONS))).toBe(
      JSON.stringify(expandPlan(PlanSchema.parse(DEFAULT_PLAN), OPTIONS)),
    );
    const later = expandPlan(p, { ...OPTIONS, now: NOW + 3600_000 });
    const timed = 3; // the fourth recording of the plan
    expect(later.recordings[timed]).toEqual(a.recordings[timed]);
    expect(later.recordings[0].triggerOn - a.recordings[0].triggerOn).toBe(3600_000);
  });

  it('loading the same text twice gives the same plan (property over generate counts)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        (users, devices, recordings) => {
          const text = `generate: { users: ${users}, devices: ${devices}, recordings: ${recordings} }\n`;
          expect(load(text)).toEqual(load(text));
          expect(expandPlan(load(text), OPTIONS)).toEqual(expandPlan(load(text), OPTIONS));
        },
      ),
      propertyRuns(30),
    );
  });
});
