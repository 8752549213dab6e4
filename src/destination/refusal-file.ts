/**
 * The refusals of recordings, kept across restarts: `{dataDir}/refused-recordings.json`.
 * A refused recording often has no container at all (unregistered user, bad time in
 * its name), so the store cannot tell about it; this small file does.
 *
 * Written synchronously and atomically (temporary file, fsync, rename, directory fsync)
 * before the 400 is answered: once a body worn system has seen the refusal and marked the
 * recording "not transferred", the destination says the same after any restart. Refusals
 * are rare (a recording that can never be stored), so the blocking write costs little;
 * the file keeps the newest {@link MAX_REFUSALS_KEPT} so a client refused in a loop cannot
 * make each write slower.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../base/atomic-file';
import type { Logger } from '../base/log';

/** Name of the file in the data directory. */
export const REFUSAL_FILE_NAME = 'refused-recordings.json';

/** How many refusals the file keeps (the newest). */
export const MAX_REFUSALS_KEPT = 1000;

/** One refusal: a rule refused a recording's container write (`container`) or one of its clips (`clip`). */
export interface Refusal {
  account: string;
  container: string;
  reason: string;
  part: 'container' | 'clip';
  /** Epoch ms of the refusal. */
  at: number;
}

/** The persisted refusals of one data directory. */
export class RefusalFile {
  constructor(readonly path: string) {}

  /** What an earlier run wrote; a missing file is none, an unreadable one is logged and read as none. */
  read(log: Logger): Refusal[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        log.warn({ file: this.path, err: (err as Error).message }, 'cannot read the refused recordings');
      return [];
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      log.warn({ file: this.path, err: (err as Error).message }, 'the refused recordings file is not JSON; ignored');
      return [];
    }
    const entries = (parsed as { refusals?: unknown } | null)?.refusals;
    if (!Array.isArray(entries)) {
      log.warn({ file: this.path }, 'the refused recordings file has no list of refusals; ignored');
      return [];
    }
    const refusals = (entries as unknown[]).filter(isRefusal);
    if (refusals.length !== entries.length)
      log.warn({ file: this.path }, 'skipped malformed entries of the refused recordings');
    return refusals;
  }

  /** Replaces the file with `refusals` (the newest {@link MAX_REFUSALS_KEPT}); throws when the disk refuses. */
  write(refusals: readonly Refusal[]): void {
    const kept = [...refusals].sort((a, b) => a.at - b.at).slice(-MAX_REFUSALS_KEPT);
    writeFileAtomicSync(this.path, `${JSON.stringify({ version: 1, refusals: kept }, null, 1)}\n`);
  }
}

/** The refusal file of a data directory. */
export function refusalFileIn(dataDir: string): RefusalFile {
  return new RefusalFile(join(dataDir, REFUSAL_FILE_NAME));
}

function isRefusal(value: unknown): value is Refusal {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.account === 'string' &&
    typeof r.container === 'string' &&
    typeof r.reason === 'string' &&
    (r.part === 'container' || r.part === 'clip') &&
    typeof r.at === 'number' &&
    Number.isFinite(r.at)
  );
}
