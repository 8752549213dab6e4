/**
 * A logger for a server under fuzz that keeps only its error-level lines (pino level
 * 50 and up): a fuzz run fails on any of them, since every bad input must get a
 * defined answer and at most a warning. Keeping nothing else holds memory flat over
 * a run of 100,000 cases.
 */
import { createLogger, type Logger } from '../../src';

/** One parsed log entry. */
export type ErrorEntry = Record<string, unknown> & { msg?: string; level?: number };

/** The error-level lines a server wrote, in order. */
export class ErrorLog {
  readonly entries: ErrorEntry[] = [];
  /** Pass as the server's `logger`. */
  readonly logger: Logger;

  constructor() {
    this.logger = createLogger({ level: 'error', write: (line) => this.push(line) });
  }

  /** Lines so far. */
  get count(): number {
    return this.entries.length;
  }

  /** Throws, quoting them, when lines were written after the first `index`. */
  expectNoneSince(index: number, where: string): void {
    if (this.entries.length <= index) return;
    const quoted = this.entries
      .slice(index, index + 5)
      .map((e) => JSON.stringify(e).slice(0, 2000))
      .join('\n');
    throw new Error(`error-level log line(s) ${where}:\n${quoted}`);
  }

  private push(line: string): void {
    try {
      this.entries.push(JSON.parse(line) as ErrorEntry);
    } catch {
      this.entries.push({ msg: line });
    }
  }
}
