/** grade()'s thresholds: defaults, overrides that change a verdict, and refusals of bad values. */
import { EmulatorError } from '../../../src/base/errors';
import { DEFAULT_THRESHOLDS, type GradingThresholds } from '../../../src/grading/report';
import { JournalBuilder, ruleIds } from './journal-builder';

/** A session opened at 0 and never configured, graded at 15 s. */
function unconfigured(thresholds?: Partial<GradingThresholds>) {
  const b = new JournalBuilder();
  b.at(0).wsOpen('s1');
  return b.grade(b.time(15_000), { thresholds });
}

describe('grading thresholds', () => {
  it('reports the defaults, and an override changes the verdict', () => {
    expect(unconfigured().thresholds).toEqual(DEFAULT_THRESHOLDS);
    expect(ruleIds(unconfigured())).toEqual(['configure-missing']);
    const patient = unconfigured({ configureWithinMs: 20_000, maxSessionsPerClient: undefined });
    expect(ruleIds(patient)).toEqual([]);
    expect(patient.thresholds).toEqual({ ...DEFAULT_THRESHOLDS, configureWithinMs: 20_000 });
  });

  it.each([
    [{ configureWithinMs: -1 }, 'configureWithinMs must be a number of milliseconds, 0 or more, not -1'],
    [{ reconnectWithinMs: Number.NaN }, 'reconnectWithinMs must be a number of milliseconds, 0 or more, not NaN'],
    [{ minRetryRun: 0 }, 'minRetryRun must be a whole number of 1 or more, not 0'],
    [{ maxSessionsPerClient: 1.5 }, 'maxSessionsPerClient must be a whole number of 1 or more, not 1.5'],
    [{ staleRetryWithinMs: '5s' }, 'staleRetryWithinMs must be a number of milliseconds, 0 or more, not "5s"'],
    [{ retryMs: 5 }, 'no grading threshold "retryMs"; thresholds: minRetryIntervalMs'],
  ])('refuses %j with BAD_OPTION', (thresholds, message) => {
    let thrown: unknown;
    try {
      unconfigured(thresholds as unknown as Partial<GradingThresholds>);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(EmulatorError);
    expect((thrown as EmulatorError).code).toBe('BAD_OPTION');
    expect((thrown as EmulatorError).message).toContain(message);
  });
});
