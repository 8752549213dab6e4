/**
 * Where a device's scenario is (`scenarioStatus()`, `GET /_emu/scenario`, the live feed's
 * `scenario` event, the dashboard), declared once as a zod schema with its type inferred.
 */
import { z } from 'zod';

/** Where a device's scenario can be; every device plays one (the shipped default when none is given). */
export const SCENARIO_STATES = ['playing', 'paused', 'finished'] as const;

/** One of {@link SCENARIO_STATES}. */
export type ScenarioState = (typeof SCENARIO_STATES)[number];

/** Where a device's scenario is. */
export const ScenarioStatusSchema = z
  .object({
    /** The scenario's `name:`, null when it has none. */
    name: z.string().nullable().meta({ description: "the scenario's `name:`, null when it has none" }),
    state: z.enum(SCENARIO_STATES),
    /** Scenario milliseconds since its start (speed applied): held while paused, and at the end once finished. */
    positionMs: z
      .number()
      .nonnegative()
      .meta({
        description:
          'scenario milliseconds since its start (speed applied): held while paused, at the end once finished, ' +
          '0 after a restart',
      }),
    /** Playback speed (2 = twice as fast). */
    speed: z.number().positive().meta({ description: 'playback speed (2 = twice as fast)' }),
    /**
     * Grows at each change of course: a new scenario, a restart, a reset, a pause, a play, the
     * end. Equal revisions of a device: the scenario has only moved on as it plays.
     */
    revision: z
      .number()
      .int()
      .nonnegative()
      .meta({
        description:
          'grows at each change of course: a new scenario, a restart, a reset, a pause, a play, the end ' +
          '(the same revision: the scenario has only moved on as it plays)',
      }),
    /** The topics it publishes (initial states included), in the device's namespace, sorted. */
    topics: z
      .array(z.string())
      .meta({ description: 'the topics it publishes, initial states included, in the device namespace, sorted' }),
  })
  .meta({ id: 'ScenarioStatus' });

/** A device's scenario as it plays now. */
export type ScenarioStatus = z.output<typeof ScenarioStatusSchema>;
