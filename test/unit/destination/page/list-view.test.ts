/** The recordings page's HTML from data: pager links keep the other list's page. */
import { listPage } from '../../../../src/destination/page/list-view';
import { pageOf } from '../../../../src/destination/page/paging';
import type { RejectedContent } from '../../../../src/destination/page/rejected-content';
import type { RecordingInfo } from '../../../../src/destination/recordings';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);

function recording(i: number): RecordingInfo {
  const container = `u_S_20240601T1${String(i).padStart(5, '0')}Z`;
  return {
    account: 'AUTH_a',
    container,
    userId: 'u',
    serial: 'S',
    triggerOnTime: '2024-06-01T10:00:00.000Z',
    status: 'complete',
    clips: 0,
    bytes: 0,
    durationSeconds: 0,
    updated: NOW,
  };
}

function rejected(i: number): RejectedContent {
  return {
    container: `RejectedContent_UnknownTime_${i}`,
    time: undefined,
    id: String(i),
    objects: 0,
    bytes: 0,
    created: NOW,
  };
}

function view(recordingsPage: number, rejectedPage: number): string {
  const all = Array.from({ length: 5 }, (_, i) => recording(i));
  const rejectedAll = Array.from({ length: 5 }, (_, i) => rejected(i));
  const recordings = pageOf(all, recordingsPage, 2);
  const rejectedOnes = pageOf(rejectedAll, rejectedPage, 2);
  if (!recordings.ok || !rejectedOnes.ok) throw new Error('no such page');
  return listPage({
    account: 'AUTH_a',
    user: 'a',
    now: NOW,
    stalledAfterMs: 60_000,
    all,
    recordings: recordings.value,
    rejected: rejectedOnes.value,
  });
}

describe('listPage', () => {
  it('links each list to its pages and keeps the page of the other', () => {
    const html = view(2, 3);
    expect(html).toContain('Recordings 3–4 of 5 (page 2 of 3)');
    expect(html).toContain('<a rel="prev" href="/?rejected-page=3">« Newer</a>');
    expect(html).toContain('<a rel="next" href="/?page=3&#38;rejected-page=3">Older »</a>');
    expect(html).toContain('Rejected content 5–5 of 5 (page 3 of 3)');
    expect(html).toContain('<a rel="prev" href="/?page=2&#38;rejected-page=2#rejected">« Newer</a>');
  });

  it('shows no pager for a list on one page', () => {
    const html = listPage({
      account: 'AUTH_a',
      user: 'a',
      now: NOW,
      stalledAfterMs: 60_000,
      all: [],
      recordings: { items: [], page: 1, pages: 1, total: 0, from: 0, to: 0 },
      rejected: { items: [], page: 1, pages: 1, total: 0, from: 0, to: 0 },
    });
    expect(html).not.toContain('class="pager"');
    expect(html).toContain('No recordings yet.');
  });
});
