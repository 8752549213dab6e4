/** Events per second over the last few seconds, counted in one-second buckets. Pure (its clock is given): unit-tested. */
export class RateCounter {
  private readonly buckets: number[];
  private readonly born: number;
  private second: number;

  /** @param now the clock in ms (the page's `performance.now`) */
  constructor(
    private readonly seconds = 5,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.buckets = new Array<number>(seconds).fill(0);
    this.born = now();
    this.second = Math.floor(this.born / 1000);
  }

  /** Counts one event now. */
  add(): void {
    this.advance();
    this.buckets[this.slot(this.second)] += 1;
  }

  /** The mean rate of the last full seconds (events/s). */
  rate(): number {
    this.advance();
    let total = 0;
    for (let i = 1; i < this.seconds; i++) total += this.buckets[this.slot(this.second - i)];
    // The current second is partial: counted, over its elapsed part; a young counter over its age.
    const now = this.now();
    const partial = now / 1000 - this.second;
    total += this.buckets[this.slot(this.second)];
    const span = Math.min(this.seconds - 1 + partial, (now - this.born) / 1000);
    return span > 0 ? total / span : 0;
  }

  /** The bucket of second `second` (seconds before the page's first are negative). */
  private slot(second: number): number {
    return ((second % this.seconds) + this.seconds) % this.seconds;
  }

  private advance(): void {
    const now = Math.floor(this.now() / 1000);
    for (let s = this.second + 1; s <= now && s <= this.second + this.seconds; s++) this.buckets[this.slot(s)] = 0;
    this.second = Math.max(this.second, now);
  }
}
