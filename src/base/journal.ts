/**
 * The journal: what crossed a device's sockets, for tests and the control API to read
 * (`journal()`, `GET /_emu/journal`) and for the grader. A bounded ring: when full, the
 * oldest entry goes and is counted in `dropped`. Writers give plain data; secrets
 * (Authorization headers, session tokens, passwords) never enter it.
 */
import { type ClientVia, isEmulatorClientEntry } from './client-tag';
import type { Clock } from './clock';
import { EmulatorError } from './errors';
import type { JournalEntry, JournalKind } from './journal-entries';

/** The entries' shapes (./journal-entries), where the journal's readers and writers have always found them. */
export * from './journal-entries';

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
