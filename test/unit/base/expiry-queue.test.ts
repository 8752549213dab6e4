import { ExpiryQueue } from '../../../src/base/expiry-queue';

describe('ExpiryQueue', () => {
  it('drops the keys expired by now from the front and stops at the first live one', () => {
    const queue = new ExpiryQueue<string>();
    queue.push('a', 10);
    queue.push('b', 20);
    queue.push('c', 30);
    const dropped: [string, number][] = [];
    queue.dropExpired(20, (key, at) => dropped.push([key, at]));
    expect(dropped).toEqual([
      ['a', 10],
      ['b', 20],
    ]);
    expect(queue.length).toBe(1);
    queue.dropExpired(29, () => dropped.push(['never', 0]));
    expect(dropped).toHaveLength(2);
  });

  it('looks at one live key only, however many are queued behind it', () => {
    const queue = new ExpiryQueue<number>();
    for (let i = 0; i < 50_000; i++) queue.push(i, 1_000 + i);
    let looks = 0;
    const now = { valueOf: () => (looks++, 999) } as unknown as number;
    queue.dropExpired(now, () => undefined);
    expect(looks).toBe(1);
  });

  it('shifts the oldest key for eviction, and cuts off its dropped front as it goes', () => {
    const queue = new ExpiryQueue<number>();
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 100; i++) queue.push(round * 100 + i, round * 100 + i);
      queue.dropExpired(round * 100 + 49, () => undefined);
    }
    expect(queue.shift()).toEqual({ key: 9_950, at: 9_950 });
    expect(queue.length).toBe(49);
    expect((queue as unknown as { items: unknown[] }).items.length).toBeLessThanOrEqual(2 * 49 + 1024);
    queue.clear();
    expect(queue.shift()).toBeUndefined();
  });
});
