/**
 * The journal, live from the feed's `journal` events: newest first, at most 500 entries kept,
 * a kind filter, pausable (held entries are shown on Resume).
 */
import { fill, h, say } from './dom.js';
import { clockTime } from './format.js';
import { controlNotice, type PanelContext } from './panel.js';
import { JOURNAL_KINDS, type JournalEntry } from './types.js';

/** The most entries kept (and shown). */
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
  const pause = h('button', { type: 'button', id: 'journal-pause', 'aria-pressed': 'false' }, 'Pause');
  const status = h('p', { id: 'journal-status', class: 'status', role: 'status' });
  let entries: JournalEntry[] = [];
  let held: JournalEntry[] = [];
  let paused = false;
  let lastSeq = -1;
  let skipped = 0;

  const matches = (e: JournalEntry): boolean => kind.value === '' || e.kind === kind.value;
  const showStatus = (): void => {
    const notes = [
      `${list.childElementCount} of ${entries.length} entries shown`,
      paused ? `paused: ${held.length} held` : '',
      skipped > 0 ? `${skipped} left out by the feed (too many at once)` : '',
    ];
    say(status, notes.filter(Boolean).join('; '));
  };
  const render = (): void => {
    fill(list, ...entries.filter(matches).map(entryRow));
    showStatus();
  };
  /** Keeps the entries after the last one kept; returns them, newest first. */
  const take = (fresh: JournalEntry[]): JournalEntry[] => {
    const newer = fresh.filter((e) => e.seq > lastSeq).reverse();
    lastSeq = newer[0]?.seq ?? lastSeq;
    entries = [...newer, ...entries].slice(0, MAX_ENTRIES);
    return newer;
  };

  kind.addEventListener('change', render);
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    pause.setAttribute('aria-pressed', String(paused));
    if (!paused) {
      take(held);
      held = [];
    }
    render();
  });
  ctx.feed.on('journal', (batch) => {
    skipped += batch.skipped;
    if (paused) {
      held = [...held, ...batch.entries].slice(-MAX_ENTRIES);
      return showStatus();
    }
    list.prepend(...take(batch.entries).filter(matches).map(entryRow));
    while (list.childElementCount > MAX_ENTRIES) list.lastElementChild?.remove();
    showStatus();
  });

  fill(
    root,
    h('h2', { id: 'journal-heading' }, 'Journal'),
    controlNotice(ctx, 'journal', () => undefined),
    h(
      'div',
      { class: 'buttons' },
      h('label', { for: kind.id }, 'Kind'),
      kind,
      pause,
      h('button', { type: 'button', id: 'journal-clear', onclick: () => ((entries = []), render()) }, 'Clear view'),
    ),
    status,
    list,
  );
}

/** One entry: time, kind, and what happened in a line. */
function entryRow(entry: JournalEntry): HTMLLIElement {
  return h(
    'li',
    { class: `entry kind-${entry.kind}`, 'data-kind': entry.kind, 'data-seq': entry.seq },
    h('time', { class: 'time', datetime: entry.time }, clockTime(entry.time)),
    h('span', { class: 'kind' }, entry.kind),
    h('span', { class: 'what' }, summary(entry)),
  );
}

/** What a journal entry says, in one line. */
function summary(e: JournalEntry): string {
  const s = (field: string): string => {
    const value = e[field];
    return value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : `${value as string}`;
  };
  const error = e.error as { code: number; message: string } | undefined;
  const failed = error ? ` error ${error.code}: ${error.message}` : '';
  switch (e.kind) {
    case 'http':
      return `${s('method')} ${s('path')} → ${s('status') || 'aborted'}${e.user ? ` as ${s('user')}` : ''} from ${s('remote')} (${s('ms')} ms)${failed}`;
    case 'ws-open':
      return `session ${s('session')} opened by ${s('user') || '?'} from ${s('remote')}`;
    case 'ws-close':
      return `session ${s('session')} closed by the ${s('by')}: ${s('code')} ${s('reason')}`;
    case 'ws-refused':
      return `${s('path')} refused ${s('status')}: ${s('reason')} (${s('remote')})`;
    case 'configure':
      return `session ${s('session')} configured ${JSON.stringify(e.filters)}${failed}`;
    case 'notification':
      return `session ${s('session')} ← ${s('topic')} (event ${s('event')})`;
    case 'auth-refused':
      return `${s('method')} ${s('path')}: ${s('code')} ${s('reason')}${e.user ? ` (user ${s('user')})` : ''} from ${s('remote')}`;
    case 'fault':
      return `fault ${s('name')} ${s('state')} ${JSON.stringify(e.params ?? {})}`;
    case 'expect':
      return `expect ${s('that')}${e.topic ? ` ${s('topic')}` : ''} within ${s('withinMs')} ms (${s('name')})`;
    default:
      return JSON.stringify(e);
  }
}
