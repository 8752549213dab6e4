/** The scenario routes: where it is, replace the device's scenario (YAML, validated first), pause, play, restart. */
import { z } from 'zod';
import { loadScenario } from '../scenario/load';
import { refusalDocs } from './control-codes';
import { ControlError } from './control-error';
import { scenarioAnswer } from './feed-snapshots';
import { defineRoute } from './route';
import { ScenarioStatusSchema } from './scenario-status';

/** The media types a scenario may be sent as, as YAML text. */
export const YAML_TYPES = ['text/yaml', 'application/yaml', 'text/plain'] as const;

const ScenarioBodySchema = z.strictObject({
  yaml: z.string().meta({ description: 'the scenario, as a scenario file holds it' }),
  name: z.string().min(1).optional().meta({ description: 'a file name for the error messages' }),
});

/** The name scenario errors are reported under when the request gives none. */
const DEFAULT_NAME = 'scenario.yaml';

/** The routes of this file. */
export const SCENARIO_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/scenario',
    summary: "Where the device's scenario is: its name, state, position, speed and topics",
    response: ScenarioStatusSchema,
    handler: ({ emulator, device }) => scenarioAnswer(emulator, device),
  }),
  defineRoute({
    method: 'put',
    path: '/scenario',
    summary: "Replace the device's scenario and play it from the start",
    description:
      `Send the YAML as ${YAML_TYPES.join(', ')}, or JSON { yaml, name? }. A scenario with errors changes ` +
      'nothing: the 400 lists every error with its line and column.',
    body: ScenarioBodySchema,
    textBody: { types: YAML_TYPES, field: 'yaml' },
    response: z.object({ name: z.string().meta({ description: "the scenario's name, or the name it was sent as" }) }),
    refusals: refusalDocs('BAD_SCENARIO'),
    handler: ({ emulator, device, body }) => {
      const fileName = body.name ?? DEFAULT_NAME;
      const loaded = loadScenario(body.yaml, fileName);
      if (!loaded.ok) {
        const errors = loaded.error.errors.map(({ line, col, message, text }) => ({ line, col, message, text }));
        throw new ControlError('BAD_SCENARIO', loaded.error.message, { errors });
      }
      emulator.setScenario(loaded.value, { device });
      return { name: loaded.value.name ?? fileName };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/scenario/pause',
    summary: 'Pause the scenario: nothing more is published until play; sessions stay',
    handler: ({ emulator, device }) => emulator.pauseScenario({ device }),
  }),
  defineRoute({
    method: 'post',
    path: '/scenario/play',
    summary: 'Resume a paused scenario where it stopped',
    handler: ({ emulator, device }) => emulator.playScenario({ device }),
  }),
  defineRoute({
    method: 'post',
    path: '/scenario/restart',
    summary: 'Play the scenario again from zero',
    handler: ({ emulator, device }) => emulator.restartScenario({ device }),
  }),
];
