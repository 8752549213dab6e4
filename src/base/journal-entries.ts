/**
 * The journal's entries, declared once: each kind a zod schema (what `GET /_emu/journal`
 * answers, its OpenAPI schema, the dashboard's generated types) with its TypeScript type
 * inferred from it. In memory an entry is read-only, and the keys a writer must state even when
 * undefined are {@link Stated} (JSON leaves them out, so the schema has them optional).
 */
import { z } from 'zod';
import { BodyExcerptSchema } from './body-excerpt';
import { CLIENT_VIAS } from './client-tag';
import { FAULT_NAMES } from './fault-names';
import { REFUSAL_CODES } from './refusal-codes';
import { SentFilterSchema } from './sent-filter';
import type { Stated } from './stated-keys';

/** How a request authenticated: digest, Basic, a session token, or no credentials needed. */
export const JOURNAL_AUTHS = ['digest', 'basic', 'token', 'none'] as const;

/** One of {@link JOURNAL_AUTHS}. */
export type JournalAuth = (typeof JOURNAL_AUTHS)[number];

/** Fields every entry has. */
const entryFields = {
  /** Increases by one per entry, from 1: `since` takes it. */
  seq: z.number().int(),
  /** ISO 8601 time of the entry. */
  time: z.string(),
  /** Serial of the device it happened on. */
  device: z.string(),
};

/**
 * Fields of the entries a client causes: `via` is set (only) on those of the emulator's own
 * clients, as the dashboard, which the grader leaves out (see ./client-tag).
 */
const clientFields = {
  ...entryFields,
  /** The emulator's own client that caused the entry; absent for the client under test. */
  via: z.enum(CLIENT_VIAS).optional().meta({
    description: "set on the entries of the emulator's own dashboard and of the test's own calls, which are not graded",
  }),
};

/** A JSON-RPC error as a device answered it. */
const rpcError = z.object({ code: z.number().int(), message: z.string() });

/** A session token's number on its device (never the token itself). */
function tokenNumber(what: string) {
  return z
    .number()
    .int()
    .optional()
    .meta({ description: `the number of the session token ${what} (issue order on the device, from 1)` });
}

/** One HTTP request and its answer. */
export const HttpEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('http'),
  method: z.string(),
  /** Path and query, with any session token redacted. */
  path: z.string(),
  /** Undefined when the client went away before the answer. */
  status: z.number().int().optional(),
  auth: z.enum(JOURNAL_AUTHS).optional(),
  user: z.string().optional(),
  ms: z.number(),
  remote: z.string().optional(),
  /** The JSON-RPC error a CGI answered with (HTTP 200 with an `error` body), if any. */
  error: rpcError.optional().meta({ description: 'the JSON-RPC error the CGI answered with' }),
  /** The JSON-RPC `method` the body named (a CGI of several methods), absent for other requests. */
  call: z.string().optional().meta({ description: 'the JSON-RPC `method` the body named' }),
  /**
   * What the request sent (its start, secrets redacted), kept only for a request answered with
   * an error (a JSON-RPC error, or 4xx but 401) whose body the device read; absent otherwise.
   */
  body: BodyExcerptSchema.optional().meta({
    description: 'what was sent, kept only for a request answered with an error (JSON-RPC, or 4xx but 401)',
  }),
  /** The number of the session token this `wssession.cgi` request was answered with (issue order on its device, from 1): never the token. */
  token: tokenNumber('this `wssession.cgi` request was answered with'),
  /** The id of the answer override that answered (or delayed) the request, if one did. */
  override: z.string().optional().meta({ description: 'the id of the answer override that answered the request' }),
});

/** A WebSocket event stream session opened. */
export const WsOpenEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('ws-open'),
  session: z.string(),
  user: z.string().optional(),
  remote: z.string().optional(),
  /** The number of the session token that opened the session, if one did (issue order on its device, from 1): never the token. */
  token: tokenNumber('that opened the session'),
});

