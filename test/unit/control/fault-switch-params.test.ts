/**
 * `GET /_emu/faults/switches` gives each switch's parameters as JSON Schema, made from the
 * catalogue's zod schemas: every parameter, its type, bounds, default and description; and
 * a body made of the defaults is one `POST /_emu/faults` takes.
 */
import request from 'supertest';
import { z } from 'zod';
import { FAULT_CATALOGUE, FAULT_NAMES, type FaultName } from '../../../src/protocol/fault-catalogue';
import { type ControlServer, startControl } from './fake-emulator';

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
}
interface Switch {
  name: FaultName;
  kind: string;
  does: string;
  exposes: string;
  source: string;
  params: { type: string; properties: Record<string, PropertySchema>; required?: string[]; $schema?: string };
}

/** The description of a zod schema, looked for through its optional / default wrappers. */
function descriptionOf(schema: z.ZodType): string | undefined {
  const own = z.globalRegistry.get(schema)?.description;
  if (own !== undefined) return own;
  const inner = (schema as unknown as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType;
  return inner ? descriptionOf(inner) : undefined;
}

let ctl: ControlServer;
let switches: Switch[];
beforeAll(async () => {
  ctl = await startControl();
  switches = ((await request(ctl.server).get('/_emu/faults/switches').expect(200)).body as { switches: Switch[] })
    .switches;
});
afterAll(() => ctl.close());

describe('the parameters of each fault switch', () => {
  it('keep the fields the switches had', () => {
    expect(switches.map((s) => s.name)).toEqual(FAULT_NAMES);
    for (const s of switches) {
      const { kind, does, exposes, source } = FAULT_CATALOGUE[s.name];
      expect(s).toMatchObject({ kind, does, exposes, source });
    }
  });

  it('are a JSON Schema object with every parameter of the zod schema, and nothing else', () => {
    for (const s of switches) {
      const shape = (FAULT_CATALOGUE[s.name].params as z.ZodObject).shape;
      expect(s.params.type).toBe('object');
      expect(s.params.$schema).toBeUndefined();
      expect(Object.keys(s.params.properties).sort()).toEqual(Object.keys(shape).sort());
      // Every parameter has a default or may be left out.
      expect(s.params.required ?? []).toEqual([]);
    }
  });

  it('carry the description of every parameter whose zod schema has one', () => {
    let described = 0;
    for (const s of switches) {
      const shape = (FAULT_CATALOGUE[s.name].params as z.ZodObject).shape as Record<string, z.ZodType>;
      for (const [param, schema] of Object.entries(shape)) {
        const description = descriptionOf(schema);
        expect({ switch: s.name, param, description: s.params.properties[param].description }).toEqual({
          switch: s.name,
          param,
          description,
        });
        if (description !== undefined) described++;
      }
    }
    expect(described).toBeGreaterThan(10);
  });

  it('carry types, enums, bounds and defaults a form can be built from', () => {
    const byName = new Map(switches.map((s) => [s.name, s.params.properties]));
    expect(byName.get('drop')?.mode).toMatchObject({ type: 'string', enum: ['reset', 'close'], default: 'reset' });
    expect(byName.get('stall')?.pings).toMatchObject({ type: 'boolean', default: true });
    expect(byName.get('storm')?.ratePerSecond).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      default: 1000,
    });
    expect(byName.get('flap')?.source).toMatchObject({ type: 'object', default: { port: '1' } });
  });

  it('have defaults that POST /_emu/faults takes as they are', async () => {
    for (const s of switches) {
      const defaults = Object.fromEntries(
        Object.entries(s.params.properties).flatMap(([param, p]) =>
          p.default === undefined ? [] : [[param, p.default]],
        ),
      );
      const res = await request(ctl.server)
        .post('/_emu/faults')
        .send({ name: s.name, ...defaults });
      expect({ name: s.name, status: res.status }).toEqual({ name: s.name, status: 200 });
    }
  });
});
