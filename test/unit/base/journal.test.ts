import { ManualClock } from '../../../src/base/clock';
import { EmulatorError } from '../../../src/base/errors';
import { Journal, type JournalEntry } from '../../../src/base/journal';

const note = (topic: string, session = 's1', device = 'D1') =>
  ({ kind: 'notification', device, session, topic, event: 1 }) as const;

describe('Journal', () => {
  it('numbers entries from 1 and stamps them with the clock', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const journal = new Journal(clock, 10);
    journal.record(note('a'));
    clock.advance(1500);
    journal.record(note('b'));
    expect(journal.entries()).toEqual([
      { ...note('a'), seq: 1, time: '2026-01-01T00:00:00.000Z' },
      { ...note('b'), seq: 2, time: '2026-01-01T00:00:01.500Z' },
    ]);
  });

  it('keeps the newest entries when full, counts the dropped ones, and clear() keeps numbering', () => {
    const journal = new Journal(new ManualClock(), 3);
    for (const t of ['a', 'b', 'c', 'd', 'e']) journal.record(note(t));
    expect(journal.entries().map((e) => (e as { topic: string }).topic)).toEqual(['c', 'd', 'e']);
    expect([journal.size, journal.dropped]).toEqual([3, 2]);
    journal.clear();
    expect([journal.size, journal.dropped, journal.entries()]).toEqual([0, 0, []]);
    journal.record(note('f'));
    expect(journal.entries()[0].seq).toBe(6);
  });

  it('filters by since, kind (one or several), session, topic and device', () => {
    const journal = new Journal(new ManualClock(), 100);
    journal.record({ kind: 'ws-open', device: 'D1', session: 's1', user: 'root', remote: '127.0.0.1' });
    journal.record(note('a', 's1'));
    journal.record(note('b', 's2'));
    journal.record(note('a', 's2', 'D2'));
    journal.record({ kind: 'ws-close', device: 'D1', session: 's1', code: 1000, reason: '', by: 'client' });
    const seqs = (entries: JournalEntry[]) => entries.map((e) => e.seq);
    expect(seqs(journal.entries({ since: 3 }))).toEqual([4, 5]);
    expect(seqs(journal.entries({ kind: 'notification' }))).toEqual([2, 3, 4]);
    expect(seqs(journal.entries({ kind: ['ws-open', 'ws-close'] }))).toEqual([1, 5]);
    expect(seqs(journal.entries({ session: 's2' }))).toEqual([3, 4]);
    expect(seqs(journal.entries({ topic: 'a' }))).toEqual([2, 4]);
    expect(seqs(journal.entries({ device: 'D2' }))).toEqual([4]);
    expect(seqs(journal.entries({ topic: 'a', device: 'D1', since: 1 }))).toEqual([2]);
  });

  it('tells watchers of every new entry until they are removed', () => {
    const journal = new Journal(new ManualClock(), 2);
    const heard: number[] = [];
    const stop = journal.watch((e) => heard.push(e.seq));
    journal.record(note('a'));
    journal.record(note('b'));
    journal.record(note('c'));
    stop();
    journal.record(note('d'));
    expect(heard).toEqual([1, 2, 3]);
  });

  it("writerFor(device) records a device's entries with its serial, formatted when read", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const journal = new Journal(clock, 10);
    const write = journal.writerFor('CAM7');
    write({ kind: 'notification', session: 's1', topic: 'a', event: 1 });
    clock.advance(10);
    const heard: string[] = [];
    journal.watch((entry) => heard.push(`${entry.device}@${entry.time}`));
    write({ kind: 'ws-close', session: 's1', code: 1000, reason: '', by: 'client' });
    expect(journal.entries()).toEqual([
      {
        kind: 'notification',
        session: 's1',
        topic: 'a',
        event: 1,
        device: 'CAM7',
        seq: 1,
        time: '2026-01-01T00:00:00.000Z',
      },
      {
        kind: 'ws-close',
        session: 's1',
        code: 1000,
        reason: '',
        by: 'client',
        device: 'CAM7',
        seq: 2,
        time: '2026-01-01T00:00:00.010Z',
      },
    ]);
    expect(heard).toEqual(['CAM7@2026-01-01T00:00:00.010Z']);
  });

  it('record() copies what it is given, so a caller may reuse its object', () => {
    const journal = new Journal(new ManualClock(), 10);
    const entry = note('a');
    journal.record(entry);
    journal.record(entry);
    expect(journal.entries().map((e) => e.seq)).toEqual([1, 2]);
    expect(entry).toEqual(note('a'));
  });

  it('refuses a capacity that is not a whole number of 1 or more', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new Journal(new ManualClock(), bad)).toThrow(EmulatorError);
  });
});
