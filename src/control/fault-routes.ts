/** The routes of the device fault switches: which exist, which are on, switch one on, switch off. */
import { z } from 'zod';
import { jsonSchemaOf } from '../base/json-schema';
import { FAULT_CATALOGUE, FAULT_NAMES, type FaultName } from '../protocol/fault-catalogue';
import { refusalDocs } from './control-codes';
import { FaultNameSchema, FaultsSchema, SwitchesSchema } from './fault-schemas';
import { activeFaults } from './feed-snapshots';
import { defineRoute } from './route';

/** `{ name, ...parameters }`: one body shape per switch, told apart by `name`. */
const FaultBodySchema = z.discriminatedUnion(
  'name',
  FAULT_NAMES.map((name) =>
    FAULT_CATALOGUE[name].params.extend({ name: z.literal(name) }).meta({ title: name }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** The JSON Schema of each switch's parameters, made on first use (the document and the dashboard need them). */
let paramSchemas: Record<string, Record<string, unknown>> | undefined;

/** The JSON Schema of the parameters of switch `name` (without `$schema`: it is a part of an answer). */
function paramsSchemaOf(name: FaultName): Record<string, unknown> {
  paramSchemas ??= Object.fromEntries(
    FAULT_NAMES.map((each) => {
      const { $schema: _dialect, ...schema } = jsonSchemaOf(FAULT_CATALOGUE[each].params);
      return [each, schema];
    }),
  );
  return paramSchemas[name];
}

/** The routes of this file. */
export const FAULT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/faults/switches',
    summary: 'Every fault switch: what the device does, the client bug it exposes, its source, its parameters',
    perDevice: false,
    whenReady: false,
    response: SwitchesSchema,
    handler: () => ({
      switches: FAULT_NAMES.map((name) => {
        const { kind, does, exposes, source } = FAULT_CATALOGUE[name];
        return { name, kind, does, exposes, source, params: paramsSchemaOf(name) };
      }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/faults',
    summary: 'The fault switches that are on',
    response: FaultsSchema,
    handler: ({ emulator, device }) => activeFaults(emulator, device),
  }),
  defineRoute({
    method: 'post',
    path: '/faults',
    summary: 'Switch a fault on',
    description:
      'A state switch stays on until cleared (or for `forMs`); an action (drop, reboot, flap, storm) happens ' +
      'at once and this answers when it is over (a reboot: when the device listens again). ' +
      'The body is the switch name and its parameters; see GET /faults/switches and docs/faults.md.',
    body: FaultBodySchema,
    response: FaultsSchema,
    refusals: refusalDocs(['BAD_FAULT', 'unknown switch, bad parameters, or the action is already under way']),
    handler: async ({ emulator, device, body }) => {
      const { name, ...params } = body as { name: FaultName } & Record<string, unknown>;
      const faults = await emulator.fault(name, params, { device });
      return { faults: faults.map((f) => ({ ...f, until: f.until ?? null })) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/faults',
    summary: 'Switch faults off: the one named, or every one',
    query: z.strictObject({ name: FaultNameSchema.optional() }),
    response: z.object({ cleared: z.array(FaultNameSchema) }),
    handler: ({ emulator, device, query }) => ({ cleared: emulator.clearFaults(query.name, { device }) }),
  }),
];
