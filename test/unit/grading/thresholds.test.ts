/** grade()'s thresholds: defaults, overrides that change a verdict, and refusals of bad values; the choice of thresholds and rules from text. */
import { EmulatorError } from '../../../src/base/errors';
import { DEFAULT_THRESHOLDS, type GradingThresholds } from '../../../src/grading/report';
import {
  DEFAULT_SELECTION,
  type GradingChoice,
  gradingSelection,
  type GradingSelection,
} from '../../../src/grading/report-selection';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
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

describe('gradingSelection: thresholds and rules as the command line, the query and report() give them', () => {
  /** The BAD_OPTION message `choice` is refused with. */
  const refusal = (choice: GradingChoice, base?: GradingSelection): string => {
    try {
      gradingSelection(choice, base);
    } catch (err) {
      expect(err).toBeInstanceOf(EmulatorError);
      expect((err as EmulatorError).code).toBe('BAD_OPTION');
      return (err as EmulatorError).message;
    }
    throw new Error(`${JSON.stringify(choice)} was taken`);
  };
  const names = Object.keys(DEFAULT_THRESHOLDS).join(', ');

  it('reads decimal text as numbers, over the base, and applies every rule by default', () => {
    const standing = gradingSelection({ thresholds: { reconnectWithinMs: 5000 } });
    const chosen = gradingSelection(
      { thresholds: { minRetryIntervalMs: ' 1500 ', configureWithinMs: '2e3' } },
      standing,
    );
    expect(chosen.thresholds).toEqual({
      ...DEFAULT_THRESHOLDS,
      reconnectWithinMs: 5000,
      minRetryIntervalMs: 1500,
      configureWithinMs: 2000,
    });
    expect(chosen.rules).toEqual(RULE_IDS);
    expect(gradingSelection()).toEqual(DEFAULT_SELECTION);
  });

  it.each([
    [
      { thresholds: { configureWithinMs: 'soon' } },
      'grading threshold configureWithinMs must be a number of milliseconds, 0 or more, not "soon"',
    ],
    [
      { thresholds: { configureWithinMs: '' } },
      'configureWithinMs must be a number of milliseconds, 0 or more, not ""',
    ],
    [{ thresholds: { configureWithinMs: '0x10' } }, 'not "0x10"'],
    [
      { thresholds: { minRetryRun: '1.5' } },
      'grading threshold minRetryRun must be a whole number of 1 or more, not 1.5',
    ],
    [{ thresholds: { reconnectWithinMs: '-1' } }, 'must be a number of milliseconds, 0 or more, not -1'],
    [{ thresholds: { everything: '1' } }, `no grading threshold "everything"; thresholds: ${names}`],
    [{ thresholds: { toString: '1' } }, 'no grading threshold "toString"'],
    [{ rules: ['token-reused,no-such-rule'] }, `rules: no rule "no-such-rule"; the rules: ${RULE_IDS.join(', ')}`],
    [{ skipRules: ['Token-Reused'] }, 'skipRules: no rule "Token-Reused"; the rules: '],
    [{ rules: [' , '] }, 'rules names no rule; the rules: '],
    [
      { rules: ['auth-failed'], skipRules: ['polling'] },
      'give rules (only these) or skipRules (all but these), not both',
    ],
  ])('refuses %j, naming the value and the valid ones', (choice, message) => {
    expect(refusal(choice as GradingChoice)).toContain(message);
  });

  it('selects only the rules named, in the order of the table, or all but those skipped; either replaces the base', () => {
    const only = gradingSelection({ rules: ['auth-failed, token-reused', 'auth-failed'] });
    expect(only.rules).toEqual(['token-reused', 'auth-failed']);
    const skipped = gradingSelection({ skipRules: ['nonce-not-reused', 'configure-missing'] }, only);
    expect(skipped.rules).toEqual(RULE_IDS.filter((id) => id !== 'nonce-not-reused' && id !== 'configure-missing'));
    expect(gradingSelection({ thresholds: { minRetryRun: 3 } }, only).rules).toEqual(only.rules);
  });
});
