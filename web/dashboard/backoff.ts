/** How long to wait before trying again: 1 s, doubling to 30 s, back to 1 s after a success. */
export class Backoff {
  private nextMs: number;

  constructor(
    private readonly firstMs = 1000,
    private readonly maxMs = 30_000,
  ) {
    this.nextMs = firstMs;
  }

  /** The wait before the next try; the one after it is twice as long (at most `maxMs`). */
  next(): number {
    const wait = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    return wait;
  }

  /** After a success: the next wait is the first again. */
  reset(): void {
    this.nextMs = this.firstMs;
  }
}
