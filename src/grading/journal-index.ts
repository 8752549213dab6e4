/**
 * The journal as the rules read it: entries with their times in epoch ms, and the event
 * stream sessions with what happened to each. Built once per report. The emulator's own
 * clients (the dashboard) are not graded: their entries are left out here, the one place the
 * rules read the journal from.
 */
import { isEmulatorClientEntry } from '../base/client-tag';
import type {
  ConfigureEntry,
  FaultChangeEntry,
  JournalEntry,
  MessageRefusedEntry,
  NotificationEntry,
  WsCloseEntry,
  WsOpenEntry,
} from '../base/journal';
import type { GradedClient } from './report';

/** A journal entry with its time in epoch ms. */
export interface Timed<E extends JournalEntry = JournalEntry> {
  readonly entry: E;
  readonly at: number;
}

/** One event stream session, from its `ws-open` to its `ws-close` (if any). */
export interface SessionRecord {
  readonly device: string;
  readonly id: string;
  readonly remote: string;
  readonly user: string | undefined;
  readonly open: Timed<WsOpenEntry>;
  close: Timed<WsCloseEntry> | undefined;
  /**
   * Until when the device read nothing of this session (a `stall` with pings off, which holds
   * every session open or opened while it lasts): the stall's end, infinite while it lasts;
   * undefined when never held. What the client sent meanwhile (a configure, a close) is journaled
   * only then, so the rules start its windows there.
   */
  heldUntil: number | undefined;
  /**
   * When the client was done with the session, for the rules that count sessions open at once:
   * its close, except a close the device read only as a stall ended, which the client sent
   * before it opened its next session (that opening, then); infinite while open.
   */
  endAt: number;
  readonly configures: Timed<ConfigureEntry>[];
  /** Messages the device refused before they were a configure request (not JSON, too large, ...). */
  readonly refused: Timed<MessageRefusedEntry>[];
  readonly notifications: Timed<NotificationEntry>[];
}

/** What a device is to the rules: its paths and the topics it can publish. */
export interface DeviceFacts {
  readonly serial: string;
  /** The event stream path (e.g. `/svc/ws-data-stream`). */
  readonly streamPath: string;
  /** The session token path (e.g. `/svc-cgi/wssession.cgi`). */
  readonly tokenPath: string;
  /** How long a session token is valid (the device's `tokenLifetimeMs`); 15 s when not said. */
  readonly tokenLifetimeMs?: number;
  /** Topics the device's scenario and initial states publish (canonical, as the device sends them). */
  readonly topics: readonly string[];
  /** Filter prefix aliases the device accepts (written prefix -> canonical prefix). */
  readonly topicAliases: Readonly<Record<string, string>>;
}

/** The kinds of entry a session record gathers, after its `ws-open`. */
const SESSION_KINDS: ReadonlySet<JournalEntry['kind']> = new Set([
  'ws-close',
  'configure',
  'message-refused',
  'notification',
]);

/** The indexed journal. */
export class JournalIndex {
  readonly entries: readonly Timed[];
  readonly sessions: readonly SessionRecord[];
  private readonly byKey = new Map<string, SessionRecord>();
  /** The entries by kind, oldest first: filled in the one pass over the journal. */
  private readonly byKind = new Map<JournalEntry['kind'], Timed[]>();
  private readonly usersOf = new Map<string, Set<string>>();

  constructor(entries: readonly JournalEntry[]) {
    this.entries = gradedEntries(entries).map((entry) => ({ entry, at: Date.parse(entry.time) }));
    const sessions: SessionRecord[] = [];
    for (const timed of this.entries) {
      const { entry } = timed;
      const ofKind = this.byKind.get(entry.kind);
      if (ofKind) ofKind.push(timed);
      else this.byKind.set(entry.kind, [timed]);
      if ('user' in entry && entry.user !== undefined && 'remote' in entry) this.addUser(entry.remote, entry.user);
      if (entry.kind === 'ws-open') {
        const record: SessionRecord = {
          device: entry.device,
          id: entry.session,
          remote: remoteOf(entry.remote),
          user: entry.user,
          open: timed as Timed<WsOpenEntry>,
          close: undefined,
          heldUntil: undefined,
          endAt: Number.POSITIVE_INFINITY,
          configures: [],
          refused: [],
          notifications: [],
        };
        sessions.push(record);
        this.byKey.set(key(entry.device, entry.session), record);
        continue;
      }
      if (!SESSION_KINDS.has(entry.kind) || !('session' in entry)) continue;
      const record = this.byKey.get(key(entry.device, entry.session));
      if (!record) continue;
      if (entry.kind === 'ws-close') {
        record.close = timed as Timed<WsCloseEntry>;
        record.endAt = timed.at;
      } else if (entry.kind === 'configure') record.configures.push(timed as Timed<ConfigureEntry>);
      else if (entry.kind === 'message-refused') record.refused.push(timed as Timed<MessageRefusedEntry>);
      else record.notifications.push(timed as Timed<NotificationEntry>);
    }
    this.sessions = sessions;
    markHeld(sessions, this.ofKind('fault'));
  }

