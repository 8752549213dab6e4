/**
 * What a live feed holds between two sends: the newest `cap` items, and how many older
 * ones were left out. A storm of a hundred thousand entries a second costs the feed a
 * count, not memory, and the page gets the latest state of things plus a number.
 */
export class CappedBatch<T> {
  /** The items kept, oldest first; trimmed to the newest `cap` once it holds twice that. */
  private items: T[] = [];
  private left = 0;

  /** @param cap the most items one batch carries (at least 1) */
  constructor(readonly cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`a batch holds 1 item or more, not ${cap}`);
  }

  /** Whether nothing was added since the last {@link take}. */
  get empty(): boolean {
    return this.items.length === 0;
  }

  /** Adds one item (the newest). */
  add(item: T): void {
    this.items.push(item);
    // Trimmed in one slice now and then, not one shift per item: constant time on average.
    if (this.items.length >= 2 * this.cap) this.trim();
  }

  /** The newest `cap` items, oldest first, and how many were left out; empties the batch. */
  take(): { items: T[]; skipped: number } {
    this.trim();
    const taken = { items: this.items, skipped: this.left };
    this.items = [];
    this.left = 0;
    return taken;
  }

  /** Keeps the newest `cap` items, counting the others as left out. */
  private trim(): void {
    const over = this.items.length - this.cap;
    if (over <= 0) return;
    this.items = this.items.slice(over);
    this.left += over;
  }
}
