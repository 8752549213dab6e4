/** docs/faults.md is the catalogue's own text: regenerate with `npm run docs`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { FAULTS_DOC_FILE, faultsDoc } from '../../../../src/device/faults/faults-doc';
import { FAULT_NAMES } from '../../../../src/protocol/fault-catalogue';

describe('docs/faults.md', () => {
  if (process.env.UPDATE_DOCS === '1') writeFileSync(FAULTS_DOC_FILE, faultsDoc());

  it('is current with the fault catalogue (regenerate: npm run docs)', () => {
    expect(readFileSync(FAULTS_DOC_FILE, 'utf8')).toBe(faultsDoc());
  });

  it('has a row and a parameter section for every switch', () => {
    const doc = faultsDoc();
    for (const name of FAULT_NAMES) {
      expect(doc).toContain(`| \`${name}\` |`);
      expect(doc).toContain(`### \`${name}\``);
    }
  });
});
