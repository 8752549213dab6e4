/**
 * The shape of an answer override (../device/answer-overrides), declared once: the device's
 * table, the control API, the handle and a scenario's `override:` step all take it.
 */
import { z } from 'zod';

/** The longest delay an override may ask for: a day, as the fault switches. */
const MAX_DELAY_MS = 86_400_000;

/** What the device answers instead of (or, for a delay, before) the real answer. */
export const OverrideAnswerSchema = z.union(
  [
    z
      .object({
        error: z.object({ code: z.number().int(), message: z.string() }).strict(),
      })
      .strict()
      .meta({ description: 'a JSON-RPC error, answered HTTP 200 as real devices do (JSON-RPC CGIs only)' }),
    z
      .object({
        status: z.number().int().min(100).max(599),
        body: z.string().optional().meta({ description: 'the text body (default: the status line)' }),
      })
      .strict()
      .meta({ description: 'an HTTP status with a text body' }),
    z
      .object({ body: z.record(z.string(), z.unknown()) })
      .strict()
      .meta({ description: 'a JSON body, answered HTTP 200' }),
    z
      .object({ delayMs: z.number().int().min(0).max(MAX_DELAY_MS) })
      .strict()
      .meta({ description: 'the real answer, after this many ms' }),
  ],
  { error: 'answer is one of { error: { code, message } }, { status, body? }, { body: { ... } }, { delayMs }' },
);

/** An override as a test asks for it. */
export const OverrideSpecSchema = z
  .object({
    cgi: z.string().min(1).meta({ description: 'the CGI file, e.g. `featureflag.cgi`' }),
    method: z.string().min(1).optional().meta({ description: 'only requests naming this JSON-RPC method' }),
    match: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'only requests whose body (a GET: its query) contains this text' }),
    answer: OverrideAnswerSchema,
    times: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .meta({ description: 'answer this many requests, then go (default: until cleared)' }),
  })
  .strict()
  .meta({ id: 'OverrideSpec' });

/** An override in force: its spec, its id and how many requests it has answered. */
export const ActiveOverrideSchema = OverrideSpecSchema.extend({
  id: z.string(),
  answered: z.number().int().min(0).meta({ description: 'requests answered so far' }),
}).meta({ id: 'ActiveOverride' });

/** An override as a test asks for it. */
export type OverrideSpec = z.infer<typeof OverrideSpecSchema>;
/** What an override answers. */
export type OverrideAnswer = z.infer<typeof OverrideAnswerSchema>;
/** An override in force. */
export type ActiveOverride = z.infer<typeof ActiveOverrideSchema>;
