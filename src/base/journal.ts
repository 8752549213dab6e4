/**
 * The journal: what crossed a device's sockets, for tests and the control API to read
 * (`journal()`, `GET /_emu/journal`) and for the grader. A bounded ring: when full, the
 * oldest entry goes and is counted in `dropped`. Writers give plain data; secrets
 * (Authorization headers, session tokens, passwords) never enter it.
 */
import type { BodyExcerpt } from './body-excerpt';
import { type ClientVia, isEmulatorClientEntry } from './client-tag';
import type { Clock } from './clock';
import { EmulatorError } from './errors';
import type { RefusalCode } from './refusal-codes';

/** How a request authenticated: digest, Basic, a session token, or no credentials needed. */
export type JournalAuth = 'digest' | 'basic' | 'token' | 'none';

/** Fields every entry has. */
interface EntryBase {
  /** Increases by one per entry, from 1: `since` takes it. */
  readonly seq: number;
  /** ISO 8601 time of the entry. */
  readonly time: string;
  /** Serial of the device it happened on. */
  readonly device: string;
}

/**
 * Fields of the entries a client causes: `via` is set (only) on those of the emulator's own
 * clients, as the dashboard, which the grader leaves out (see ./client-tag).
 */
interface ClientEntry extends EntryBase {
  /** The emulator's own client that caused the entry; absent for the client under test. */
  readonly via?: ClientVia;
}

/** One HTTP request and its answer. */
export interface HttpEntry extends ClientEntry {
  readonly kind: 'http';
  readonly method: string;
  /** Path and query, with any session token redacted. */
  readonly path: string;
  /** Undefined when the client went away before the answer. */
  readonly status: number | undefined;
  readonly auth: JournalAuth | undefined;
  readonly user: string | undefined;
  readonly ms: number;
  readonly remote: string | undefined;
  /** The JSON-RPC error a CGI answered with (HTTP 200 with an `error` body), if any. */
  readonly error: { code: number; message: string } | undefined;
  /** The JSON-RPC `method` the body named (a CGI of several methods), absent for other requests. */
  readonly call?: string;
  /**
   * What the request sent (its start, secrets redacted), kept only for a request answered with
   * an error (a JSON-RPC error, or 4xx but 401) whose body the device read; absent otherwise.
   */
  readonly body?: BodyExcerpt;
  /** The number of the session token this `wssession.cgi` request was answered with (issue order on its device, from 1): never the token. */
  readonly token?: number;
}

/** A WebSocket event stream session opened. */
export interface WsOpenEntry extends ClientEntry {
  readonly kind: 'ws-open';
  readonly session: string;
  readonly user: string | undefined;
  readonly remote: string | undefined;
  /** The number of the session token that opened the session, if one did (issue order on its device, from 1): never the token. */
  readonly token?: number;
}

/** A WebSocket event stream session closed, by either side. */
export interface WsCloseEntry extends ClientEntry {
  readonly kind: 'ws-close';
  readonly session: string;
  readonly code: number;
  readonly reason: string;
  /** Who ended it: the device (a fault, a reset, a slow client, eviction) or the client. */
  readonly by: 'client' | 'device';
}

/** An event stream handshake refused for something other than credentials (no slot, wrong path, bad request). */
export interface WsRefusedEntry extends ClientEntry {
  readonly kind: 'ws-refused';
  readonly path: string;
  readonly status: number;
  readonly reason: string;
  readonly remote: string | undefined;
}

/** An `events:configure` request and its answer (`error` set when refused). */
export interface ConfigureEntry extends ClientEntry {
  readonly kind: 'configure';
  readonly session: string;
  /** The filters as the client sent them (only string filters are kept). */
  readonly filters: readonly { topicFilter?: string; contentFilter?: string }[];
  readonly error: { code: number; message: string } | undefined;
}

/**
 * An event stream message the device refused before it was an `events:configure` request (a
 * binary frame, too large, not JSON, not a request, an unknown method), answered with a
 * JSON-RPC error, or one ws could not read at all, answered by closing the session.
 */
