/**
 * Which thresholds and rules a report applies: the emulator's standing choice (`startEmulator`'s
 * `grading`, the command line's `--threshold`, `--rules`, `--skip-rules`) with a request's over it
 * (`report()`'s options, `GET /_emu/report`'s query). Values as text (a command line, a query)
 * are read here, so every source gets the same errors, each naming the bad value and the
 * valid ones. The names come from the tables (DEFAULT_THRESHOLDS, RULES): a threshold or rule
 * added there is taken everywhere.
 */
import { EmulatorError } from '../base/errors';
import { checkedThresholds } from './grade';
import { DEFAULT_THRESHOLDS, type GradingThresholds } from './report';
import { RULE_IDS, type RuleId } from './rule-catalogue';

/** What a caller asks for; every field optional. */
export interface GradingChoice {
  /** Thresholds by name (docs/grading.md#thresholds): numbers, or their decimal text. */
  readonly thresholds?: Readonly<Record<string, number | string | undefined>>;
  /** Only these rules (ids; an entry may hold several, comma-separated). */
  readonly rules?: readonly string[];
  /** Every rule but these (ids; an entry may hold several, comma-separated). */
  readonly skipRules?: readonly string[];
}

/** The thresholds and the rules a report applies. */
export interface GradingSelection {
  readonly thresholds: GradingThresholds;
  /** The rules applied, in the table's order. */
  readonly rules: readonly RuleId[];
}

/** What the errors call the two rule lists (the command line calls them `--rules`, `--skip-rules`). */
export interface RuleListNames {
  readonly rules: string;
  readonly skipRules: string;
}

/** Every rule under the default thresholds. */
export const DEFAULT_SELECTION: GradingSelection = Object.freeze({ thresholds: DEFAULT_THRESHOLDS, rules: RULE_IDS });

/** A decimal number as text (`1500`, `0.5`, `2e3`): nothing else is read as one. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * `base` with `choice` over it: its thresholds over base's, and its rules (when it names any)
 * instead of base's. `BAD_OPTION` for an unknown threshold or rule, a value that is not a
 * number or out of range, or both `rules` and `skipRules` (called `names` in the errors).
 */
export function gradingSelection(
  choice: GradingChoice = {},
  base: GradingSelection = DEFAULT_SELECTION,
  names: RuleListNames = { rules: 'rules', skipRules: 'skipRules' },
): GradingSelection {
  const given = Object.entries(choice.thresholds ?? {}).map(([name, value]) => [name, numberOf(value)]);
  const thresholds = checkedThresholds(Object.fromEntries(given) as Partial<GradingThresholds>, base.thresholds);
  return { thresholds, rules: ruleSelection(choice, base.rules, names) };
}

/** The rules `choice` applies, or `base` when it names none. */
function ruleSelection(choice: GradingChoice, base: readonly RuleId[], names: RuleListNames): readonly RuleId[] {
  if (choice.rules !== undefined && choice.skipRules !== undefined)
    throw new EmulatorError(
      'BAD_OPTION',
      `give ${names.rules} (only these) or ${names.skipRules} (all but these), not both`,
    );
  if (choice.rules !== undefined) {
    const only = new Set(ruleIds(choice.rules, names.rules));
    if (only.size === 0)
      throw new EmulatorError('BAD_OPTION', `${names.rules} names no rule; the rules: ${RULE_IDS.join(', ')}`);
    return RULE_IDS.filter((id) => only.has(id));
  }
  if (choice.skipRules !== undefined) {
    const skipped = new Set(ruleIds(choice.skipRules, names.skipRules));
    return RULE_IDS.filter((id) => !skipped.has(id));
  }
  return base;
}

/** The rule ids of `texts` (comma-separated lists); `BAD_OPTION` naming an unknown one and the known ones. */
function ruleIds(texts: readonly string[], field: string): RuleId[] {
  const ids = texts
    .flatMap((text) => String(text).split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const known = new Set<string>(RULE_IDS);
  const isRuleId = (id: string): id is RuleId => known.has(id);
  const unknown = ids.find((id) => !isRuleId(id));
  if (unknown !== undefined)
    throw new EmulatorError('BAD_OPTION', `${field}: no rule "${unknown}"; the rules: ${RULE_IDS.join(', ')}`);
  return ids.filter(isRuleId);
}

/** A threshold's value as a number when it is decimal text; anything else as it is, for checkedThresholds to name. */
function numberOf(value: unknown): unknown {
  return typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : value;
}