/** A WebSocket event stream session closed, by either side. */
export const WsCloseEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('ws-close'),
  session: z.string(),
  code: z.number().int(),
  reason: z.string(),
  /** Who ended it: the device (a fault, a reset, a slow client, eviction) or the client. */
  by: z.enum(['client', 'device']).meta({ description: 'who ended the session' }),
});

/** An event stream handshake refused for something other than credentials (no slot, wrong path, bad request). */
export const WsRefusedEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('ws-refused'),
  path: z.string(),
  status: z.number().int(),
  reason: z.string(),
  remote: z.string().optional(),
});

/** An `events:configure` request and its answer (`error` set when refused). */
export const ConfigureEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('configure'),
  session: z.string(),
  /** The filters as the client sent them (only string filters are kept). */
  filters: z.array(SentFilterSchema).readonly(),
  error: rpcError.optional(),
});

/**
 * An event stream message the device refused before it was an `events:configure` request (a
 * binary frame, too large, not JSON, not a request, an unknown method), answered with a
 * JSON-RPC error, or one ws could not read at all, answered by closing the session.
 */
export const MessageRefusedEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('message-refused'),
  session: z.string(),
  /** The JSON-RPC error code answered (2101, 2102, 2107, ...), or the close code when `closed`. */
  code: z.number().int().meta({ description: 'the JSON-RPC error code answered, or the close code when `closed`' }),
  /** The error's message (or why ws closed the session). */
  message: z.string(),
  /** True when the device closed the session instead of answering (1007 invalid UTF-8, 1009 too big). */
  closed: z.boolean().meta({ description: 'the device closed the session instead of answering' }),
  binary: z.boolean(),
  /** What was sent, secrets redacted; undefined when the device read none of it (a close). */
  sent: BodyExcerptSchema.optional().meta({ description: 'what was sent; absent when the device read none of it' }),
});

/** One notification sent to a session. */
export const NotificationEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('notification'),
  session: z.string(),
  topic: z.string(),
  /** The device's number of the event: the same for every copy of one event (duplicates share it). */
  event: z.number().int().meta({ description: "the device's number of the event; copies share it" }),
});

/** A request or handshake refused for its credentials, and why. */
export const AuthRefusedEntrySchema = z.object({
  ...clientFields,
  kind: z.literal('auth-refused'),
  method: z.string(),
  path: z.string(),
  /** The scheme the client tried (`digest`, `basic`, `token`), undefined without credentials. */
  scheme: z.string().optional(),
  /**
   * Why, as a code: NO_CREDENTIALS (the normal first leg of digest), STALE_NONCE, REJECTING
   * (a reboot), WRONG_PASSWORD, UNKNOWN_USER, TOKEN_EXPIRED, TOKEN_REUSED, TOKEN_UNKNOWN, ...
   * (every code and its meaning: ./refusal-codes).
   */
  code: z.enum(REFUSAL_CODES).meta({ description: 'NO_CREDENTIALS, STALE_NONCE, WRONG_PASSWORD, TOKEN_EXPIRED, ...' }),
  reason: z.string(),
  /** Whether the 401 said `stale=true`. */
  stale: z.boolean(),
  /** The user the credentials named (never the password), undefined without one. */
  user: z.string().optional(),
  remote: z.string().optional(),
  /**
   * The number of the session token refused, if the device still knows it (expired, reused; for an
   * unknown one, the issued token it is sent back altered from; issue order from 1): never the token.
   */
  token: tokenNumber(
    'refused, when the device still knows it (expired, reused; an unknown one: the issued token it alters)',
  ),
});

/** A fault switch turned on or off, or a fault action (a reboot, a drop) begun or over. */
export const FaultChangeEntrySchema = z.object({
  ...entryFields,
  kind: z.literal('fault'),
  name: z.enum(FAULT_NAMES),
  state: z.enum(['on', 'off', 'start', 'end']),
  /** The switch's parameters (defaults filled in); empty for `off` and `end`. */
  params: z.record(z.string(), z.unknown()),
});

