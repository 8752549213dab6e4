import { jsonSchemaOf } from '../../../src/base/json-schema';
import { FAULT_CATALOGUE, FAULT_NAMES } from '../../../src/protocol/fault-catalogue';
import { type FieldSpec, fieldsOf, type RawValue, valueOf } from '../../../web/dashboard/schema-fields';
import type { ParamSchema } from '../../../web/dashboard/types';

const SCHEMA: ParamSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    pings: { type: 'boolean', default: true, description: 'answer pings' },
    always: { const: 'yes' },
    mode: { enum: ['close', 'reset'], default: 'close' },
    level: { enum: [1, 2] },
    code: { type: 'integer', minimum: 1000, maximum: 4999, default: 1011 },
    ratio: { type: 'number', minimum: -9007199254740991, maximum: 9007199254740991 },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    extra: { type: 'object', default: { a: '1' } },
    reason: { type: 'string' },
    name: { type: 'string' },
  },
};

/** The field of `name` in {@link SCHEMA}. */
function field(name: string): FieldSpec {
  const found = fieldsOf(SCHEMA).find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe("fieldsOf (the inputs of a fault switch's parameters)", () => {
  it('maps each property to its input, defaults filled in, in the schema order', () => {
    expect(fieldsOf(SCHEMA).map((f) => [f.name, f.kind])).toEqual([
      ['pings', 'boolean'],
      ['always', 'const'],
      ['mode', 'enum'],
      ['level', 'enum'],
      ['code', 'number'],
      ['ratio', 'number'],
      ['headers', 'map'],
      ['extra', 'map'],
      ['reason', 'text'],
      ['name', 'text'],
    ]);
    expect(field('pings')).toMatchObject({ checked: true, hint: 'answer pings' });
    expect(field('mode')).toMatchObject({ labels: ['close', 'reset'], selected: 'close', unset: false });
    expect(field('level')).toMatchObject({ labels: ['1', '2'], selected: '', unset: true });
    expect(field('code')).toMatchObject({ integer: true, min: 1000, max: 4999, value: '1011', hint: '1000–4999' });
    expect(field('extra')).toMatchObject({ initial: { a: '1' }, empty: {} });
  });

  it('leaves out bounds nobody needs told, and says which inputs may stay empty', () => {
    expect(field('ratio')).toMatchObject({ min: undefined, max: undefined, hint: 'optional' });
    expect(field('reason').hint).toBe('optional');
    expect(field('name').hint).toBe('');
    expect(field('pings').hint).not.toContain('optional');
  });

  it('gives nothing for no schema', () => {
    expect(fieldsOf(undefined)).toEqual([]);
  });
});

describe('valueOf (reading an input back)', () => {
  it.each<[string, RawValue, unknown]>([
    ['always', true, 'yes'],
    ['always', false, undefined],
    ['pings', false, false],
    ['mode', 'reset', 'reset'],
    ['level', '2', 2],
    ['level', '', undefined],
    ['code', ' 4000 ', 4000],
    ['code', '', undefined],
    ['headers', { a: 'b' }, { a: 'b' }],
    ['headers', undefined, undefined],
    ['extra', undefined, {}],
    ['reason', '', undefined],
    ['name', '', ''],
    ['reason', 'why', 'why'],
  ])('%s holding %j sends %j', (name, raw, sent) => {
    expect(valueOf(field(name), raw)).toEqual(sent);
  });

  it('refuses a number that is not one, naming the field', () => {
    expect(() => valueOf(field('code'), '12abc')).toThrow('code: "12abc" is not a number');
  });

  it("sends, for each fault switch as the device describes it, values its own parameters' schema takes", () => {
    let seen = 0;
    for (const name of FAULT_NAMES) {
      const params = FAULT_CATALOGUE[name].params;
      const fields = fieldsOf(jsonSchemaOf(params));
      seen += fields.length;
      const values: Record<string, unknown> = {};
      for (const f of fields) {
        const raw: RawValue =
          f.kind === 'boolean'
            ? f.checked
            : f.kind === 'map'
              ? undefined
              : f.kind === 'const'
                ? false
                : f.kind === 'enum'
                  ? f.selected
                  : f.value;
        const value = valueOf(f, raw);
        if (value !== undefined) values[f.name] = value;
      }
      expect([name, params.safeParse(values).success]).toEqual([name, true]);
    }
    expect(seen).toBeGreaterThan(5);
  });
});
