import { HeldBuffer } from '../../../web/dashboard/held-buffer';

describe('HeldBuffer (what a paused dashboard list holds)', () => {
  it('keeps what it holds, oldest first, with the time each arrived', () => {
    let now = 1000;
    const held = new HeldBuffer<string>(3, () => now);
    held.hold('a');
    now = 2000;
    held.hold('b');
    expect([held.count, held.dropped]).toEqual([2, 0]);
    expect(held.release()).toEqual([
      { item: 'a', at: 1000 },
      { item: 'b', at: 2000 },
    ]);
  });

  it('keeps the newest `max` and counts the others as dropped', () => {
    const held = new HeldBuffer<number>(3);
    for (let i = 1; i <= 8; i++) held.hold(i);
    expect([held.count, held.dropped]).toEqual([8, 5]);
    expect(held.release().map((h) => h.item)).toEqual([6, 7, 8]);
  });

  it('starts again empty after a release', () => {
    const held = new HeldBuffer<number>(2);
    for (let i = 1; i <= 5; i++) held.hold(i);
    held.release();
    expect([held.count, held.dropped]).toEqual([0, 0]);
    held.hold(9);
    expect(held.release().map((h) => h.item)).toEqual([9]);
  });
});
