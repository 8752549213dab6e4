/**
 * Outcome counts of one fuzz surface (status codes, RPC codes, close codes -> how many
 * cases ended so), and how a run shows them: a table on stdout when `FUZZ_TALLY=1`, a
 * JSON file in `FUZZ_TALLY_DIR` for `scripts/fuzz.js` to merge. Silent otherwise, to
 * keep `npm test` quiet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one surface's run produced. */
export interface TallyRecord {
  surface: string;
  seed: number;
  cases: number;
  ms: number;
  outcomes: Record<string, number>;
}

/** Counts outcomes of one surface. */
export class Tally {
  private readonly counts = new Map<string, number>();
  private cases = 0;
  private readonly started = Date.now();

  constructor(
    readonly surface: string,
    readonly seed: number,
  ) {}

  /** Counts one case's outcome, e.g. `401`, `rpc 2104`, `close 1002`. */
  add(outcome: string): void {
    this.cases++;
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
  }

  /** How many cases ended with `outcome`. */
  count(outcome: string): number {
    return this.counts.get(outcome) ?? 0;
  }

  /** The run so far, outcomes sorted by name. */
  record(): TallyRecord {
    const outcomes = Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
    return { surface: this.surface, seed: this.seed, cases: this.cases, ms: Date.now() - this.started, outcomes };
  }

  /** Prints or saves the tally as the environment asks (see the file comment). */
  report(): void {
    const record = this.record();
    const dir = process.env.FUZZ_TALLY_DIR;
    if (dir) writeFileSync(join(dir, `${record.surface}.json`), JSON.stringify(record));
    if (process.env.FUZZ_TALLY === '1') process.stdout.write(`${formatTally([record])}\n`);
  }
}

/** A plain-text table: one block per surface, one line per outcome. */
export function formatTally(records: readonly TallyRecord[]): string {
  const lines: string[] = [];
  for (const r of records) {
    lines.push(`${r.surface}: ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s (seed ${r.seed})`);
    for (const [outcome, n] of Object.entries(r.outcomes))
      lines.push(`  ${outcome.padEnd(36)} ${String(n).padStart(8)}  ${((100 * n) / Math.max(1, r.cases)).toFixed(1)}%`);
  }
  return lines.join('\n');
}
