/**
 * Runs one fuzz surface: `fc.assert` over the cases in batches, each batch with its own
 * seed (the run's seed plus the batch number) so a run is reproducible and a failure
 * names the seed and the counterexample. Per case: the outcome is tallied, and an
 * error-level log line written during it fails the case. After each batch: the
 * server still serves (`alive`) and nothing was logged at error level since.
 */
import fc from 'fast-check';
import type { ErrorLog } from './error-log';
import type { FuzzSettings } from './fuzz-settings';
import type { Tally } from './fuzz-tally';

/** One surface's run. */
export interface FuzzRun<T> {
  settings: FuzzSettings;
  tally: Tally;
  /** Error-level lines of the server(s) under test. */
  errors: ErrorLog;
  arbitrary: fc.Arbitrary<T>;
  /** Sends one case and checks the answer (throwing when it is wrong); returns the outcome to tally. */
  check: (input: T) => Promise<string>;
  /** Throws unless the server still answers a normal request as it should. */
  alive: () => Promise<void>;
}

/** Longest failure message kept (a counterexample can be a 20 KB header). */
const MAX_MESSAGE = 20_000;

/** Runs every batch; throws at the first failing one with the seed, batch and counterexample. */
export async function runFuzz<T>(run: FuzzRun<T>): Promise<void> {
  const { settings, tally, errors } = run;
  const batches = Math.ceil(settings.cases / settings.batchSize);
  await run.alive();
  for (let batch = 0; batch < batches; batch++) {
    const numRuns = Math.min(settings.batchSize, settings.cases - batch * settings.batchSize);
    const seed = settings.seed + batch;
    // After the first failure fast-check shrinks: those runs are not cases of the tally.
    let failed = false;
    const property = fc.asyncProperty(run.arbitrary, async (input) => {
      const before = errors.count;
      try {
        const outcome = await run.check(input);
        errors.expectNoneSince(before, 'during this case');
        if (!failed) tally.add(outcome);
      } catch (err) {
        failed = true;
        throw err;
      }
    });
    try {
      await fc.assert(property, { seed, numRuns });
    } catch (err) {
      throw failure(tally.surface, settings, batch, seed, err);
    }
    await run.alive().catch((err: unknown) => {
      throw failure(tally.surface, settings, batch, seed, err, 'the server did not serve after the batch');
    });
    errors.expectNoneSince(0, `in batch ${batch} (seed ${seed}) or its health check`);
  }
}

function failure(
  surface: string,
  settings: FuzzSettings,
  batch: number,
  seed: number,
  err: unknown,
  what = 'a case failed',
): Error {
  // fast-check puts the property's own error in `cause`.
  const cause = err instanceof Error && err.cause instanceof Error ? `\nGot error: ${err.cause.message}` : '';
  const message = (err instanceof Error ? err.message : String(err)) + cause;
  const upTo = (batch + 1) * settings.batchSize;
  const text =
    `[fuzz ${surface}] ${what}: batch ${batch} (fast-check seed ${seed}, run seed ${settings.seed}).\n` +
    `Rerun: npm run fuzz -- --seed ${settings.seed} --cases ${upTo}  (FUZZ_BATCH=${settings.batchSize})\n${message}`;
  return new Error(text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}\n... (${text.length} chars)` : text);
}
