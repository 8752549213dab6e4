/**
 * What a paused list holds until Resume: the newest `max` items, each with the time it
 * arrived, in a ring (no copy per item), and how many came in all, so those dropped are counted.
 */

/** One held item and when it arrived (epoch ms). */
export interface Held<T> {
  item: T;
  at: number;
}

export class HeldBuffer<T> {
  private readonly ring: Held<T>[] = [];
  /** Where the oldest kept item is in the ring (once it is full). */
  private start = 0;
  private total = 0;

  constructor(
    readonly max: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Every item held since the last release, those dropped included. */
  get count(): number {
    return this.total;
  }

  /** The oldest items let go to keep the newest `max`. */
  get dropped(): number {
    return this.total - this.ring.length;
  }

  /** Holds `item`, letting go of the oldest when `max` are held. */
  hold(item: T): void {
    const held = { item, at: this.now() };
    if (this.ring.length < this.max) this.ring.push(held);
    else {
      this.ring[this.start] = held;
      this.start = (this.start + 1) % this.max;
    }
    this.total++;
  }

  /** The items kept, oldest first; empties the buffer and its counts. */
  release(): Held<T>[] {
    const items = [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
    this.ring.length = 0;
    this.start = 0;
    this.total = 0;
    return items;
  }
}
