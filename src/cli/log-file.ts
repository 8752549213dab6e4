/** `--log-file FILE`: log lines appended to a file instead of written to a stream. */
import { closeSync, openSync, writeSync } from 'node:fs';

/** Where log lines go, and how to let go of it once the command ends. */
export interface LogSink {
  write: (line: string) => void;
  close: () => void;
}

/** Opens `path` for appending; throws naming `--log-file` when it cannot be opened. */
export function openLogFile(path: string): LogSink {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'a');
  } catch (err) {
    throw new Error(`--log-file ${path}: cannot open it: ${(err as Error).message}`);
  }
  return {
    // Written at once: a line must not be lost when the command ends or the process is killed.
    write: (line) => {
      if (fd !== undefined) writeSync(fd, line);
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
