import { RateCounter } from '../../../web/dashboard/rate-counter';

/** A counter over `seconds` on a clock the test moves. */
function counter(seconds = 5, start = 10_000) {
  const clock = { now: start };
  return { clock, rate: new RateCounter(seconds, () => clock.now) };
}

describe('RateCounter (the events/s of the live view)', () => {
  it('is 0 before anything was counted', () => {
    const { clock, rate } = counter();
    expect(rate.rate()).toBe(0);
    clock.now += 3000;
    expect(rate.rate()).toBe(0);
  });

  it('measures a young counter over its age', () => {
    const { clock, rate } = counter();
    for (let i = 0; i < 4; i++) {
      clock.now += 250;
      rate.add();
    }
    expect(rate.rate()).toBeCloseTo(4, 5);
  });

  it('settles on a steady rate and counts only the last seconds', () => {
    const { clock, rate } = counter(5);
    for (let i = 0; i < 40; i++) {
      clock.now += 250;
      rate.add();
    }
    expect(rate.rate()).toBeCloseTo(4, 0);
    // Silence: the old events leave the window, second by second, until none is left.
    clock.now += 2000;
    expect(rate.rate()).toBeLessThan(4);
    clock.now += 5000;
    expect(rate.rate()).toBe(0);
  });

  it('forgets everything after a gap longer than its window', () => {
    const { clock, rate } = counter(5);
    for (let i = 0; i < 10; i++) rate.add();
    clock.now += 60_000;
    rate.add();
    // The one new event over the window's full seconds (the current one has just begun).
    expect(rate.rate()).toBeCloseTo(1 / 4, 5);
  });
});
