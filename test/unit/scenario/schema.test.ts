import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { jsonSchemaText, writeJsonSchemaFiles } from '../../../src/base/json-schema';
import { PLAN_SCHEMA_FILE } from '../../../src/bws/plan';
import { PERSONA_SCHEMA_FILE } from '../../../src/device/persona-file';
import { SCENARIO_SCHEMA_FILE, ScenarioSchema } from '../../../src/scenario/schema';

/** The parts of a JSON Schema these tests read. */
interface JsonSchema {
  title?: string;
  type?: string;
  pattern?: string;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/** Every generated schema file, by the kind of file it describes. */
const JSON_SCHEMA_FILES = { scenario: SCENARIO_SCHEMA_FILE, plan: PLAN_SCHEMA_FILE, persona: PERSONA_SCHEMA_FILE };

describe('schema/*.schema.json', () => {
  if (process.env.UPDATE_SCHEMA === '1') writeJsonSchemaFiles(Object.values(JSON_SCHEMA_FILES));

  it.each(Object.entries(JSON_SCHEMA_FILES))(
    '%s: the committed file is current with its zod schema (regenerate: npm run schema)',
    (_kind, file) => {
      expect(readFileSync(file.path, 'utf8')).toBe(jsonSchemaText(file.schema));
    },
  );

  it('names each file after what it describes', () => {
    expect(Object.entries(JSON_SCHEMA_FILES).map(([kind, file]) => [kind, basename(file.path)])).toEqual([
      ['scenario', 'scenario.schema.json'],
      ['plan', 'plan.schema.json'],
      ['persona', 'persona.schema.json'],
    ]);
  });

  it('scenario: describes durations as strings with a pattern and forbids unknown keys', () => {
    const schema = JSON.parse(jsonSchemaText(ScenarioSchema)) as JsonSchema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties?.loop).toBeDefined();
    const text = JSON.stringify(schema);
    expect(text).toContain('"pattern"');
    expect(text).toContain('"reject-auth"');
  });

  it('plan: has a title, forbids unknown keys, takes sizes as numbers or strings and durations as strings', () => {
    const schema = JSON.parse(jsonSchemaText(JSON_SCHEMA_FILES.plan.schema)) as JsonSchema;
    expect(schema.title).toBe('bwc-emu upload plan');
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'name',
      'system',
      'users',
      'devices',
      'recordings',
      'generate',
    ]);
    const recording = schema.properties?.recordings.items;
    expect(recording?.required).toEqual(['user', 'device']);
    expect(recording?.additionalProperties).toBe(false);
    expect(recording?.properties?.['clip-size'].anyOf?.map((s) => s.type)).toEqual(['integer', 'string']);
    expect(recording?.properties?.['clip-duration']).toMatchObject({
      type: 'string',
      pattern: expect.any(String) as string,
    });
  });
});

describe('ScenarioSchema step rules', () => {
  const messages = (timeline: unknown[]): string[] => {
    const result = ScenarioSchema.safeParse({ timeline });
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('accepts one timing and one action, and converts durations to ms', () => {
    const result = ScenarioSchema.parse({ timeline: [{ every: '1m30s', times: 2, jitter: '250ms', pause: '1.5s' }] });
    expect(result.timeline?.[0]).toEqual({ every: 90000, times: 2, jitter: 250, pause: 1500 });
  });

  it('turns message values into strings and `disconnect:` with no value into {}', () => {
    const result = ScenarioSchema.parse({
      timeline: [{ emit: { topic: 'tns1:A/B', data: { n: 1, on: true } } }, { disconnect: null }],
    });
    expect(result.timeline?.[0].emit?.data).toEqual({ n: '1', on: 'true' });
    expect(result.timeline?.[1].disconnect).toEqual({});
  });

  it('reports a step with no action, two actions, two timings, stray times and jitter', () => {
    expect(messages([{ at: '1s' }])).toEqual([
      'timeline.0: a step needs one action: emit, set, set-flag, disconnect, reject-auth, fault, override, expect, pause, run, steps',
    ]);
    expect(messages([{ pause: '1s', run: 'x' }])).toEqual([
      'timeline.0.run: a step has one action, but this one has both pause and run; put them in separate steps',
    ]);
    expect(messages([{ at: '1s', after: '1s', pause: '1s' }])).toEqual([
      'timeline.0.after: a step has at most one timing key, but this one has both at and after',
    ]);
    expect(messages([{ times: 2, pause: '1s' }])).toEqual(['timeline.0.times: times only goes with every']);
    expect(messages([{ jitter: '1s', pause: '1s' }])).toEqual([
      'timeline.0.jitter: jitter needs a timing key: at, after or every',
    ]);
  });

  it('allows on: triggers only at the top level', () => {
    expect(messages([{ on: 'connect', steps: [{ pause: '1s' }] }])).toEqual([]);
    expect(messages([{ on: { configure: 'tns1:A' }, after: '1s', run: 'g' }])).toEqual([]);
    expect(messages([{ steps: [{ on: 'connect', pause: '1s' }] }])).toEqual([
      'timeline.0.steps.0.on: on: triggers belong in the top-level timeline, not in groups or steps',
    ]);
    expect(messages([{ on: 'connect', at: '1s', pause: '1s' }])).toEqual([
      'timeline.0.at: a trigger step runs when its trigger fires; use after, not at',
    ]);
  });
});
