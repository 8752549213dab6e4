/**
 * The start of a big fleet for a person watching: one line on stderr redrawn in place (`\r`),
 * `starting devices: 45,000 / 100,000 (45%)`, cleared once the devices are up so the ready
 * line and the banner start on a clean line. Only at a terminal and only for a fleet that
 * takes a while to start: CI logs and pipes get nothing (a `\r` line is noise in a file).
 */

/** Fleets of more devices than this show the progress line (about a second of start-up). */
export const PROGRESS_MIN_DEVICES = 1000;

/** Draws the start's progress; `end` clears the line (call it whether the start succeeded or not). */
export interface StartProgress {
  /** An emulator `onProgress`: `started` of `total` devices listen. */
  onProgress: ((started: number, total: number) => void) | undefined;
  /** Clears the line, if one was drawn. */
  end: () => void;
}

/** Nothing to draw. */
const NO_PROGRESS: StartProgress = { onProgress: undefined, end: () => undefined };

/**
 * The progress line of a start of `devices` devices written to `write` (stderr), when
 * `isTty` (stderr is a terminal) and the fleet has more than {@link PROGRESS_MIN_DEVICES}.
 */
export function startProgress(write: (text: string) => void, isTty: boolean, devices: number): StartProgress {
  if (!isTty || !(devices > PROGRESS_MIN_DEVICES)) return NO_PROGRESS;
  let drawn = false;
  return {
    onProgress: (started, total) => {
      drawn = true;
      // \x1b[K clears what a longer earlier line left to the right.
      write(`\r${progressText(started, total)}\x1b[K`);
    },
    end: () => {
      if (drawn) write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** `starting devices: 45,000 / 100,000 (45%)`. */
export function progressText(started: number, total: number): string {
  const percent = total > 0 ? Math.floor((started / total) * 100) : 100;
  return `starting devices: ${grouped(started)} / ${grouped(total)} (${percent}%)`;
}

/** `100000` -> `100,000`, whatever the machine's locale. */
function grouped(n: number): string {
  return n.toLocaleString('en-US');
}
