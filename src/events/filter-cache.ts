/**
 * Compiled filters by the text they were compiled from, so that sessions configuring the
 * same filter (most clients of a system send the same few) share one compiled, frozen
 * filter instead of holding a copy each. Bounded: the least recently used go first once
 * there are too many entries or too many characters of filter text.
 */
/** Texts longer than this are compiled for their session alone: a few huge filters must not evict the common ones. */
const MAX_CACHED_TEXT = 4096;

/** Compiled filters (`T`, the configure's compiled filter) by their text. */
export class FilterCache<T extends object = object> {
  /** Made at the first entry: most devices of a fleet never see a configure. */
  private entries: Map<string, T> | undefined;
  private chars = 0;

  constructor(
    private readonly maxEntries = 1024,
    private readonly maxChars = 1024 * 1024,
  ) {}

  /** The filter compiled from `key` (the entry's filter texts), made the most recently used. */
  get(key: string): T | undefined {
    const entries = this.entries;
    const hit = entries?.get(key);
    if (entries && hit !== undefined) {
      entries.delete(key);
      entries.set(key, hit);
    }
    return hit;
  }

  /** Keeps `filter` for `key`, unless the text is too long to be worth it. */
  set(key: string, filter: T): void {
    const entries = (this.entries ??= new Map<string, T>());
    if (key.length > MAX_CACHED_TEXT || entries.has(key)) return;
    entries.set(key, filter);
    this.chars += key.length;
    for (const oldest of entries.keys()) {
      if (entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
