/**
 * Time source for everything that expires or is scheduled (nonces, session tokens,
 * scenario steps). Tests inject a {@link ManualClock} instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: for deterministic tests of expiry. */
export class ManualClock implements Clock {
  private current: number;

  /** @param start epoch milliseconds the clock starts at */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }

  /** Sets the clock to an absolute time. */
  set(epochMs: number): void {
    this.current = epochMs;
  }
}