/** A scenario's `expect:` step began: from now, the client has `withinMs` to do `that`. */
export const ExpectEntrySchema = z.object({
  ...entryFields,
  kind: z.literal('expect'),
  name: z.string(),
  that: z.enum(['connected', 'configured']),
  withinMs: z.number(),
  /** For `configured`: a topic the new configure must subscribe to. */
  topic: z.string().optional(),
});

/** One journal entry, by its kind (test/unit/control checks that every `JournalEntry` fits). */
export const JournalEntrySchema = z
  .discriminatedUnion('kind', [
    HttpEntrySchema,
    WsOpenEntrySchema,
    WsCloseEntrySchema,
    WsRefusedEntrySchema,
    ConfigureEntrySchema,
    MessageRefusedEntrySchema,
    NotificationEntrySchema,
    AuthRefusedEntrySchema,
    FaultChangeEntrySchema,
    ExpectEntrySchema,
  ])
  .meta({ id: 'JournalEntry' });

/** An entry as the journal holds it: its schema's type, read-only, with the keys `Given` {@link Stated}. */
type EntryOf<S extends z.ZodType, Given extends keyof z.output<S> = never> = Readonly<Stated<z.output<S>, Given>>;

/** One HTTP request and its answer. */
export type HttpEntry = EntryOf<typeof HttpEntrySchema, 'status' | 'auth' | 'user' | 'remote' | 'error'>;
/** A WebSocket event stream session opened. */
export type WsOpenEntry = EntryOf<typeof WsOpenEntrySchema, 'user' | 'remote'>;
/** A WebSocket event stream session closed, by either side. */
export type WsCloseEntry = EntryOf<typeof WsCloseEntrySchema>;
/** An event stream handshake refused for something other than credentials. */
export type WsRefusedEntry = EntryOf<typeof WsRefusedEntrySchema, 'remote'>;
/** An `events:configure` request and its answer. */
export type ConfigureEntry = EntryOf<typeof ConfigureEntrySchema, 'error'>;
/** An event stream message the device refused before it was an `events:configure` request. */
export type MessageRefusedEntry = EntryOf<typeof MessageRefusedEntrySchema, 'sent'>;
/** One notification sent to a session. */
export type NotificationEntry = EntryOf<typeof NotificationEntrySchema>;
/** A request or handshake refused for its credentials, and why. */
export type AuthRefusedEntry = EntryOf<typeof AuthRefusedEntrySchema, 'scheme' | 'user' | 'remote'>;
/** A fault switch turned on or off, or a fault action begun or over (its `params` read-only too). */
export type FaultChangeEntry = Readonly<
  Omit<z.output<typeof FaultChangeEntrySchema>, 'params'> & { params: Readonly<Record<string, unknown>> }
>;
/** A scenario's `expect:` step began. */
export type ExpectEntry = EntryOf<typeof ExpectEntrySchema, 'topic'>;

/** Everything the journal records. */
export type JournalEntry =
  | HttpEntry
  | WsOpenEntry
  | WsCloseEntry
  | WsRefusedEntry
  | ConfigureEntry
  | MessageRefusedEntry
  | NotificationEntry
  | AuthRefusedEntry
  | FaultChangeEntry
  | ExpectEntry;

/** The kinds of {@link JournalEntry} (`satisfies`: no kind that is not one). */
export const JOURNAL_KINDS = [
  'http',
  'ws-open',
  'ws-close',
  'ws-refused',
  'configure',
  'message-refused',
  'notification',
  'auth-refused',
  'fault',
  'expect',
] as const satisfies readonly JournalEntry['kind'][];

/**
 * One of {@link JOURNAL_KINDS}: `never` (and so a compile error wherever a kind is used) when
 * the list misses a kind of {@link JournalEntry}.
 */
export type JournalKind = JournalEntry['kind'] extends (typeof JOURNAL_KINDS)[number] ? JournalEntry['kind'] : never;

/** What an `expect:` step asks of the client (an {@link ExpectEntry} without its stamps). */
export type Expectation = Pick<ExpectEntry, 'name' | 'that' | 'topic' | 'withinMs'>;
