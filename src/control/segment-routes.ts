/**
 * The report's segments as the control API takes them: a reset ends one (`POST /_emu/reset`,
 * which names the next with `segment`), and `PUT /_emu/segment` names the one running now,
 * for a test that resets after itself instead of before (docs/grading.md#segments).
 */
import { z } from 'zod';
import { MAX_SEGMENT_NAME, segmentNameProblem } from '../base/segment-name';
import { ControlError } from './control-error';
import { defineRoute } from './route';
import { SegmentInfoSchema } from './segment-info';

/** What a segment name may be. */
const NAME_RULE = `1-${MAX_SEGMENT_NAME} characters, no control characters or line breaks`;

/** A segment name (checked as the grader checks it). */
const SegmentNameSchema = z.string().check((ctx) => {
  const problem = segmentNameProblem(ctx.value);
  if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});

/** An example name: a pytest node id. */
const example = 'tests/test_reconnect.py::test_back_after_reboot';

/** `?segment=` or `{ "segment": ... }` of a reset: the name of the segment the reset begins. */
export const ResetSegmentSchema = z.strictObject({
  segment: SegmentNameSchema.optional().meta({
    description: `names the segment the reset begins, with the next test's name: ${NAME_RULE}`,
    example,
  }),
});

/** The segment name of a reset, given in the query or the body (the same name in both is fine). */
export function resetSegment(
  query: z.output<typeof ResetSegmentSchema>,
  body: z.output<typeof ResetSegmentSchema> | undefined,
): string | undefined {
  const inQuery = query.segment;
  const inBody = body?.segment;
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody)
    throw new ControlError('BAD_REQUEST', 'segment: give the name once, in the query or in the body, not two names');
  return inQuery ?? inBody;
}

/** The routes of this file. */
export const SEGMENT_ROUTES = [
  defineRoute({
    method: 'put',
    path: '/segment',
    summary: "Names the report's segment running now (every device)",
    description:
      'The report keeps the findings of every segment of the run; a reset ends one. A test that resets after ' +
      'itself names its own segment here when it starts (a reset before each test names it with `segment`).',
    perDevice: false,
    body: z.strictObject({ name: SegmentNameSchema.meta({ description: `the test's name: ${NAME_RULE}`, example }) }),
    response: SegmentInfoSchema,
    handler: ({ emulator, body }) => emulator.nameSegment(body.name),
  }),
];
