/**
 * A logger for a device under test that keeps every entry and lets a test wait
 * for one: server-side happenings (a session closed, a client too slow) become
 * events to await instead of something to poll or sleep for.
 */
import { WAIT_MS } from './event-stream-client';
import { createLogger, type Logger } from '../../src';

/** One parsed log entry (pino JSON line). */
export type LogEntry = Record<string, unknown> & { msg?: string; level?: number };

interface LogWaiter {
  match: (entry: LogEntry) => boolean;
  resolve: (entry: LogEntry) => void;
}

/** Collects the entries of a logger at `debug` and above. */
export class LogTap {
  readonly entries: LogEntry[] = [];
  readonly logger: Logger;
  private readonly waiters = new Set<LogWaiter>();

  constructor() {
    this.logger = createLogger({ level: 'debug', write: (line) => this.push(line) });
  }

  /** Entries whose message is `msg`. */
  withMessage(msg: string): LogEntry[] {
    return this.entries.filter((e) => e.msg === msg);
  }

  /** Resolves with the first entry (already logged or to come) that matches. */
  waitFor(match: (entry: LogEntry) => boolean, what: string, timeoutMs = WAIT_MS): Promise<LogEntry> {
    const found = this.entries.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: LogWaiter = {
        match,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for the log entry: ${what}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private push(line: string): void {
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      return;
    }
    this.entries.push(entry);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(entry)) {
        this.waiters.delete(waiter);
        waiter.resolve(entry);
      }
    }
  }
}
