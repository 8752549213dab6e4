/**
 * A set of listeners of one kind of value, for the control API's state and the feed: `add`
 * answers the remover; `emit` calls each in turn, and one that throws is reported to `onError`
 * without stopping the others (or the caller: a panel's bug must not end the feed).
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  constructor(private readonly onError: (err: unknown) => void = (err) => console.error(err)) {}

  /** Adds `listener`; returns its remover. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  /** Calls `listener` with `value` as {@link emit} does: an exception goes to `onError`. */
  call(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Calls every listener with `value` (one added meanwhile waits for the next value). */
  emit(value: T): void {
    for (const listener of [...this.set]) this.call(listener, value);
  }
}
