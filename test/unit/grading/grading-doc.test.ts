/** docs/grading.md is the rule table's own text: regenerate with `npm run docs`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { GRADING_DOC_FILE, gradingDoc } from '../../../src/grading/grading-doc';
import { RULE_IDS } from '../../../src/grading/rules';

describe('docs/grading.md', () => {
  if (process.env.UPDATE_DOCS === '1') writeFileSync(GRADING_DOC_FILE, gradingDoc());

  it('is current with the rule table (regenerate: npm run docs)', () => {
    expect(readFileSync(GRADING_DOC_FILE, 'utf8')).toBe(gradingDoc());
  });

  it('has a row and a section for every rule', () => {
    const doc = gradingDoc();
    for (const id of RULE_IDS) {
      expect(doc).toContain(`| \`${id}\` |`);
      expect(doc).toContain(`### \`${id}\``);
    }
  });
});
