/** The zod schemas of `GET /_emu/journal`: its query, and the entries it answers (as in ../base/journal). */
import { z } from 'zod';
import { CLIENT_VIAS } from '../base/client-tag';
import { JOURNAL_KINDS } from '../base/journal';

const base = { seq: z.number().int(), time: z.string(), device: z.string() };
/** Fields of the entries a client causes (see `ClientEntry` in ../base/journal). */
const client = {
  ...base,
  via: z.enum(CLIENT_VIAS).optional().meta({
    description: "set on the entries of the emulator's own dashboard and of the test's own calls, which are not graded",
  }),
};
const filter = z.object({ topicFilter: z.string().optional(), contentFilter: z.string().optional() });
const rpcError = z.object({ code: z.number().int(), message: z.string() });
const excerpt = z.object({
  bytes: z.number().int().meta({ description: 'the whole size in bytes' }),
  text: z.string().meta({
    description: 'the start as UTF-8 text (at most 512 characters, `…` marks a cut), secret-looking values redacted',
  }),
});

/** One journal entry, by its kind (test/unit/control checks that every `JournalEntry` fits). */
/** A session token's number on its device (never the token itself). */
function tokenNumber(what: string) {
  return z
    .number()
    .int()
    .optional()
    .meta({ description: `the number of the session token ${what} (issue order on the device, from 1)` });
}

export const JournalEntrySchema = z
  .discriminatedUnion('kind', [
    z.object({
      ...client,
      kind: z.literal('http'),
      method: z.string(),
      path: z.string(),
      status: z.number().int().optional(),
      auth: z.enum(['digest', 'basic', 'token', 'none']).optional(),
      user: z.string().optional(),
      ms: z.number(),
      remote: z.string().optional(),
      error: rpcError.optional().meta({ description: 'the JSON-RPC error the CGI answered with' }),
      call: z.string().optional().meta({ description: 'the JSON-RPC `method` the body named' }),
      body: excerpt.optional().meta({
        description: 'what was sent, kept only for a request answered with an error (JSON-RPC, or 4xx but 401)',
      }),
      token: tokenNumber('this `wssession.cgi` request was answered with'),
    }),
    z.object({
      ...client,
      kind: z.literal('ws-open'),
      session: z.string(),
      user: z.string().optional(),
      remote: z.string().optional(),
      token: tokenNumber('that opened the session'),
    }),
    z.object({
      ...client,
      kind: z.literal('ws-close'),
      session: z.string(),
      code: z.number().int(),
      reason: z.string(),
      by: z.enum(['client', 'device']).meta({ description: 'who ended the session' }),
    }),
    z.object({
      ...client,
      kind: z.literal('ws-refused'),
      path: z.string(),
      status: z.number().int(),
      reason: z.string(),
      remote: z.string().optional(),
    }),
    z.object({
      ...client,
      kind: z.literal('configure'),
      session: z.string(),
      filters: z.array(filter).readonly(),
      error: rpcError.optional(),
    }),
    z.object({
      ...client,
      kind: z.literal('message-refused'),
      session: z.string(),
      code: z.number().int().meta({ description: 'the JSON-RPC error code answered, or the close code when `closed`' }),
      message: z.string(),
      closed: z.boolean().meta({ description: 'the device closed the session instead of answering' }),
      binary: z.boolean(),
      sent: excerpt.optional().meta({ description: 'what was sent; absent when the device read none of it' }),
    }),
    z.object({
      ...client,
      kind: z.literal('notification'),
      session: z.string(),
      topic: z.string(),
      event: z.number().int().meta({ description: "the device's number of the event; copies share it" }),
    }),
    z.object({
      ...client,
      kind: z.literal('auth-refused'),
      method: z.string(),
      path: z.string(),
      scheme: z.string().optional(),
      code: z.string().meta({ description: 'NO_CREDENTIALS, STALE_NONCE, WRONG_PASSWORD, TOKEN_EXPIRED, ...' }),
      reason: z.string(),
      stale: z.boolean(),
      user: z.string().optional(),
      remote: z.string().optional(),
      token: tokenNumber('refused, when the device still knows it (expired, reused)'),
    }),
    z.object({
      ...base,
      kind: z.literal('fault'),
      name: z.string(),
      state: z.enum(['on', 'off', 'start', 'end']),
      params: z.record(z.string(), z.unknown()),
    }),
    z.object({
      ...base,
      kind: z.literal('expect'),
      name: z.string(),
      that: z.enum(['connected', 'configured']),
      withinMs: z.number(),
      topic: z.string().optional(),
    }),
  ])
  .meta({ id: 'JournalEntry' });

/**
 * A journal seq as a query parameter or a header gives it (`since`, `Last-Event-ID`): decimal
 * digits only, so that `since=`, ` 1`, `0x10`, `1e3` or `-1` are refused rather than read as
 * some other number. One rule for every place a seq comes in.
 */
export const SeqSchema = z
  .string()
  // At most 15 digits: every such number is exact in a double.
  .regex(/^\d{1,15}$/, { error: 'expected the seq of a journal entry: 1 to 15 decimal digits' })
  .transform(Number);

/** `?since=&kind=&session=&topic=&via=`; `kind` may repeat or list kinds separated by commas. */
export const JournalQuerySchema = z.strictObject({
  since: SeqSchema.optional().meta({ description: 'only entries after this seq' }),
  kind: z
    .preprocess((value) => [value].flat().flatMap((item) => String(item).split(',')), z.array(z.enum(JOURNAL_KINDS)))
    .optional()
    .meta({ description: 'only entries of these kinds (repeat the parameter, or separate by commas)' }),
  session: z.string().optional().meta({ description: 'only entries of this event stream session' }),
  topic: z.string().optional().meta({ description: 'only notifications of this topic' }),
  via: z
    .enum(['client', ...CLIENT_VIAS])
    .optional()
    .meta({
      description:
        "only the entries of the emulator's own dashboard (`dashboard`), or all but those " +
        '(`client`: the entries the report grades, with the faults and expectations)',
    }),
});

/** The answer of `GET /_emu/journal`. */
export const JournalAnswerSchema = z.object({
  entries: z.array(JournalEntrySchema),
  dropped: z.number().int().meta({ description: 'entries the bounded journal pushed out since the last clear' }),
});
