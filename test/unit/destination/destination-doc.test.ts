/**
 * docs/destination.md lists every Swift feature the destination refuses, with what asks
 * for it: the table there must name each entry of UNSUPPORTED_FEATURES, so a feature
 * added to the table in code without a line in the docs fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNSUPPORTED_FEATURES, unsupportedFeatureNames } from '../../../src/protocol/swift-unsupported';

const doc = readFileSync(join(__dirname, '../../../docs/destination.md'), 'utf8');
const start = doc.indexOf('### Not implemented, and refused');
const section = doc.slice(start, doc.indexOf('\n## ', start));
const rows = new Map(
  section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| feature') && !line.startsWith('|---'))
    .map((line) => {
      const [feature = '', askedBy = ''] = line.slice(2, -2).split(' | ');
      return [feature, askedBy] as const;
    }),
);

describe('docs/destination.md, "Not implemented, and refused"', () => {
  it('has one row per refused feature, and no other', () => {
    expect([...rows.keys()].sort()).toEqual(unsupportedFeatureNames().sort());
  });

  it.each(UNSUPPORTED_FEATURES.map((f) => [f.feature, f.trigger] as const))(
    '%s: the row names what asks for it (%s)',
    (feature, trigger) => {
      // The first header or parameter of the trigger, without its punctuation.
      const first = trigger.split(' / ')[0].replace(/^the /, '').split(' ')[0].replace(/=.*/, '');
      expect(rows.get(feature)).toContain(first);
    },
  );
});
