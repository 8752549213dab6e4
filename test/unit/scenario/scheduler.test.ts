/** The real scheduler: timers in due order, all due ones per wake, cancel, nothing left armed. */
import { realScheduler } from '../../../src/scenario/scheduler';

describe('realScheduler', () => {
  it('runs timers already due in one wake, in due order (ties in the order set)', async () => {
    const ran: string[] = [];
    const now = realScheduler.now();
    const all = new Promise<void>((resolve) => {
      realScheduler.setTimer(now - 5, () => ran.push('b'));
      realScheduler.setTimer(now - 10, () => ran.push('a'));
      realScheduler.setTimer(now - 5, () => ran.push('c'));
      realScheduler.setTimer(now - 1, () => {
        ran.push('d');
        resolve();
      });
    });
    expect(ran).toEqual([]); // never synchronously
    await all;
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a cancelled timer does not run; a timer set by a timer runs too', async () => {
    const ran: string[] = [];
    const now = realScheduler.now();
    const cancel = realScheduler.setTimer(now, () => ran.push('cancelled'));
    await new Promise<void>((resolve) => {
      realScheduler.setTimer(now, () => {
        ran.push('first');
        realScheduler.setTimer(now, () => {
          ran.push('second');
          resolve();
        });
      });
      cancel();
    });
    expect(ran).toEqual(['first', 'second']);
  });

  it('a far timer, cancelled, leaves nothing armed (Jest would report the open handle)', () => {
    const cancel = realScheduler.setTimer(realScheduler.now() + 3_600_000, () => {
      throw new Error('must not run');
    });
    cancel();
  });
});
