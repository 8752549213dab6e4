/** Journal.newest: the newest entries of a device after a seq, read backwards from the ring, and what it left out. */
import { ManualClock } from '../../../src/base/clock';
import { Journal } from '../../../src/base/journal';
import { httpRecord } from '../../helpers/journal-records';

/** A journal of `capacity` holding `count` requests (paths /1, /2, ...), made in turn by devices A and B (A first). */
function journalOf(capacity: number, count: number): Journal {
  const journal = new Journal(new ManualClock(Date.UTC(2026, 0, 1)), capacity);
  for (let i = 1; i <= count; i++) journal.record(httpRecord(i % 2 === 1 ? 'A' : 'B', `/${i}`));
  return journal;
}

const seqsOf = (journal: Journal, count: number, filter: { device?: string; after?: number }) => {
  const { entries, skipped } = journal.newest(count, filter);
  return { seqs: entries.map((e) => e.seq), skipped };
};

describe('Journal.newest', () => {
  it("keeps the newest `count` of the device, oldest first, and counts the device's older ones as skipped", () => {
    const journal = journalOf(100, 10);
    expect(seqsOf(journal, 3, { device: 'A' })).toEqual({ seqs: [5, 7, 9], skipped: 2 });
    expect(seqsOf(journal, 3, { device: 'B' })).toEqual({ seqs: [6, 8, 10], skipped: 2 });
    expect(seqsOf(journal, 3, {})).toEqual({ seqs: [8, 9, 10], skipped: 7 });
    expect(seqsOf(journal, 100, { device: 'A' })).toEqual({ seqs: [1, 3, 5, 7, 9], skipped: 0 });
  });

  it('reads only what came after `after`: nothing is skipped at or before it', () => {
    const journal = journalOf(100, 10);
    expect(seqsOf(journal, 2, { device: 'A', after: 3 })).toEqual({ seqs: [7, 9], skipped: 1 });
    expect(seqsOf(journal, 5, { device: 'B', after: 6 })).toEqual({ seqs: [8, 10], skipped: 0 });
    expect(seqsOf(journal, 5, { after: 10 })).toEqual({ seqs: [], skipped: 0 });
    expect(seqsOf(journal, 5, { after: 99 })).toEqual({ seqs: [], skipped: 0 });
  });

  it('reads what the ring still holds once it went round, and nothing after a clear', () => {
    const journal = journalOf(4, 10);
    expect(seqsOf(journal, 10, { device: 'A', after: 0 })).toEqual({ seqs: [7, 9], skipped: 0 });
    journal.clear();
    expect(seqsOf(journal, 10, {})).toEqual({ seqs: [], skipped: 0 });
    journal.record(httpRecord('A', '/after-clear'));
    expect(seqsOf(journal, 10, {})).toEqual({ seqs: [11], skipped: 0 });
  });

  it('answers entries as entries() does: time formatted, the stored stamp not shown', () => {
    const journal = journalOf(10, 3);
    expect(journal.newest(1, { device: 'A' }).entries).toEqual(journal.entries({ since: 2, device: 'A' }));
    expect(journal.newest(1).entries[0]).toEqual(expect.objectContaining({ seq: 3, time: '2026-01-01T00:00:00.000Z' }));
    expect(journal.newest(1).entries[0]).not.toHaveProperty('at');
  });

  it('lastSeq is the seq of the newest entry ever written, kept over a clear', () => {
    const journal = journalOf(4, 0);
    expect(journal.lastSeq).toBe(0);
    journal.record(httpRecord('A', '/1'));
    journal.record(httpRecord('A', '/2'));
    expect(journal.lastSeq).toBe(2);
    journal.clear();
    expect(journal.lastSeq).toBe(2);
  });
});
