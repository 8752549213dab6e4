/**
 * The fault switches' answers: which switches exist (`GET /faults/switches`) and which are on
 * (`GET /faults`, `POST /faults`, the live feed's `faults` event). The routes, the feed and,
 * generated from these (web/dashboard/wire-types.ts), the dashboard read them.
 */
import { z } from 'zod';
import { FAULT_KINDS, FAULT_NAMES } from '../protocol/fault-catalogue';

/** A fault switch's name, one of the catalogue's. */
export const FaultNameSchema = z.enum(FAULT_NAMES);

/** A fault switch that is on. */
export const ActiveFaultSchema = z.object({
  name: FaultNameSchema,
  device: z.string(),
  params: z.record(z.string(), z.unknown()),
  since: z.number().meta({ description: 'epoch ms it was switched on' }),
  until: z
    .number()
    .nullable()
    .meta({ description: 'epoch ms it switches off (an action: when it ended); null: until cleared' }),
});

/** The fault switches that are on (`GET /faults`, and the live feed's `faults` event). */
export const FaultsSchema = z.object({ faults: z.array(ActiveFaultSchema) });

/** One fault switch: what the device does, the client bug it exposes, its source, its parameters. */
export const FaultSwitchSchema = z.object({
  name: FaultNameSchema,
  kind: z.enum(FAULT_KINDS),
  does: z.string(),
  exposes: z.string(),
  source: z.string(),
  params: z.record(z.string(), z.unknown()).meta({
    description:
      'JSON Schema (draft 2020-12) of its parameters, as POST /faults takes them besides `name`: ' +
      'type, enum, minimum, maximum, default and description of each',
  }),
});

/** Every fault switch (`GET /faults/switches`). */
export const SwitchesSchema = z.object({ switches: z.array(FaultSwitchSchema) });
