/** Runs the real `bin/bwc-emu` (from dist/: `npm run build` first) to its end, for CLI tests. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(__dirname, '../..');
/** This Node.js, for the emulator and for `node -e` commands run under `bwc-emu run`. */
export const NODE = process.execPath;

/** How the process ended: its exit code (null when killed) and what it printed. */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bwc-emu ...args` to its end (killed after 20 s). */
export function runBwcEmu(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(NODE, [join(ROOT, 'bin/bwc-emu'), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number | string }).code : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}
