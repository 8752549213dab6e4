/**
 * The answer overrides in force, as the routes (`GET` and `POST /overrides`) and the live feed's
 * `overrides` event carry them; the dashboard's faults panel lists them (web/dashboard/wire-types.ts).
 */
import { z } from 'zod';
import { ActiveOverrideSchema } from '../protocol/answer-override-spec';

/** The answer overrides in force, each with the serial of its device. */
export const OverridesSchema = z.object({
  overrides: z.array(ActiveOverrideSchema.extend({ device: z.string() }).meta({ id: 'DeviceOverride' })),
});
