import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario, loadScenarioFile, type LoadScenarioResult } from '../../../src/scenario/load';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/** The errors of a scenario as `code file:line:col: message`, or the failure to fail. */
function errorsOf(text: string): string[] {
  const result = loadScenario(text, 'demo.yaml');
  if (result.ok) throw new Error('expected errors, but the scenario loaded');
  return result.error.errors.map((e) => `${e.code} ${e.text}`);
}

const FULL = lines(
  '# yaml-language-server: $schema=../schema/scenario.schema.json',
  'name: motion demo',
  'description: motion bursts, a port that toggles and a reboot',
  'device: { serial: ACCC8E000001, model: W110, name: Body cam 1, firmware: 11.2.3 }',
  'flags: { recording_indicator: true, pre_buffer: false }',
  'states:',
  '  - topic: tns1:Device/tnsvendor:IO/Port',
  '    source: { port: 1 }',
  '    data: { state: false }',
  'groups:',
  '  burst:',
  '    - emit: { topic: tns1:VideoSource/MotionAlarm, source: { VideoSourceConfigurationToken: 0 }, data: { State: true } }',
  '    - pause: 200ms',
  '    - emit: { topic: tns1:VideoSource/MotionAlarm, data: { State: false }, timestamp: none }',
  'timeline:',
  '  - at: 1s',
  '    run: burst',
  '  - every: 5s',
  '    times: 3',
  '    jitter: 500ms',
  '    set: { topic: tns1:Device/tnsvendor:IO/Port, source: { port: 1 }, data: { state: true } }',
  '  - after: 1m30s',
  '    set-flag: { recording_indicator: false }',
  '  - after: 2s',
  '    steps:',
  '      - disconnect: { code: 1012, reason: rebooting }',
  '      - reject-auth: { for: 10s }',
  '  - on: connect',
  '    emit: { topic: tns1:Device/Hello, timestamp: device }',
  '  - on: { configure: tns1:VideoSource/MotionAlarm }',
  '    after: 100ms',
  '    run: burst',
  '  - disconnect:',
  'loop: { times: 2 }',
);

