/**
 * The device's event stream sessions, live from the feed's `sessions` events: remote address,
 * user, filters, sent and dropped counts, state. The page's own session is one of them. The
 * count under the table is no live region: it changes with every snapshot.
 */
import { breakingAfterSlashes, type Child, fill, h } from './dom.js';
import { clockTime } from './format.js';
import { controlNotice, type PanelContext, statusLine } from './panel.js';
import type { SessionFilter } from './types.js';
import type { EmulatorSession } from './wire-types.js';

const COLUMNS = ['Remote', 'User', 'Filters', 'Sent', 'Dropped', 'State', 'Since'] as const;

/** The user of a session without one: the device runs with auth `none` (with a login every session has its user). */
const NO_LOGIN = '(no login)';
/** What {@link NO_LOGIN} means, on hover. */
const NO_LOGIN_TITLE = 'The device runs without authentication (auth none): sessions open without a login.';

/** Fills the sessions panel `root`. */
export function mountSessionsPanel(root: HTMLElement, ctx: PanelContext): void {
  const body = h('tbody', { id: 'session-rows' });
  const count = statusLine('sessions-count', false, 'Waiting for the feed…');
  const show = (sessions: EmulatorSession[]): void => {
    fill(body, ...sessions.map(sessionRow));
    if (sessions.length === 0) body.append(h('tr', {}, h('td', { colspan: COLUMNS.length }, 'No sessions.')));
    count.textContent = `${sessions.length} session${sessions.length === 1 ? '' : 's'}`;
  };
  fill(
    root,
    h('h2', { id: 'sessions-heading' }, 'Sessions'),
    controlNotice(ctx, 'sessions'),
    h(
      'table',
      { id: 'sessions-table', class: 'cards', 'aria-labelledby': 'sessions-heading' },
      h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
      body,
    ),
    count,
  );
  ctx.feed.on('sessions', ({ sessions }) => show(sessions));
}

/** One session as a row; each cell carries its column name for the narrow layout (and a title where it needs one). */
function sessionRow(session: EmulatorSession): HTMLTableRowElement {
  const filters = session.filters.length > 0 ? session.filters.map(filterText).join('; ') : '(not configured)';
  const cells: [string, Child[], string?][] = [
    ['Remote', [session.remoteAddress ?? '?']],
    session.user === undefined ? ['User', [NO_LOGIN], NO_LOGIN_TITLE] : ['User', [session.user]],
    ['Filters', breakingAfterSlashes(filters)],
    ['Sent', [session.sent]],
    ['Dropped', [session.dropped]],
    ['State', [session.state]],
    // To the second (the milliseconds on hover): the filters need the room.
    ['Since', [clockTime(session.connectedAt, false)], clockTime(session.connectedAt)],
  ];
  return h(
    'tr',
    // data-testid="session": a test hook (the browser tests count the sessions by it).
    { 'data-session': session.id, 'data-testid': 'session' },
    ...cells.map(([label, content, title]) =>
      h('td', { 'data-label': label, class: `col-${label.toLowerCase()}`, title }, ...content),
    ),
  );
}

/** `topic [content]` of one filter. */
function filterText(filter: SessionFilter): string {
  const topic = filter.topicFilter === undefined || filter.topicFilter === '' ? '(every topic)' : filter.topicFilter;
  return filter.contentFilter ? `${topic} [${filter.contentFilter}]` : topic;
}
