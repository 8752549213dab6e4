/**
 * The recordings page (`GET /`) as HTML: one account's recordings newest first, a page
 * at a time, with status (stalled ones marked), readable sizes and times, each linked
 * to its detail page; then the account's rejected content. Pure: data in, HTML out.
 */
import type { RecordingInfo } from '../recordings';
import { formatSeconds, formatUtc } from './format';
import { detailHref, instant, size, statusBadge } from './fragments';
import { markup, type SafeHtml } from './html';
import { tableHead } from './table-head';
import { layout } from './layout';
import { type PageStatus, pageStatus, statusClass } from './page-status';
import type { Page } from './paging';
import type { RejectedContent } from './rejected-content';

/** What the page shows. */
export interface ListView {
  account: string;
  /** The login that opened the page. */
  user: string;
  now: number;
  stalledAfterMs: number;
  /** Every recording of the account (for the counts); `recordings` is the page of them shown. */
  all: readonly RecordingInfo[];
  recordings: Page<RecordingInfo>;
  rejected: Page<RejectedContent>;
}

/** Query parameter of each list's page number. */
export const PAGE_PARAMS = { recordings: 'page', rejected: 'rejected-page' } as const;

/** The whole page. */
export function listPage(view: ListView): string {
  const { account, user, now, stalledAfterMs, all, recordings, rejected } = view;
  const counts = new Map<PageStatus, number>();
  for (const r of all) {
    const status = pageStatus(r, now, stalledAfterMs);
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const summary = (['complete', 'transferring', 'stalled', 'not transferred'] as const)
    .filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${s}`)
    .join(', ');
  const body = markup`<h1>Recordings of account ${account}</h1>
<p class="lead">Signed in as ${user}. ${plural(all.length, 'recording')}${summary ? `: ${summary}` : ''}; newest first.
An upload with no progress for ${formatSeconds(stalledAfterMs / 1000)} shows as stalled. Shown at ${formatUtc(now)}.</p>
${pager(recordings, 'recordings', view)}
${recordings.total === 0 ? markup`<p>No recordings yet.</p>` : recordingTable(recordings.items, now, stalledAfterMs)}
<h2 id="rejected">Rejected content (${rejected.total})</h2>
<p class="lead">What a body worn system stored as <code>RejectedContent_…</code> because a recording could not be.</p>
${pager(rejected, 'rejected', view)}
${rejected.total === 0 ? markup`<p>No rejected content.</p>` : rejectedTable(rejected.items, now)}`;
  return layout(`Recordings: ${account}`, body);
}

function recordingTable(recordings: readonly RecordingInfo[], now: number, stalledAfterMs: number): SafeHtml {
  const rows = recordings.map((r) => {
    const status = pageStatus(r, now, stalledAfterMs);
    return markup`<tr class="${statusClass(status)}" data-status="${status}" data-container="${r.container}">
<td data-label="Recording"><a href="${detailHref(r.container)}">${r.container}</a></td>
<td data-label="User">${r.userId}</td>
<td data-label="Camera">${r.serial}</td>
<td data-label="Triggered">${r.triggerOnTime ? instant(Date.parse(r.triggerOnTime), now) : 'unknown'}</td>
<td data-label="Status">${statusBadge(r, status, now)}</td>
<td class="num" data-label="Clips">${r.clips}</td>
<td class="num" data-label="Size">${size(r.bytes)}</td>
<td class="num" data-label="Duration">${formatSeconds(r.durationSeconds)}</td>
</tr>
`;
  });
  const head = ['Recording', 'User', 'Camera', 'Triggered', 'Status', '#Clips', '#Size', '#Duration'];
  return markup`<table class="recordings">${tableHead(head)}<tbody>\n${rows}</tbody></table>`;
}

function rejectedTable(items: readonly RejectedContent[], now: number): SafeHtml {
  const rows = items.map(
    (c) => markup`<tr data-container="${c.container}">
<td data-label="Container"><a href="${detailHref(c.container)}">${c.container}</a></td>
<td data-label="Time">${c.time === undefined ? 'unknown' : instant(c.time, now)}</td>
<td class="num" data-label="Objects">${c.objects}</td>
<td class="num" data-label="Size">${size(c.bytes)}</td>
<td data-label="Received">${instant(c.created, now)}</td>
</tr>
`,
  );
  const head = ['Container', 'Time', '#Objects', '#Size', 'Received'];
  return markup`<table class="rejected">${tableHead(head)}<tbody>\n${rows}</tbody></table>`;
}

/** "Recordings 51–100 of 120 (page 2 of 3)" with links to the newer and older pages; nothing for one page. */
function pager<T>(page: Page<T>, list: keyof typeof PAGE_PARAMS, view: ListView): SafeHtml | undefined {
  if (page.pages <= 1) return undefined;
  const what = list === 'recordings' ? 'Recordings' : 'Rejected content';
  const href = (n: number): string => {
    const pages = { recordings: view.recordings.page, rejected: view.rejected.page, [list]: n };
    const query = (Object.keys(PAGE_PARAMS) as (keyof typeof PAGE_PARAMS)[])
      .filter((key) => pages[key] > 1)
      .map((key) => `${PAGE_PARAMS[key]}=${pages[key]}`)
      .join('&');
    return `/${query ? `?${query}` : ''}${list === 'rejected' ? '#rejected' : ''}`;
  };
  const newer = page.page > 1 && markup`<a rel="prev" href="${href(page.page - 1)}">« Newer</a>`;
  const older = page.page < page.pages && markup`<a rel="next" href="${href(page.page + 1)}">Older »</a>`;
  return markup`<nav class="pager" aria-label="${what} pages"><span>${what} ${page.from}–${page.to} of ${page.total} (page ${page.page} of ${page.pages})</span>${newer}${older}</nav>`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
