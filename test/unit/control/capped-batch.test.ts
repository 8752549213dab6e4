/** The feed's batch: the newest `cap` items in order, the rest counted as skipped. */
import { CappedBatch } from '../../../src/control/capped-batch';

describe('CappedBatch', () => {
  it('hands out what it holds in order, then is empty', () => {
    const batch = new CappedBatch<number>(3);
    expect(batch.empty).toBe(true);
    batch.add(1);
    batch.add(2);
    expect(batch.empty).toBe(false);
    expect(batch.take()).toEqual({ items: [1, 2], skipped: 0 });
    expect(batch.empty).toBe(true);
    expect(batch.take()).toEqual({ items: [], skipped: 0 });
  });

  it.each([4, 5, 6, 7, 1000])('keeps the newest 3 of %i and counts the others as skipped', (n) => {
    const batch = new CappedBatch<number>(3);
    for (let i = 1; i <= n; i++) batch.add(i);
    expect(batch.take()).toEqual({ items: [n - 2, n - 1, n], skipped: n - 3 });
    batch.add(7);
    expect(batch.take()).toEqual({ items: [7], skipped: 0 });
  });

  it('holds at most twice its cap however many come', () => {
    const batch = new CappedBatch<number>(300);
    for (let i = 0; i < 100_000; i++) batch.add(i);
    expect((batch as unknown as { items: number[] }).items.length).toBeLessThan(600);
    expect(batch.take().skipped).toBe(100_000 - 300);
  });

  it('refuses a cap under 1', () => {
    expect(() => new CappedBatch(0)).toThrow(RangeError);
    expect(() => new CappedBatch(1.5)).toThrow(RangeError);
  });
});
