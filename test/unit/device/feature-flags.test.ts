import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FLAGS, FeatureFlags, type FlagDefinition } from '../../../src/device/feature-flags';

const DEFINITIONS: FlagDefinition[] = [
  { name: 'alpha', description: 'First flag', defaultValue: false },
  { name: 'beta', description: 'Second flag', defaultValue: true },
  { name: 'gamma', description: 'Third flag', defaultValue: false },
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bwc-flags-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A state file path inside a not yet existing sub-directory (the device makes it on first write). */
function stateFile(): string {
  return join(dir, 'SERIAL', 'flags.json');
}

function valuesOf(flags: FeatureFlags): Record<string, boolean> {
  return Object.fromEntries(flags.list().map((f) => [f.name, f.value]));
}

describe('FeatureFlags in memory', () => {
  it('lists every flag with value, description and default, in definition order', () => {
    expect(new FeatureFlags(DEFINITIONS).list()).toEqual([
      { name: 'alpha', value: false, description: 'First flag', defaultValue: false },
      { name: 'beta', value: true, description: 'Second flag', defaultValue: true },
      { name: 'gamma', value: false, description: 'Third flag', defaultValue: false },
    ]);
  });

  it('devices with the same definitions share them, are not changed by a later edit of the list, and keep their own values', async () => {
    const list = DEFINITIONS.map((d) => ({ ...d }));
    const one = new FeatureFlags(list);
    list[0].description = 'changed afterwards';
    const two = new FeatureFlags(DEFINITIONS.map((d) => ({ ...d })));
    await one.set({ alpha: true });
    expect(valuesOf(one)).toEqual({ alpha: true, beta: true, gamma: false });
    expect(valuesOf(two)).toEqual({ alpha: false, beta: true, gamma: false });
    expect(two.list()[0].description).toBe('First flag');
  });

  it('keeps working past the bound of shared flag sets (64), each device with its own definitions', () => {
    const sets = Array.from(
      { length: 200 },
      (_, i) => new FeatureFlags([{ name: `f${i}`, description: '', defaultValue: i % 2 === 0 }]),
    );
    expect(sets.map((f, i) => f.get([`f${i}`]))).toEqual(
      sets.map((_, i) => ({ ok: true, value: { [`f${i}`]: i % 2 === 0 } })),
    );
  });

  it('gets named flags', () => {
    expect(new FeatureFlags(DEFINITIONS).get(['beta', 'alpha'])).toEqual({
      ok: true,
      value: { beta: true, alpha: false },
    });
  });

  it('get names every unknown flag', () => {
    expect(new FeatureFlags(DEFINITIONS).get(['alpha', 'nope', 'nada'])).toEqual({
      ok: false,
      error: { code: 'FLAG_NOT_FOUND', message: 'Flag(s) does not exist: nope, nada', unknown: ['nope', 'nada'] },
    });
  });

  it('get does not take inherited object members for flags', () => {
    expect(new FeatureFlags(DEFINITIONS).get(['constructor', '__proto__', 'toString'])).toEqual({
      ok: false,
      error: {
        code: 'FLAG_NOT_FOUND',
        message: 'Flag(s) does not exist: constructor, __proto__, toString',
        unknown: ['constructor', '__proto__', 'toString'],
      },
    });
  });

  it('set changes values and keeps defaults', async () => {
    const flags = new FeatureFlags(DEFINITIONS);
    expect(await flags.set({ alpha: true, beta: false })).toEqual({ ok: true, value: undefined });
    expect(flags.list()).toEqual([
      { name: 'alpha', value: true, description: 'First flag', defaultValue: false },
      { name: 'beta', value: false, description: 'Second flag', defaultValue: true },
      { name: 'gamma', value: false, description: 'Third flag', defaultValue: false },
    ]);
  });

  it('set is all-or-nothing: one unknown name and nothing changes', async () => {
    const flags = new FeatureFlags(DEFINITIONS);
    const before = flags.list();
    expect(await flags.set({ alpha: true, nope: true, gamma: true })).toEqual({
      ok: false,
      error: { code: 'FLAG_NOT_FOUND', message: 'Flag(s) does not exist: nope', unknown: ['nope'] },
    });
    expect(flags.list()).toEqual(before);
  });

  it('set refuses inherited object members as flag names', async () => {
    const flags = new FeatureFlags(DEFINITIONS);
    const changes = JSON.parse('{"__proto__": true, "alpha": true}') as Record<string, boolean>;
    expect(await flags.set(changes)).toEqual({
      ok: false,
      error: { code: 'FLAG_NOT_FOUND', message: 'Flag(s) does not exist: __proto__', unknown: ['__proto__'] },
    });
    expect(valuesOf(flags).alpha).toBe(false);
  });

  it('list returns copies: changing them does not change the flags', () => {
    const flags = new FeatureFlags(DEFINITIONS);
    flags.list()[0].value = true;
    expect(flags.list()[0].value).toBe(false);
  });

  it('the built-in set has realistic names and boolean defaults', () => {
    const flags = new FeatureFlags(DEFAULT_FLAGS);
    const names = flags.list().map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['restrictRootAccess', 'selected_metadata_events', 'graphics_udvd']));
    for (const flag of flags.list()) {
      expect(typeof flag.value).toBe('boolean');
      expect(flag.value).toBe(flag.defaultValue);
      expect(flag.description.length).toBeGreaterThan(0);
    }
  });
});