export interface MessageRefusedEntry extends ClientEntry {
  readonly kind: 'message-refused';
  readonly session: string;
  /** The JSON-RPC error code answered (2101, 2102, 2107, ...), or the close code when `closed`. */
  readonly code: number;
  /** The error's message (or why ws closed the session). */
  readonly message: string;
  /** True when the device closed the session instead of answering (1007 invalid UTF-8, 1009 too big). */
  readonly closed: boolean;
  readonly binary: boolean;
  /** What was sent, secrets redacted; undefined when the device read none of it (a close). */
  readonly sent: BodyExcerpt | undefined;
}

/** One notification sent to a session. */
export interface NotificationEntry extends ClientEntry {
  readonly kind: 'notification';
  readonly session: string;
  readonly topic: string;
  /** The device's number of the event: the same for every copy of one event (duplicates share it). */
  readonly event: number;
}

/** A request or handshake refused for its credentials, and why. */
export interface AuthRefusedEntry extends ClientEntry {
  readonly kind: 'auth-refused';
  readonly method: string;
  readonly path: string;
  /** The scheme the client tried (`digest`, `basic`, `token`), undefined without credentials. */
  readonly scheme: string | undefined;
  /**
   * Why, as a code: NO_CREDENTIALS (the normal first leg of digest), STALE_NONCE, REJECTING
   * (a reboot), WRONG_PASSWORD, UNKNOWN_USER, TOKEN_EXPIRED, TOKEN_REUSED, TOKEN_UNKNOWN, ...
   * (every code and its meaning: ./refusal-codes).
   */
  readonly code: RefusalCode;
  readonly reason: string;
  /** Whether the 401 said `stale=true`. */
  readonly stale: boolean;
  /** The user the credentials named (never the password), undefined without one. */
  readonly user: string | undefined;
  readonly remote: string | undefined;
  /** The number of the session token refused, if the device still knows it (expired, reused; issue order from 1): never the token. */
  readonly token?: number;
}

/** A fault switch turned on or off, or a fault action (a reboot, a drop) begun or over. */
export interface FaultChangeEntry extends EntryBase {
  readonly kind: 'fault';
  readonly name: string;
  readonly state: 'on' | 'off' | 'start' | 'end';
  /** The switch's parameters (defaults filled in); empty for `off` and `end`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** A scenario's `expect:` step began: from now, the client has `withinMs` to do `that`. */
export interface ExpectEntry extends EntryBase {
  readonly kind: 'expect';
  readonly name: string;
  readonly that: 'connected' | 'configured';
  readonly withinMs: number;
  /** For `configured`: a topic the new configure must subscribe to. */
  readonly topic: string | undefined;
}

/** What an `expect:` step asks of the client (an {@link ExpectEntry} without its stamps). */
export type Expectation = Pick<ExpectEntry, 'name' | 'that' | 'topic' | 'withinMs'>;

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

/** The kinds of {@link JournalEntry}. */
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
] as const;

/** One of {@link JOURNAL_KINDS}. */
export type JournalKind = JournalEntry['kind'];

/** What a writer gives: an entry without its sequence number and time. */
export type JournalRecord = JournalEntry extends infer E
  ? E extends JournalEntry
    ? Omit<E, 'seq' | 'time'>
    : never
  : never;

/** What a device's parts give: an entry without its device, time and sequence number. */
export type DeviceJournalRecord = JournalRecord extends infer R
  ? R extends JournalRecord
    ? Omit<R, 'device'>
    : never
  : never;

/** Where a device's parts write the journal (a no-op when no journal is kept). */
export type JournalWriter = (record: DeviceJournalRecord) => void;

/**
 * Writes `record` with its `via` set when one is given: the entries of the emulator's own
 * clients carry their marker, the others have no `via` field at all.
 */
