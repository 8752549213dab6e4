/** The report route: what the client under test did wrong (schema in ./report-schemas). */
import { z } from 'zod';
import type { ReportRequest } from './controlled-emulator';
import { ReportSchema, ThresholdsSchema } from './report-schemas';
import { defineRoute } from './route';

/** A comma-separated list of rule ids. */
const ruleList = (description: string) =>
  z
    .string()
    .optional()
    .meta({ description: `${description}: rule ids, comma-separated (docs/grading.md)` });

/** The query's own parameters; any other is a threshold by name. */
const OWN = {
  all: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: the findings of every device of the fleet, not only this one' }),
  segments: z
    .enum(['all', 'current'])
    .optional()
    .meta({ description: 'all (default): every segment of the run (a reset ends one); current: the one running now' }),
  rules: ruleList('only these rules'),
  skipRules: ruleList('every rule but these'),
};

/**
 * `?all=true`, the segments, the rules, and thresholds by name over the emulator's own. The
 * thresholds the report schema names are documented; any other name is passed on too, for the
 * grader to refuse (or take: a threshold it knows), so its error names the known ones.
 */
const ReportQuerySchema = z
  .object({
    ...OWN,
    ...Object.fromEntries(
      Object.keys(ThresholdsSchema.shape).map((name) => [
        name,
        z
          .string()
          .optional()
          .meta({ description: `grading threshold ${name} (docs/grading.md#thresholds)` }),
      ]),
    ),
  })
  .catchall(z.string());

/** What the query asks the grader for. */
function reportRequest(query: Record<string, string | undefined>): ReportRequest {
  const thresholds = Object.fromEntries(
    Object.entries(query).filter(
      (pair): pair is [string, string] => !Object.hasOwn(OWN, pair[0]) && pair[1] !== undefined,
    ),
  );
  return {
    thresholds,
    ...(query.rules === undefined ? {} : { rules: [query.rules] }),
    ...(query.skipRules === undefined ? {} : { skipRules: [query.skipRules] }),
    ...(query.segments === undefined ? {} : { segments: query.segments as 'all' | 'current' }),
  };
}

/** The routes of this file. */
export const REPORT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/report',
    summary: 'What the client under test did wrong: findings with evidence, and the scenario expectations',
    description:
      'Grades the journal (every rule of docs/grading.md) for this device, or with `all=true` for every device, ' +
      'in every segment of the run (a reset ends one and keeps its findings), or with `segments=current` the ' +
      'one running now. Thresholds by name (`minRetryIntervalMs=500`) and `rules` / `skipRules` change what ' +
      "is applied over the emulator's own; an unknown name or a bad value is a 400 `BAD_OPTION` naming the " +
      'known ones. Windows that are not over yet are not judged; read it after the client has had its time.',
    query: ReportQuerySchema,
    response: ReportSchema,
    handler: ({ emulator, device, query }) =>
      emulator.report({ ...(query.all === 'true' ? {} : { device }), ...reportRequest(query) }),
  }),
];
