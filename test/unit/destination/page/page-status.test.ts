/** The status the page shows (stalled after a quiet spell), the order, and rejected content names. */
import { newestFirst, pageStatus, statusClass } from '../../../../src/destination/page/page-status';
import { parseRejectedContentName, rejectedContentOf } from '../../../../src/destination/page/rejected-content';
import type { ContainerRecord } from '../../../../src/destination/store/object-store';

describe('pageStatus', () => {
  const now = 1_000_000;

  it('marks a transferring recording stalled once it has had no activity for the time given', () => {
    expect(pageStatus({ status: 'transferring', updated: now - 59_999 }, now, 60_000)).toBe('transferring');
    expect(pageStatus({ status: 'transferring', updated: now - 60_000 }, now, 60_000)).toBe('stalled');
  });

  it('never marks a complete or refused recording stalled', () => {
    expect(pageStatus({ status: 'complete', updated: 0 }, now, 1)).toBe('complete');
    expect(pageStatus({ status: 'not transferred', updated: 0 }, now, 1)).toBe('not transferred');
  });

  it('names a CSS class for each status', () => {
    expect(statusClass('not transferred')).toBe('s-not-transferred');
    expect(statusClass('stalled')).toBe('s-stalled');
  });
});

describe('newestFirst', () => {
  it('sorts by trigger time, newest first, then by name; no time last', () => {
    const rows = [
      { container: 'b', triggerOnTime: '2024-06-01T10:00:00.000Z' },
      { container: 'bad', triggerOnTime: '' },
      { container: 'a', triggerOnTime: '2024-06-01T10:00:00.000Z' },
      { container: 'c', triggerOnTime: '2024-06-01T12:00:00.000Z' },
    ];
    expect(rows.sort(newestFirst).map((r) => r.container)).toEqual(['c', 'a', 'b', 'bad']);
  });
});

describe('rejected content', () => {
  it('reads the time and the UUID of the name', () => {
    expect(parseRejectedContentName('RejectedContent_20240601T110000Z_1234-abcd')).toEqual({
      time: Date.UTC(2024, 5, 1, 11, 0, 0),
      id: '1234-abcd',
    });
    expect(parseRejectedContentName('RejectedContent_UnknownTime_5678')).toEqual({ time: undefined, id: '5678' });
    expect(parseRejectedContentName('RejectedContent_x')).toEqual({ time: undefined, id: '' });
    expect(parseRejectedContentName('alice_SN1_20240601T110000Z')).toBeUndefined();
  });

  it('lists only rejected content, newest time first, unknown times last by arrival', () => {
    const container = (name: string, created: number): ContainerRecord => ({
      name,
      created,
      metadata: {},
      objects: new Map(),
      bytes: 0,
    });
    const listed = rejectedContentOf([
      container('RejectedContent_UnknownTime_old', 1),
      container('RejectedContent_20240601T110000Z_a', 5),
      container('photos', 9),
      container('RejectedContent_UnknownTime_new', 2),
      container('RejectedContent_20240602T110000Z_b', 3),
    ]);
    expect(listed.map((c) => c.container)).toEqual([
      'RejectedContent_20240602T110000Z_b',
      'RejectedContent_20240601T110000Z_a',
      'RejectedContent_UnknownTime_new',
      'RejectedContent_UnknownTime_old',
    ]);
  });
});
