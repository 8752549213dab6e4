/**
 * A log line that may repeat at wire speed (a failed login, a refused request): the first
 * few of each interval are logged one by one, the rest are counted and told in one
 * summarising line when the interval is over (at the next occurrence, or at {@link LogSummary.flush}).
 * A flood thus costs a few lines per interval, not one per request.
 */
import type { Clock } from './clock';
import type { Logger } from './log';

/** How a {@link LogSummary} groups its lines. */
export interface LogSummaryOptions {
  /** The summary line's message, e.g. `authentication failures not logged one by one`. */
  message: string;
  intervalMs: number;
  /** Occurrences per interval logged one by one. */
  burst: number;
}

/** Keys (remote addresses, users) counted by name in a summary; the rest are added up as `others`. */
const MAX_NAMED = 10;

/** Counts what it does not let through and logs one warning per interval for it. */
export class LogSummary {
  private intervalStart = Number.NEGATIVE_INFINITY;
  private admitted = 0;
  private suppressed = 0;
  private readonly byKey = new Map<string, number>();

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly options: LogSummaryOptions,
  ) {}

  /** True: log this occurrence yourself; false: it is counted (under `key`) into the interval's summary. */
  admit(key: string | undefined): boolean {
    const now = this.clock.now();
    if (now >= this.intervalStart + this.options.intervalMs) {
      this.flush();
      this.intervalStart = now;
      this.admitted = 0;
    }
    if (this.admitted < this.options.burst) {
      this.admitted++;
      return true;
    }
    this.suppressed++;
    const name = key ?? 'unknown';
    if (this.byKey.has(name) || this.byKey.size < MAX_NAMED) this.byKey.set(name, (this.byKey.get(name) ?? 0) + 1);
    return false;
  }

  /** Logs the summary of what was counted so far, if anything (call it when closing). */
  flush(): void {
    if (this.suppressed === 0) return;
    const named = [...this.byKey.values()].reduce((sum, n) => sum + n, 0);
    this.log.warn(
      {
        count: this.suppressed,
        intervalMs: this.options.intervalMs,
        // eslint-disable-next-line local/log-fields -- counts (numbers) by key: a remote address or 'unknown'
        by: Object.fromEntries(this.byKey),
        others: named < this.suppressed ? this.suppressed - named : undefined,
      },
      this.options.message,
    );
    this.suppressed = 0;
    this.byKey.clear();
  }
}
