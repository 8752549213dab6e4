/**
 * The wait routes: long polls that answer once what a test waits for has happened (a session
 * opened or configured for a topic, a notification sent, a journal entry of a kind written), or
 * 408 `TIMEOUT` saying what was seen instead. They are `waitForSession`, `waitForNotification`
 * and `waitForEntry` of the in-process handle, for a test in any language; a client that goes
 * away ends its wait.
 */
import { z } from 'zod';
import { JOURNAL_KINDS, NotificationEntrySchema } from '../base/journal';
import { refusalDocs } from './control-codes';
import { JournalEntrySchema, SeqSchema } from './journal-schemas';
import { defineRoute } from './route';
import { EmulatorSessionSchema } from './schemas';

/** How long a wait lasts unless told otherwise, in ms (as the in-process waits). */
const DEFAULT_WAIT_MS = 5000;

/** The longest wait a request may ask for: a test that waits longer is better told so and waits again. */
export const MAX_WAIT_MS = 300_000;

/** `timeout`: milliseconds as decimal digits, 0 to {@link MAX_WAIT_MS}. */
const TimeoutSchema = z
  .string()
  .regex(/^\d{1,6}$/, { error: 'expected milliseconds: 1 to 6 decimal digits' })
  .transform(Number)
  .refine((ms) => ms <= MAX_WAIT_MS, { error: `at most ${MAX_WAIT_MS} ms; wait again for longer` })
  .optional()
  .meta({
    description: `milliseconds before the wait answers 408 TIMEOUT (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS})`,
  });

/** `since`: what is already in the journal after this seq counts too. */
const SinceSchema = SeqSchema.optional().meta({
  description:
    'also take what the journal already holds after this seq (read `GET /_emu/journal` or the last entry ' +
    'before acting), so that act-then-wait cannot miss it; without it, only what comes after the request counts',
});

/** `GET /wait/session?topic=&timeout=`. */
const SessionWaitQuerySchema = z.strictObject({
  topic: z.string().min(1).optional().meta({
    description: 'only a session configured with a filter that selects this topic',
    example: 'tns1:Device/Trigger/Relay',
  }),
  timeout: TimeoutSchema,
});

/** `GET /wait/notification?topic=&since=&timeout=`. */
const NotificationWaitQuerySchema = z.strictObject({
  topic: z.string().min(1).optional().meta({ description: 'only a notification of this topic' }),
  since: SinceSchema,
  timeout: TimeoutSchema,
});

/** `GET /wait/entry?kind=&since=&timeout=`. */
const EntryWaitQuerySchema = z.strictObject({
  kind: z.enum(JOURNAL_KINDS).meta({ description: 'the kind of journal entry to wait for' }),
  since: SinceSchema,
  timeout: TimeoutSchema,
});

/** What every wait route answers besides its entry: 408 when nothing came in time. */
const WAIT_REFUSALS = refusalDocs(['TIMEOUT', 'nothing came in time; the message says what was seen instead']);

/** The routes of this file. */
export const WAIT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/wait/session',
    summary: 'Wait for an event stream session of the client (configured for a topic)',
    description:
      'Answers with the first session of the client under test already open (with `topic`: configured with a ' +
      "filter that selects it), else with the next one, or 408 TIMEOUT. The dashboard's own sessions are not waited for.",
    query: SessionWaitQuerySchema,
    response: z.object({ session: EmulatorSessionSchema }),
    refusals: WAIT_REFUSALS,
    handler: async ({ emulator, device, query, signal }) => ({
      session: await emulator.waitForSession({ device, topic: query.topic, timeout: query.timeout, signal }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/wait/notification',
    summary: 'Wait for a notification sent to the client',
    description:
      'Answers with the next notification sent to the client under test (of `topic`), after `since` when given, ' +
      'else after the request, or 408 TIMEOUT saying which notifications were sent instead.',
    query: NotificationWaitQuerySchema,
    response: z.object({ entry: NotificationEntrySchema }),
    refusals: WAIT_REFUSALS,
    handler: async ({ emulator, device, query, signal }) => ({
      entry: await emulator.waitForNotification({ device, ...query, signal }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/wait/entry',
    summary: 'Wait for a journal entry of a kind',
    description:
      'Answers with the next journal entry of `kind` (a refused login, a closed session, a fault, ...) the client ' +
      'under test caused or the device wrote, after `since` when given, else after the request, or 408 TIMEOUT ' +
      'counting the entries of other kinds written meanwhile.',
    query: EntryWaitQuerySchema,
    response: z.object({ entry: JournalEntrySchema }),
    refusals: WAIT_REFUSALS,
    handler: async ({ emulator, device, query, signal }) => ({
      entry: await emulator.waitForEntry(query.kind, { device, since: query.since, timeout: query.timeout, signal }),
    }),
  }),
];
