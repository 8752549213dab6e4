/** The report route: what the client under test did wrong (schema in ./report-schemas). */
import { z } from 'zod';
import { ReportSchema } from './report-schemas';
import { defineRoute } from './route';

/** `?all=true`: grade every device of the fleet, not only this one. */
const ReportQuerySchema = z.strictObject({
  all: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: the findings of every device of the fleet, not only this one' }),
});

/** The routes of this file. */
export const REPORT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/report',
    summary: 'What the client under test did wrong: findings with evidence, and the scenario expectations',
    description:
      'Grades the journal (every rule of docs/grading.md) for this device, or with `all=true` for every device. ' +
      'Windows that are not over yet are not judged; read it after the client has had its time.',
    query: ReportQuerySchema,
    response: ReportSchema,
    handler: ({ emulator, device, query }) => emulator.report(query.all === 'true' ? {} : { device }),
  }),
];
