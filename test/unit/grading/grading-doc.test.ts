/**
 * docs/grading.md is the rule table's own text, with how the rules were tried taken from the
 * matrices' own tables: regenerate with `npm run docs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GRADING_DOC_FILE, type GradingCoverage, gradingDoc } from '../../../src/grading/grading-doc';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { MISTAKE_CASES } from '../../integration/grading/mistake-cases';
import { MATRIX_CASES } from '../../integration/grading/reference-cases';
import { CLIENT_KINDS, CLIENT_LIBRARIES } from '../../integration/grading/reference-client';

const COVERAGE: GradingCoverage = {
  clients: CLIENT_KINDS.map((kind) => CLIENT_LIBRARIES[kind]),
  cases: MATRIX_CASES.map((c) => c.name),
  mistakes: MISTAKE_CASES.map((c) => ({
    mistake: c.what,
    under: c.disturbance.name,
    rule: c.rule,
    ...(c.knownMiss === undefined ? {} : { missed: c.knownMiss }),
  })),
};

describe('docs/grading.md', () => {
  if (process.env.UPDATE_DOCS === '1') writeFileSync(GRADING_DOC_FILE, gradingDoc(COVERAGE));

  it('is current with the rule table and the matrices (regenerate: npm run docs)', () => {
    expect(readFileSync(GRADING_DOC_FILE, 'utf8')).toBe(gradingDoc(COVERAGE));
  });

  it('has a row and a section for every rule, each saying how it was tried', () => {
    const doc = gradingDoc(COVERAGE);
    for (const id of RULE_IDS) {
      expect(doc).toContain(`| \`${id}\` |`);
      expect(doc).toMatch(new RegExp(`### \`${id}\`[^#]*Tested: no warning or error for the 2 reference clients`));
    }
  });
});
