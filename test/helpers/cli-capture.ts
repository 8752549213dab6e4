/** Runs the CLI in-process with its output captured and its stop signal in the test's hands. */
import type { CliIo } from '../../src/cli/main';

/** Captured output, and a way to stop the running command. */
export interface Captured {
  io: CliIo;
  out: () => string;
  err: () => string;
  stop: (signal?: string) => void;
  /** Resolves when the banner ("Press Ctrl+C to stop.") has been printed (on stderr unless `isTty`). */
  started: Promise<void>;
}

/**
 * A fresh capture for one `main()` call; `isTty` makes the CLI believe stdout is a terminal
 * (pretty logs, the banner on stdout, the built-in default secrets shown).
 */
export function capture(options: { isTty?: boolean } = {}): Captured {
  let out = '';
  let err = '';
  let stop: (signal: string) => void = () => {};
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const io: CliIo = {
    out: (text) => {
      out += text;
      if (out.includes('Press Ctrl+C to stop.')) markStarted();
    },
    err: (text) => {
      err += text;
      if (err.includes('Press Ctrl+C to stop.')) markStarted();
    },
    stopSignal: () => new Promise((resolve) => (stop = resolve)),
    isTty: options.isTty ?? false,
  };
  return { io, out: () => out, err: () => err, stop: (signal = 'SIGINT') => stop(signal), started };
}
