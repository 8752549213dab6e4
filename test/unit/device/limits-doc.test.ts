/** docs/limits.md is the limit table's own text: regenerate with `npm run docs`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { DEVICE_LIMITS } from '../../../src/device/device-limits';
import { LIMITS_DOC_FILE, limitsDoc } from '../../../src/device/limits-doc';

describe('docs/limits.md', () => {
  if (process.env.UPDATE_DOCS === '1') writeFileSync(LIMITS_DOC_FILE, limitsDoc());

  it('is current with the table of limits (regenerate: npm run docs)', () => {
    expect(readFileSync(LIMITS_DOC_FILE, 'utf8')).toBe(limitsDoc());
  });

  it('has a row for every limit', () => {
    for (const spec of DEVICE_LIMITS) expect(limitsDoc()).toContain(`| \`${spec.name}\` |`);
  });
});
