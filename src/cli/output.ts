/**
 * The process's own output, written so that it never holds the program: stdout and
 * stderr are made non-blocking, log lines are dropped (and counted) once too much
 * waits unread, and {@link flushOutput} gives up on a reader that has stopped reading.
 * A program run by a test harness that never reads its stdout still stops on a signal.
 */
import type { CliIo } from './parse';

/** Bytes that may wait unread on a stream before log lines are dropped. */
const MAX_QUEUED_BYTES = 1024 * 1024;

/** What {@link droppingWriter} needs of a stream (process.stdout is one). */
export interface OutputStream {
  write(text: string): boolean;
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Writes log lines to `stream` while at most `limit` bytes wait unread; past that, drops
 * them and, once the stream drains, writes one line saying how many were dropped (a
 * pino-style JSON line when the dropped lines were JSON).
 */
export function droppingWriter(stream: OutputStream, limit = MAX_QUEUED_BYTES): (line: string) => void {
  let dropped = 0;
  let json = false;
  return (line) => {
    if (stream.writableLength <= limit) {
      stream.write(line);
      return;
    }
    if (dropped === 0)
      stream.once('drain', () => {
        stream.write(droppedNotice(dropped, json));
        dropped = 0;
      });
    dropped++;
    json = line.startsWith('{');
  };
}

/** The line that says `count` log lines were dropped. */
function droppedNotice(count: number, json: boolean): string {
  const msg = `${count} log line(s) dropped: the output was not read fast enough`;
  return json ? `${JSON.stringify({ level: 40, time: Date.now(), msg, dropped: count })}\n` : `bwc-emu: WARN ${msg}\n`;
}

/** The libuv handle behind a stdio stream on a pipe or socket (not in Node's types). */
interface StdioHandle {
  setBlocking?: (blocking: boolean) => number;
}

/**
 * Makes stdout and stderr non-blocking where they are pipes or sockets (Node makes them
 * blocking on Windows; TTYs and files stay as they are): a write then queues instead of
 * stopping the event loop while nobody reads. Node has no public API for this.
 */
export function unblockProcessOutput(): void {
  for (const stream of [process.stdout, process.stderr])
    (stream as unknown as { _handle?: StdioHandle })._handle?.setBlocking?.(false);
}

/**
 * Resolves once what waits on stdout and stderr is written, or as soon as it stops
 * draining for `stallMs` (nobody reads): a reader keeps getting the output, a pipe that is
 * never read does not keep the program alive.
 */
export function flushOutput(
  stallMs = 250,
  streams: readonly OutputStream[] = [process.stdout, process.stderr],
): Promise<void> {
  const waiting = (): number => streams.reduce((n, s) => n + s.writableLength, 0);
  return new Promise<void>((resolve) => {
    let last = waiting();
    let since = Date.now();
    const check = (): void => {
      const now = waiting();
      if (now === 0) return resolve();
      if (now < last) [last, since] = [now, Date.now()];
      if (Date.now() - since >= stallMs) return resolve();
      setTimeout(check, 20);
    };
    check();
  });
}

/** Lazily: `process.stdout` is made on first use. */
let stdoutLog: ((line: string) => void) | undefined;

/** The process's own stdout, stderr and signals; log lines may be dropped, nothing else is. */
export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  log: (line) => (stdoutLog ??= droppingWriter(process.stdout))(line),
  stopSignal: () =>
    new Promise((resolve) => {
      const stop = (signal: string): void => resolve(signal);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
  isTty: Boolean(process.stdout.isTTY),
  errIsTty: Boolean(process.stderr.isTTY),
};