export function writeVia(writer: JournalWriter, record: DeviceJournalRecord, via: ClientVia | undefined): void {
  if (via !== undefined) (record as { via?: ClientVia }).via = via;
  writer(record);
}

/** A writer that marks every record with `via` (the writer of an emulator client's session). */
export function viaWriter(writer: JournalWriter, via: ClientVia): JournalWriter {
  return (record) => writeVia(writer, record, via);
}

/** Which entries to read; every field narrows. */
export interface JournalFilter {
  /** Only entries after this sequence number. */
  since?: number;
  kind?: JournalKind | readonly JournalKind[];
  /** Only entries of this session (ws-open, ws-close, configure, message-refused, notification). */
  session?: string;
  /** Only notifications of this topic. */
  topic?: string;
  /** Only entries of this device (serial). */
  device?: string;
  /**
   * Only the entries of one of the emulator's own clients (`dashboard`), or only those of the
   * client under test and the emulator itself (`client`: every entry without a `via`).
   */
  via?: JournalVia;
}

/** What {@link JournalFilter.via} takes. */
export type JournalVia = ClientVia | 'client';

/** Default number of entries a journal keeps. */
export const DEFAULT_JOURNAL_CAPACITY = 10_000;

/** A listener of {@link Journal.watch}; called synchronously for each new entry. */
export type JournalListener = (entry: JournalEntry) => void;

/** What {@link Journal.newest} answers: the entries it kept, oldest first, and how many more it left out. */
export interface NewestEntries {
  entries: JournalEntry[];
  /** Entries that passed the filter, held and newer than `after`, but older than those kept. */
  skipped: number;
}

/** How a watcher is told: with the entry (a copy made for it), or only that one was written. */
/** A listener, and how it listens: it takes the entry ({@link Journal.watch}) or nothing ({@link Journal.watchWrites}). */
type Watch = { readonly device: string | undefined } & (
  | { readonly entry: true; readonly listener: JournalListener }
  | { readonly entry: false; readonly listener: () => void }
);

/** An entry as the ring keeps it: the time as epoch ms, formatted only when someone reads it. */
type StoredEntry = (JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'time'> : never) : never) & {
  at: number;
};

/** The fields the journal sets on a writer's record (read-only to everyone else). */
interface Stamps {
  seq: number;
  at: number;
  device: string;
}

/**
 * A bounded ring of entries, oldest first. Recording is on the hot path (every notification
 * to every session), so an entry is the writer's own object with a number and a time stamp
 * added: no copy, no date formatting until it is read.
 */
export class Journal {
  private readonly ring: (StoredEntry | undefined)[];
  private start = 0;
  private count = 0;
  private nextSeq = 1;
  private droppedCount = 0;
  /** Each listener and how it listens: a set of records, so that telling them allocates nothing. */
  private readonly listeners = new Set<Watch>();

  constructor(
    private readonly clock: Clock,
    readonly capacity = DEFAULT_JOURNAL_CAPACITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new EmulatorError('BAD_OPTION', `journal capacity must be a whole number of 1 or more, not ${capacity}`);
    this.ring = new Array<StoredEntry | undefined>(capacity);
  }

  /** Entries pushed out of the ring since the start (or the last clear). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The time on the journal's clock, epoch ms (what a report over it is "now"). */
  now(): number {
    return this.clock.now();
  }

  /** Entries held now. */
  get size(): number {
    return this.count;
  }

  /** The seq of the newest entry ever written, 0 before the first: a clear does not lower it. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Adds a copy of `record`, pushing the oldest entry out when full. */
  record(record: JournalRecord): void {
    this.add({ ...record } as StoredEntry);
  }

  /**
   * How a device's parts write: each record (a fresh object the writer made) becomes the
   * entry itself, with `device` set, so nothing is copied per notification.
   */
  writerFor(device: string): JournalWriter {
    return (record) => {
      (record as unknown as Stamps).device = device;
      this.add(record as StoredEntry);
    };
  }