  /** The entries of one kind, oldest first (the index's own list: do not change it). */
  ofKind<K extends JournalEntry['kind']>(kind: K): readonly Timed<Extract<JournalEntry, { kind: K }>>[] {
    return (this.byKind.get(kind) ?? []) as Timed<Extract<JournalEntry, { kind: K }>>[];
  }

  /** The client at `remote`, with every user name it used. */
  client(remote: string | undefined): GradedClient {
    const address = remoteOf(remote);
    return { remote: address, users: [...(this.usersOf.get(address) ?? [])].sort() };
  }

  /** The session `id` of `device`, undefined when its opening is not in the journal. */
  session(device: string, id: string): SessionRecord | undefined {
    return this.byKey.get(key(device, id));
  }

  /** The sessions of one client on one device, oldest first. */
  sessionsOf(device: string, remote: string): SessionRecord[] {
    return this.sessions.filter((s) => s.device === device && s.remote === remote);
  }

  private addUser(remote: string | undefined, user: string): void {
    const address = remoteOf(remote);
    let users = this.usersOf.get(address);
    if (!users) this.usersOf.set(address, (users = new Set()));
    users.add(user);
  }
}

/**
 * The entries the client under test is graded on: all but the emulator's own clients'
 * ({@link isEmulatorClientEntry}: every entry such a client causes, its session's included, is
 * marked when it is written).
 */
export function gradedEntries(entries: readonly JournalEntry[]): readonly JournalEntry[] {
  let graded: JournalEntry[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!isEmulatorClientEntry(entry)) graded?.push(entry);
    // The first entry left out: from here a list of its own (until then the journal's is it).
    else graded ??= entries.slice(0, i);
  }
  return graded ?? entries;
}

/** The address a remote is graded under. */
export function remoteOf(remote: string | undefined): string {
  return remote ?? 'unknown';
}

/** The last successful configure of a session at or before `at` (undefined: none). */
export function configuredAt(session: SessionRecord, at = Number.POSITIVE_INFINITY): Timed<ConfigureEntry> | undefined {
  let last: Timed<ConfigureEntry> | undefined;
  for (const c of session.configures) if (c.at <= at && c.entry.error === undefined) last = c;
  return last;
}

/**
 * Whether a configure attempt of the session at or before `at` was refused: a refused
 * `configure`, or a message refused before it was one (too large, not JSON). Such a session is
 * not configured, and the refusal's own rule says why.
 */
export function refusedBy(session: SessionRecord, at: number): boolean {
  return (
    session.configures.some((c) => c.entry.error !== undefined && c.at <= at) || session.refused.some((r) => r.at <= at)
  );
}

/** Whether a session was open at `at` (as the client saw it: {@link SessionRecord.endAt}). */
export function openAt(session: SessionRecord, at: number): boolean {
  return session.open.at <= at && session.endAt > at;
}

/** A close read this soon after a stall ended was sent while the device read nothing. */
const READ_AT_STALL_END_MS = 1000;

/** Sets {@link SessionRecord.heldUntil} and the {@link SessionRecord.endAt} of closes read late, from the stall faults. */
function markHeld(sessions: readonly SessionRecord[], faults: readonly Timed<FaultChangeEntry>[]): void {
  const stalls = faults.filter((f) => f.entry.name === 'stall');
  for (const on of stalls) {
    if (on.entry.state !== 'on' || on.entry.params.pings !== false) continue;
    const off = stalls.find(
      (f) => f.entry.seq > on.entry.seq && f.entry.device === on.entry.device && f.entry.state === 'off',
    );
    const until = off?.at ?? Number.POSITIVE_INFINITY;
    const held = sessions.filter(
      (s) =>
        s.device === on.entry.device &&
        s.open.entry.seq < (off?.entry.seq ?? Number.POSITIVE_INFINITY) &&
        (s.close === undefined || s.close.entry.seq > on.entry.seq),
    );
    for (const s of held) {
      s.heldUntil = Math.max(s.heldUntil ?? until, until);
      if (!s.close || s.close.at > until + READ_AT_STALL_END_MS) continue;
      const next = sessions.find(
        (o) =>
          o !== s &&
          o.device === s.device &&
          o.remote === s.remote &&
          o.open.entry.seq > Math.max(on.entry.seq, s.open.entry.seq),
      );
      if (next && next.open.at < s.endAt) s.endAt = next.open.at;
    }
  }
}

function key(device: string, session: string): string {
  return `${device} ${session}`;
}

/** The position in `list` (oldest first) of its first entry numbered `seq` or later, by binary search. */
export function positionOf(list: readonly Timed[], seq: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid].entry.seq < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The last of `list` (oldest first) that came before the entry numbered `seq`. */
export function lastBefore<T extends Timed>(list: readonly T[], seq: number): T | undefined {
  const position = positionOf(list, seq);
  return position > 0 ? list[position - 1] : undefined;
}
