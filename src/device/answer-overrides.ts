/**
 * Answer overrides: a test makes a device answer one of its CGIs (by JSON-RPC method, and by
 * a substring of the request) with a given JSON-RPC error, HTTP status, JSON body or delay,
 * for the next request, N times or until cleared. The table here is pure: matching and
 * counting; the CGI dispatch applies what it returns, after authentication.
 */
import { z } from 'zod';

/** The longest delay an override may ask for: a day, as the fault switches. */
const MAX_DELAY_MS = 86_400_000;

/** What the device answers instead of (or, for a delay, before) the real answer. */
export const OverrideAnswerSchema = z.union([
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
]);

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

/** What a request offers to match against. */
export interface OverrideRequest {
  /** The CGI's file name. */
  cgi: string;
  /** The JSON-RPC method the body named, if any. */
  method: string | undefined;
  /** The body (a GET: its query string). */
  text: string;
}

/** One device's overrides, in the order they were added: the first that matches answers. */
export class AnswerOverrides {
  private readonly active: ActiveOverride[] = [];
  private next = 1;

  /** How many are in force (the token fast path steps aside while any is). */
  get size(): number {
    return this.active.length;
  }

  /** Adds an override (already validated); returns it, with its id. */
  add(spec: OverrideSpec): ActiveOverride {
    const override: ActiveOverride = { ...spec, id: `o${this.next++}`, answered: 0 };
    this.active.push(override);
    return { ...override };
  }

  /** Removes override `id` (every one when undefined); returns the ids removed. */
  clear(id?: string): string[] {
    const gone = this.active.filter((o) => id === undefined || o.id === id);
    for (const o of gone) this.active.splice(this.active.indexOf(o), 1);
    return gone.map((o) => o.id);
  }

  /** Copies of the overrides in force. */
  list(): ActiveOverride[] {
    return this.active.map((o) => ({ ...o }));
  }

  /**
   * The override that answers `request`, counted as used (and gone once it has answered its
   * `times`); undefined when none matches.
   */
  take(request: OverrideRequest): ActiveOverride | undefined {
    const found = this.active.find((o) => matches(o, request));
    if (!found) return undefined;
    found.answered++;
    if (found.times !== undefined && found.answered >= found.times) this.active.splice(this.active.indexOf(found), 1);
    return { ...found };
  }
}

/** Whether `override` is for `request`: same CGI (case-insensitive, as paths), method and text. */
function matches(override: OverrideSpec, request: OverrideRequest): boolean {
  if (override.cgi.toLowerCase() !== request.cgi.toLowerCase()) return false;
  if (override.method !== undefined && override.method !== request.method) return false;
  return override.match === undefined || request.text.includes(override.match);
}
