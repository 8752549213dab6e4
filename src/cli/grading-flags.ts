/**
 * The grading flags of `bwc-emu` and `bwc-emu run`: the thresholds and the rules the report
 * applies (`GET /_emu/report`, `report()`, and `run`'s table, `--report`, `--junit` and
 * `--fail-on`), unless a report asks for others. Names and values are checked as the grader
 * checks them (../grading/report-selection), before anything starts.
 */
import type { Options } from 'yargs';
import type { GradingOptions } from '../index';
import { DEFAULT_THRESHOLDS } from '../grading/report';
import { gradingSelection } from '../grading/report-selection';

/** The flags as yargs parses them. */
export interface GradingArgs {
  threshold?: string[];
  rules?: string[];
  skipRules?: string[];
}

/** `--threshold`, `--rules`, `--skip-rules`. */
export function gradingFlags(): Record<string, Options> {
  return {
    threshold: {
      type: 'string',
      array: true,
      describe: `change a grading threshold, name=value (repeatable): ${Object.keys(DEFAULT_THRESHOLDS).join(', ')} (docs/grading.md)`,
    },
    rules: {
      type: 'string',
      array: true,
      describe: 'grade with only these rules: rule ids, comma-separated or repeated (docs/grading.md)',
    },
    'skip-rules': {
      type: 'string',
      array: true,
      describe: 'grade with every rule but these: rule ids, comma-separated or repeated',
    },
  };
}

/** The grading the flags ask for (undefined: none); throws naming the flag or the value at fault. */
export function gradingFrom(args: GradingArgs): GradingOptions | undefined {
  if (args.threshold === undefined && args.rules === undefined && args.skipRules === undefined) return undefined;
  const thresholds: Record<string, string> = {};
  for (const text of args.threshold ?? []) {
    const match = /^\s*([A-Za-z]+)\s*=(.*)$/.exec(String(text));
    if (!match)
      throw new Error(
        `--threshold "${text}" must be name=value, e.g. --threshold reconnectWithinMs=5000 (see docs/grading.md)`,
      );
    thresholds[match[1]] = match[2];
  }
  const choice = {
    thresholds,
    ...(args.rules === undefined ? {} : { rules: args.rules.map(String) }),
    ...(args.skipRules === undefined ? {} : { skipRules: args.skipRules.map(String) }),
  };
  const selection = gradingSelection(choice, undefined, { rules: '--rules', skipRules: '--skip-rules' });
  return { thresholds: selection.thresholds, rules: selection.rules };
}
