/**
 * Journal watchers: of every device or of one (no entry view made for the others), of
 * writes only (no entry view at all), and how many are held.
 */
import { ManualClock } from '../../../src/base/clock';
import { Journal } from '../../../src/base/journal';
import { httpRecord as request } from '../../helpers/journal-records';

describe('Journal.watch', () => {
  it("hears every device's entries, or only those of the device named", () => {
    const journal = new Journal(new ManualClock(), 10);
    const all: string[] = [];
    const second: string[] = [];
    journal.watch((entry) => all.push(`${entry.device} ${entry.seq}`));
    journal.watch((entry) => second.push(`${entry.device} ${entry.seq}`), 'B');
    journal.record(request('A', '/a'));
    journal.record(request('B', '/b'));
    expect(all).toEqual(['A 1', 'B 2']);
    expect(second).toEqual(['B 2']);
  });

  it('tells a watcher of writes of each entry (of the device named) without making a view of it', () => {
    const journal = new Journal(new ManualClock(), 10);
    const told: string[] = [];
    const stopAll = journal.watchWrites(() => told.push('all'));
    journal.watchWrites(() => told.push('B'), 'B');
    // A view formats the entry's time: with no watcher of entries, none is made.
    const toISOString = jest.spyOn(Date.prototype, 'toISOString');
    try {
      journal.record(request('A', '/a'));
      journal.record(request('B', '/b'));
      expect(toISOString).not.toHaveBeenCalled();
    } finally {
      toISOString.mockRestore();
    }
    expect(told).toEqual(['all', 'all', 'B']);
    stopAll();
    journal.record(request('A', '/a2'));
    expect(told).toEqual(['all', 'all', 'B']);
  });

  it('counts the watchers it holds, and forgets each removed one', () => {
    const journal = new Journal(new ManualClock(), 10);
    expect(journal.watchers).toBe(0);
    const stopAll = journal.watch(() => undefined);
    const stopOne = journal.watch(() => undefined, 'A');
    const stopWrites = journal.watchWrites(() => undefined, 'A');
    expect(journal.watchers).toBe(3);
    stopOne();
    stopOne();
    stopWrites();
    expect(journal.watchers).toBe(1);
    stopAll();
    expect(journal.watchers).toBe(0);
  });
});