  /** Numbers and stamps `entry` and puts it in the ring; tells the watchers. */
  private add(entry: StoredEntry): void {
    const stamps = entry as unknown as Stamps;
    stamps.seq = this.nextSeq++;
    stamps.at = this.clock.now();
    if (this.count < this.capacity) {
      this.ring[(this.start + this.count) % this.capacity] = entry;
      this.count++;
    } else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
      this.droppedCount++;
    }
    if (this.listeners.size === 0) return;
    // The view is made only when a listener wants the entry: a fleet's other devices, and
    // the watchers of writes only (a live feed), cost nothing but the call.
    let view: JournalEntry | undefined;
    for (const watch of this.listeners) {
      if (watch.device !== undefined && watch.device !== entry.device) continue;
      if (watch.entry) watch.listener((view ??= entryView(entry)));
      else watch.listener();
    }
  }

  /** The entries that pass `filter`, oldest first. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    const kinds = filter.kind === undefined ? undefined : new Set<string>([filter.kind].flat());
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.count; i++) {
      const entry = this.ring[(this.start + i) % this.capacity] as StoredEntry;
      if (filter.since !== undefined && entry.seq <= filter.since) continue;
      if (kinds && !kinds.has(entry.kind)) continue;
      if (filter.device !== undefined && entry.device !== filter.device) continue;
      if (filter.session !== undefined && (!('session' in entry) || entry.session !== filter.session)) continue;
      if (filter.topic !== undefined && (entry.kind !== 'notification' || entry.topic !== filter.topic)) continue;
      if (filter.via !== undefined && !hasVia(entry, filter.via)) continue;
      out.push(entryView(entry));
    }
    return out;
  }

  /**
   * The newest `count` entries of `device` (of every device when undefined) with a seq over
   * `after`, oldest first, and how many more such entries it holds: read backwards from the
   * newest, so that only the entries kept are copied, however many the ring holds.
   */
  newest(count: number, filter: { device?: string; after?: number } = {}): NewestEntries {
    const kept: StoredEntry[] = [];
    let skipped = 0;
    for (let i = this.count - 1; i >= 0; i--) {
      const entry = this.ring[(this.start + i) % this.capacity] as StoredEntry;
      if (filter.after !== undefined && entry.seq <= filter.after) break;
      if (filter.device !== undefined && entry.device !== filter.device) continue;
      if (kept.length < count) kept.push(entry);
      else skipped++;
    }
    return { entries: kept.reverse().map(entryView), skipped };
  }

  /** Calls `listener` with every new entry (of `device` only, when given); returns its remover. */
  watch(listener: JournalListener, device?: string): () => void {
    return this.listen({ device, entry: true, listener });
  }

  /**
   * Calls `listener` after every new entry (of `device` only, when given) without the entry,
   * which is not copied for it: for a reader that reads what is new later ({@link newest}).
   * Returns its remover.
   */
  watchWrites(listener: () => void, device?: string): () => void {
    return this.listen({ device, entry: false, listener });
  }

  private listen(watch: Watch): () => void {
    this.listeners.add(watch);
    return () => this.listeners.delete(watch);
  }

  /** How many listeners {@link watch} holds now (a closed feed or wait leaves none behind). */
  get watchers(): number {
    return this.listeners.size;
  }

  /** Forgets every entry and the dropped count; sequence numbers go on. */
  clear(): void {
    this.ring.fill(undefined);
    this.start = 0;
    this.count = 0;
    this.droppedCount = 0;
  }
}

/** Whether `entry` is one `via` selects: of the client under test (and the emulator), or of one of its own clients. */
function hasVia(entry: StoredEntry, via: JournalVia): boolean {
  if (via === 'client') return !isEmulatorClientEntry(entry);
  return (entry as { via?: ClientVia }).via === via;
}

/** What readers get: the stored entry with its time as ISO 8601. */
function entryView(entry: StoredEntry): JournalEntry {
  const { at, ...rest } = entry;
  return { ...rest, time: new Date(at).toISOString() };
}
