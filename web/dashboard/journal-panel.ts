/**
 * The journal, live from the feed's `journal` events: newest first, at most 500 entries kept
 * (and rows listed: the list drops a row when its entry goes), a kind filter, pausable (held
 * entries are shown on Resume, those beyond 500 counted as dropped). A batch marked `reset`
 * (the journal started again) clears what the page holds first.
 */
import { clipped, fill, h, prependBounded } from './dom.js';
import { clockTime } from './format.js';
import { controlNotice, type PanelContext, statusLine } from './panel.js';
import { pauseControl, resumedText } from './pause-control.js';
import { JOURNAL_KINDS, type JournalEntry } from './wire-types.js';

/** The most entries kept (and shown, and held while paused). */
const MAX_ENTRIES = 500;

/** Fills the journal panel `root`. */
export function mountJournalPanel(root: HTMLElement, ctx: PanelContext): void {
  const list = h('ol', { id: 'journal-list', class: 'journal', 'aria-label': 'Journal, newest first' });
  const kind = h(
    'select',
    { id: 'journal-kind' },
    h('option', { value: '' }, 'every kind'),
    ...JOURNAL_KINDS.map((k) => h('option', { value: k }, k)),
  );
  const status = statusLine('journal-status');
  /** Newest first. */
  let entries: JournalEntry[] = [];
  let lastSeq = -1;
  let skipped = 0;
  let resumed = '';

  const matches = (e: JournalEntry): boolean => kind.value === '' || e.kind === kind.value;
  const showStatus = (): void => {
    const notes = [
      `${list.childElementCount} of ${entries.length} entries shown`,
      pause.paused ? pause.heldText() : resumed,
      skipped > 0 ? `${skipped} left out by the feed (too many at once)` : '',
    ];
    status.textContent = notes.filter(Boolean).join('; ');
  };
  const render = (): void => {
    fill(list, ...entries.filter(matches).map(entryRow));
    showStatus();
  };
  /** Keeps the entries after the last one kept (at most MAX_ENTRIES in all); returns them, newest first. */
  const take = (fresh: JournalEntry[]): JournalEntry[] => {
    const newer = fresh.filter((e) => e.seq > lastSeq).reverse();
    if (newer.length === 0) return newer;
    lastSeq = newer[0].seq;
    entries.unshift(...newer);
    if (entries.length > MAX_ENTRIES) entries.length = MAX_ENTRIES;
    return newer;
  };
  /** Puts `fresh` (oldest first) at the top; a row whose entry is no longer kept goes. */
  const add = (fresh: JournalEntry[]): void => {
    const rows = take(fresh).filter(matches).map(entryRow);
    const oldest = entries[entries.length - 1]?.seq ?? 0;
    prependBounded(list, rows, MAX_ENTRIES, (row) => Number((row as HTMLElement).dataset.seq) >= oldest);
    showStatus();
  };
  const pause = pauseControl<JournalEntry>('journal-pause', 'the journal', MAX_ENTRIES, (done) => {
    resumed = done ? resumedText(done, 'entries') : '';
    if (done) add(done.items.map((held) => held.item));
    else showStatus();
  });

  kind.addEventListener('change', render);
  ctx.feed.on('journal', (batch) => {
    if (batch.reset) {
      entries = [];
      lastSeq = -1;
      skipped = 0;
      pause.discard();
      fill(list);
    }
    skipped += batch.skipped;
    if (!pause.paused) return add(batch.entries);
    for (const entry of batch.entries) pause.offer(entry);
    showStatus();
  });

  fill(
    root,
    h('h2', { id: 'journal-heading' }, 'Journal'),
    controlNotice(ctx, 'journal'),
    h(
      'div',
      { class: 'buttons' },
      h('label', { for: kind.id }, 'Kind'),
      kind,
      pause.button,
      h('button', { type: 'button', id: 'journal-clear', onclick: () => ((entries = []), render()) }, 'Clear view'),
    ),
    status,
    list,
  );
  showStatus();
}

/** One entry: time, kind, and what happened in a line. */
function entryRow(entry: JournalEntry): HTMLLIElement {
  return h(
    'li',
    { 'data-kind': entry.kind, 'data-seq': entry.seq },
    h('time', { class: 'time', datetime: entry.time }, clockTime(entry.time)),
    h('span', { class: 'kind' }, entry.kind),
    h('span', { class: 'what' }, clipped(summary(entry))),
  );
}

/** `; sent: ...` with what a refused request or message sent (its `body` or `sent` excerpt), if kept. */
function sent(excerpt: { text?: unknown } | undefined): string {
  return typeof excerpt?.text === 'string' ? `; sent: ${excerpt.text}` : '';
}

/** ` error code: message` for an answer that was a JSON-RPC error, else nothing. */
function failed(error: { code: number; message: string } | undefined): string {
  return error ? ` error ${error.code}: ${error.message}` : '';
}

/** A field as a summary shows it: nothing when absent, JSON for an object, else its text. */
function text(value: unknown): string {
  return value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : `${value as string}`;
}

/** What a journal entry says, in one line. */
function summary(e: JournalEntry): string {
  switch (e.kind) {
    case 'http':
      return `${text(e.method)} ${text(e.path)}${e.call ? ` ${text(e.call)}` : ''} → ${text(e.status) || 'aborted'}${e.user ? ` as ${text(e.user)}` : ''} from ${text(e.remote)} (${text(e.ms)} ms)${failed(e.error)}${sent(e.body)}`;
    case 'ws-open':
      // No user: the device runs with auth `none` (with a login every session has its user).
      return `session ${text(e.session)} opened ${e.user ? `by ${text(e.user)}` : 'without a login'} from ${text(e.remote)}`;
    case 'ws-close':
      return `session ${text(e.session)} closed by the ${text(e.by)}: ${text(e.code)} ${text(e.reason)}`;
    case 'ws-refused':
      return `${text(e.path)} refused ${text(e.status)}: ${text(e.reason)} (${text(e.remote)})`;
    case 'configure':
      return `session ${text(e.session)} configured ${JSON.stringify(e.filters)}${failed(e.error)}`;
    case 'message-refused':
      return `session ${text(e.session)} ${e.closed ? 'closed on' : 'refused'} a ${e.binary ? 'binary' : 'text'} message: ${text(e.code)} ${text(e.message)}${sent(e.sent)}`;
    case 'notification':
      return `session ${text(e.session)} ← ${text(e.topic)} (event ${text(e.event)})`;
    case 'auth-refused':
      return `${text(e.method)} ${text(e.path)}: ${text(e.code)} ${text(e.reason)}${e.user ? ` (user ${text(e.user)})` : ''} from ${text(e.remote)}`;
    case 'fault':
      return `fault ${text(e.name)} ${text(e.state)} ${JSON.stringify(e.params ?? {})}`;
    case 'expect':
      return `expect ${text(e.that)}${e.topic ? ` ${text(e.topic)}` : ''} within ${text(e.withinMs)} ms (${text(e.name)})`;
    default:
      // A kind this page does not know (a newer device): shown whole.
      return JSON.stringify(e);
  }
}