describe('loadScenario', () => {
  it('loads a full example, with durations in ms and message values as strings', () => {
    const result: LoadScenarioResult = loadScenario(FULL, 'full.yaml');
    if (!result.ok) throw new Error(result.error.errors.map((e) => e.text).join('\n'));
    const { value: scenario } = result;
    expect(scenario.device).toEqual({ serial: 'ACCC8E000001', model: 'W110', name: 'Body cam 1', firmware: '11.2.3' });
    expect(scenario.flags).toEqual({ recording_indicator: true, pre_buffer: false });
    expect(scenario.states).toEqual([
      { topic: 'tns1:Device/tnsvendor:IO/Port', source: { port: '1' }, data: { state: 'false' } },
    ]);
    expect(scenario.groups?.burst[1]).toEqual({ pause: 200 });
    expect(scenario.timeline?.[1]).toMatchObject({ every: 5000, times: 3, jitter: 500 });
    expect(scenario.timeline?.[2]).toEqual({ after: 90_000, 'set-flag': { recording_indicator: false } });
    expect(scenario.timeline?.[3].steps).toEqual([
      { disconnect: { code: 1012, reason: 'rebooting' } },
      { 'reject-auth': { for: 10_000 } },
    ]);
    expect(scenario.timeline?.[4]).toEqual({
      on: 'connect',
      emit: { topic: 'tns1:Device/Hello', timestamp: 'device' },
    });
    expect(scenario.timeline?.[5]).toEqual({
      on: { configure: 'tns1:VideoSource/MotionAlarm' },
      after: 100,
      run: 'burst',
    });
    expect(scenario.timeline?.[6]).toEqual({ disconnect: {} });
    expect(scenario.loop).toEqual({ times: 2 });
  });

  it('reports a YAML syntax error at its position, and still checks what did parse', () => {
    expect(errorsOf(lines('timeline:', '  - pause: [1s', 'loop: true'))).toEqual([
      'BAD_DURATION demo.yaml:2:12: expected a duration like 500ms, 2s, 1m30s',
      'YAML_SYNTAX demo.yaml:3:1: YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('reports a duplicate key at the second occurrence', () => {
    expect(errorsOf(lines('name: a', 'timeline:', '  - pause: 1s', '    pause: 2s'))).toEqual([
      'DUPLICATE_KEY demo.yaml:4:5: duplicate key "pause"; each key may appear once in a map',
    ]);
  });

  it('reports unknown keys at the key, each one', () => {
    expect(errorsOf(lines('nmae: a', 'timeline:', '  - pause: 1s', '    emitt: { topic: a }', '    wait: 1s'))).toEqual(
      [
        'UNKNOWN_KEY demo.yaml:1:1: unknown key "nmae" at the top level',
        'UNKNOWN_KEY demo.yaml:4:5: unknown key "emitt" in timeline.0',
        'UNKNOWN_KEY demo.yaml:5:5: unknown key "wait" in timeline.0',
      ],
    );
  });

  it('reports a missing key at the map that lacks it', () => {
    expect(errorsOf(lines('timeline:', '  - emit:', '      data: { a: 1 }'))).toEqual([
      'MISSING_KEY demo.yaml:3:7: missing required key "topic" in timeline.0.emit',
    ]);
  });

  it('reports wrong types at the value', () => {
    expect(errorsOf(lines('name: [a]', 'device:', '  serial: 12', 'flags: { a: yes }', 'timeline: {}'))).toEqual([
      'WRONG_TYPE demo.yaml:1:7: expected string, got a list',
      'WRONG_TYPE demo.yaml:3:11: expected string, got number 12',
      'WRONG_TYPE demo.yaml:4:13: a flag is true or false',
      'WRONG_TYPE demo.yaml:5:11: timeline is a list of steps',
    ]);
  });

  it('reports bad durations at the value', () => {
    expect(errorsOf(lines('timeline:', '  - at: 500', '    pause: 1x', '  - reject-auth: { for: -2s }'))).toEqual([
      'BAD_DURATION demo.yaml:2:9: duration 500 has no unit; write 500ms or 500s',
      'BAD_DURATION demo.yaml:3:12: duration "1x" is not a duration (e.g. 500ms, 2s, 1.5s, 1m30s, 1h)',
      'BAD_DURATION demo.yaml:4:25: duration "-2s" is negative; durations are 0 or more',
    ]);
  });

  it('loads fault steps with their defaults, for as forMs, and reports bad ones at the value', () => {
    const good = loadScenario(lines('timeline:', '  - fault: { name: slots, max: 2, for: 3s }'), 'demo.yaml');
    expect(good.ok && good.value.timeline?.[0].fault).toEqual({
      name: 'slots',
      params: { max: 2, overflow: 'evict', code: 1008, reason: 'event subscription slots exhausted', forMs: 3000 },
    });
    const errors = errorsOf(
      lines(
        'timeline:',
        '  - fault: { name: nope }',
        '  - fault: { name: stall, pings: maybe }',
        '  - fault: { name: drop, shout: 1 }',
      ),
    );
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^\w+ demo\.yaml:2:\d+: name is one of the fault switches: stall, drop/);
    expect(errors[1]).toMatch(/demo\.yaml:3:\d+: .*boolean/);
    expect(errors[2]).toMatch(/demo\.yaml:4:\d+: .*shout/);
  });

  it('reports an unknown named group at the run value, from the timeline, groups and inline steps', () => {
    expect(
      errorsOf(lines('groups:', '  a:', '    - run: b', 'timeline:', '  - run: a', '  - steps:', '      - run: c')),
    ).toEqual([
      'UNKNOWN_GROUP demo.yaml:3:12: unknown group "b"; groups defined: a',
      'UNKNOWN_GROUP demo.yaml:7:14: unknown group "c"; groups defined: a',
    ]);
    expect(errorsOf(lines('timeline:', '  - run: a'))).toEqual([
      'UNKNOWN_GROUP demo.yaml:2:10: unknown group "a"; no groups are defined',
    ]);
  });

  it('reports a group that runs itself', () => {
    expect(errorsOf(lines('groups:', '  a: [ { run: b } ]', '  b: [ { pause: 1s }, { run: a } ]'))).toEqual([
      'GROUP_CYCLE demo.yaml:3:30: group "a" runs itself: a -> b -> a',
    ]);
  });

  it('reports step rules at the offending key', () => {
    expect(
      errorsOf(
        lines(
          'timeline:',
          '  - at: 1s',
          '  - pause: 1s',
          '    run: g',
          'groups: { g: [ { on: connect, pause: 1s } ] }',
        ),
      ),
    ).toEqual([
      'INVALID_VALUE demo.yaml:2:5: a step needs one action: emit, set, set-flag, disconnect, reject-auth, fault, override, expect, pause, run, steps',
      'INVALID_VALUE demo.yaml:4:5: a step has one action, but this one has both pause and run; put them in separate steps',
      'INVALID_VALUE demo.yaml:5:18: on: triggers belong in the top-level timeline, not in groups or steps',
    ]);
  });

  it('refuses a disconnect a close frame cannot carry: a reserved code, a reason over 123 bytes', () => {
    const errors = errorsOf(
      lines('timeline:', '  - disconnect: { code: 1005 }', `  - disconnect: { code: 1000, reason: ${'é'.repeat(62)} }`),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^\S+ demo\.yaml:2:\d+: not a close code a server may send/);
    expect(errors[1]).toMatch(/^\S+ demo\.yaml:3:\d+: a close reason is at most 123 bytes of UTF-8$/);
  });

  it('reports every kind of error at once, in file order', () => {
    const text = lines(
      'name: demo',
      'nmae: demo',
      'name: again',
      'device: { serial: 1 }',
      'timeline:',
      '  - after: 2',
      '    run: missing',
      '  - emit: { data: { a: 1 } }',
      '  - pause: [1s',
    );
    expect(errorsOf(text).map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual([
      'UNKNOWN_KEY demo.yaml:2:1:',
      'DUPLICATE_KEY demo.yaml:3:1:',
      'WRONG_TYPE demo.yaml:4:19:',
      'BAD_DURATION demo.yaml:6:12:',
      'UNKNOWN_GROUP demo.yaml:7:10:',
      'MISSING_KEY demo.yaml:8:11:',
      'BAD_DURATION demo.yaml:9:12:',
      'YAML_SYNTAX demo.yaml:10:1:',
    ]);
  });

  it('never throws: any text loads or gives positioned errors', () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          'timeline:',
          '  - ',
          'pause: ',
          '1s',
          'run: a',
          'emit:',
          ' { topic: a }',
          '[',
          ']',
          '{',
          '}',
          ': ',
          '\n',
          '  ',
          '&x ',
          '*x',
          '- ',
          'groups:',
          'a:',
          '"',
          '#',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), yamlish), (text) => {
        const result = loadScenario(text, 'p.yaml');
        if (result.ok) return;
        expect(result.error.errors.length).toBeGreaterThan(0);
        for (const error of result.error.errors) {
          expect(error.line).toBeGreaterThanOrEqual(1);
          expect(error.col).toBeGreaterThanOrEqual(1);
          expect(error.text).toBe(`p.yaml:${error.line}:${error.col}: ${error.message}`);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reports an empty file at 1:1', () => {
    expect(errorsOf('')).toEqual(['WRONG_TYPE demo.yaml:1:1: expected object, got nothing (null)']);
  });
});

describe('loadScenarioFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-scenario-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a file and names it in errors', async () => {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, FULL);
    expect((await loadScenarioFile(good)).ok).toBe(true);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'timeline:\n  - pause: 5\n');
    const result = await loadScenarioFile(bad);
    expect(result.ok ? [] : result.error.errors.map((e) => e.text)).toEqual([
      `${bad}:2:12: duration 5 has no unit; write 5ms or 5s`,
    ]);
  });

  it('finds a shipped scenario by name, and by file name unless the working directory has that file', async () => {
    const nameOf = (result: LoadScenarioResult): string | undefined => (result.ok ? result.value.name : undefined);
    expect(nameOf(await loadScenarioFile('motion'))).toBe('motion');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(nameOf(await loadScenarioFile('motion.yaml'))).toBe('motion');
      writeFileSync(join(dir, 'motion.yaml'), 'name: mine\ntimeline:\n  - { at: 1h, emit: { topic: tns1:A/B } }\n');
      expect(nameOf(await loadScenarioFile('motion.yaml'))).toBe('mine');
      expect(nameOf(await loadScenarioFile('motion'))).toBe('motion'); // a bare name is always the shipped one
    } finally {
      process.chdir(cwd);
    }
    const unknown = await loadScenarioFile('no-such-scenario');
    expect(unknown.ok ? undefined : unknown.error.errors[0].text).toMatch(/^no-such-scenario:1:1: cannot read/);
  });

  it('reports a file it cannot read', async () => {
    const missing = join(dir, 'missing.yaml');
    const result = await loadScenarioFile(missing);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.errors[0]).toMatchObject({
        code: 'READ_FAILED',
        line: 1,
        col: 1,
        text: expect.stringMatching(/^.*missing\.yaml:1:1: cannot read the scenario file: ENOENT/) as string,
      });
  });
});
