/**
 * Every grading rule has an end-to-end test: the ids in the `describeRule(...)` calls of
 * this folder's test files are exactly the rule table's.
 */
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { describedNames } from '../../helpers/described-names';

const described = () => describedNames(__dirname, 'describeRule', __filename);

describe('grading rule coverage', () => {
  it('finds the e2e test files', () => {
    expect(described().files.length).toBeGreaterThan(0);
  });

  it('every rule in RULES has an end-to-end test, and every describeRule names a rule', () => {
    const { names } = described();
    const known = new Set<string>(RULE_IDS);
    const untested = RULE_IDS.filter((id) => !names.has(id));
    const notRules = [...names].filter((id) => !known.has(id)).sort();
    expect({ untested, notRules }).toEqual({ untested: [], notRules: [] });
  });
});