describe('FeatureFlags persistence', () => {
  it('writes the state file on set; a new instance reads it back', async () => {
    const file = stateFile();
    const flags = new FeatureFlags(DEFINITIONS, file);
    await flags.set({ alpha: true, beta: false });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ alpha: true, beta: false, gamma: false });
    const again = new FeatureFlags(DEFINITIONS, file);
    expect(valuesOf(again)).toEqual({ alpha: true, beta: false, gamma: false });
  });

  it('does not write the file for a refused set', async () => {
    const file = stateFile();
    await new FeatureFlags(DEFINITIONS, file).set({ nope: true });
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('starts with defaults, silently, when the state file does not exist', () => {
    const problems: string[] = [];
    const flags = new FeatureFlags(DEFINITIONS, stateFile(), (m) => problems.push(m));
    expect(valuesOf(flags)).toEqual({ alpha: false, beta: true, gamma: false });
    expect(problems).toEqual([]);
  });

  it('leaves no temporary files behind', async () => {
    const file = stateFile();
    const flags = new FeatureFlags(DEFINITIONS, file);
    for (let i = 0; i < 5; i++) await flags.set({ alpha: i % 2 === 0 });
    expect(readdirSync(join(dir, 'SERIAL'))).toEqual(['flags.json']);
  });

  it('the file holds the values of the last of many concurrent sets', async () => {
    const file = stateFile();
    const flags = new FeatureFlags(DEFINITIONS, file);
    for (let round = 0; round < 5; round++) {
      const writes: Array<Promise<unknown>> = [];
      for (let i = 0; i < 40; i++)
        writes.push(flags.set({ alpha: (i + round) % 2 === 0, gamma: (i + round) % 3 === 0 }));
      await Promise.all(writes);
      expect(valuesOf(flags)).toEqual({ alpha: (39 + round) % 2 === 0, beta: true, gamma: (39 + round) % 3 === 0 });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(valuesOf(flags));
    }
    expect(readdirSync(join(dir, 'SERIAL'))).toEqual(['flags.json']);
  });

  describe('unusable state files are reported and ignored', () => {
    function load(content: string): { values: Record<string, boolean>; problems: string[] } {
      const file = stateFile();
      mkdirSync(join(dir, 'SERIAL'), { recursive: true });
      writeFileSync(file, content);
      const problems: string[] = [];
      const flags = new FeatureFlags(DEFINITIONS, file, (m) => problems.push(m));
      return { values: valuesOf(flags), problems };
    }
    const DEFAULTS = { alpha: false, beta: true, gamma: false };

    it('corrupted JSON: defaults, one problem', () => {
      const { values, problems } = load('{"alpha": tru');
      expect(values).toEqual(DEFAULTS);
      expect(problems).toEqual([expect.stringMatching(/flags\.json is not valid JSON .*; using defaults$/)]);
    });

    it('an empty file: defaults, one problem', () => {
      const { values, problems } = load('');
      expect(values).toEqual(DEFAULTS);
      expect(problems).toHaveLength(1);
    });

    it.each([['[]'], ['null'], ['true'], ['"alpha"'], ['3']])(
      'a JSON %s that is not an object: defaults, one problem',
      (content) => {
        const { values, problems } = load(content);
        expect(values).toEqual(DEFAULTS);
        expect(problems).toEqual([expect.stringMatching(/flags\.json is not a JSON object; using defaults$/)]);
      },
    );

    it('an unknown flag name: ignored, the other values kept', () => {
      const { values, problems } = load('{"alpha": true, "retired": true}');
      expect(values).toEqual({ ...DEFAULTS, alpha: true });
      expect(problems).toEqual([expect.stringMatching(/flag "retired" is no longer defined; ignored$/)]);
    });

    it('a value that is not a boolean: ignored, the other values kept', () => {
      const { values, problems } = load('{"alpha": "yes", "beta": false, "gamma": 1}');
      expect(values).toEqual({ ...DEFAULTS, beta: false });
      expect(problems).toEqual([
        expect.stringMatching(/flag "alpha" is not a boolean; ignored$/),
        expect.stringMatching(/flag "gamma" is not a boolean; ignored$/),
      ]);
    });

    it('a "__proto__" entry is an unknown flag, nothing more', () => {
      const { values, problems } = load('{"__proto__": {"alpha": true}, "gamma": true}');
      expect(values).toEqual({ ...DEFAULTS, gamma: true });
      expect(problems).toEqual([expect.stringMatching(/flag "__proto__" is no longer defined/)]);
    });

    it('a state path that cannot be read (a directory): defaults, one problem', () => {
      mkdirSync(stateFile(), { recursive: true });
      const problems: string[] = [];
      const flags = new FeatureFlags(DEFINITIONS, stateFile(), (m) => problems.push(m));
      expect(valuesOf(flags)).toEqual(DEFAULTS);
      expect(problems).toEqual([expect.stringMatching(/^cannot read .*flags\.json: .*; using defaults$/)]);
    });

    it('after an ignored file, the next set rewrites it whole', async () => {
      load('{"alpha": tru');
      const flags = new FeatureFlags(DEFINITIONS, stateFile(), () => {});
      await flags.set({ gamma: true });
      expect(JSON.parse(readFileSync(stateFile(), 'utf8'))).toEqual({ alpha: false, beta: true, gamma: true });
    });
  });
});
