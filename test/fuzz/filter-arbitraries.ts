/**
 * Topic and content filter strings for `events:configure`, from a small generator that
 * follows each grammar (src/events/topic-filter.ts, src/events/content-filter.ts), so
 * most cases get past the first character, and then edited with pieces each grammar
 * cares about, so the parsers also meet almost-valid text.
 */
import fc from 'fast-check';
import { applyEdits, headerText, longRun, type TextEdit, textEdit } from './text-arbitraries';

/** One of `common` mostly, one of `odd` now and then (an odd token in every term would spoil most filters). */
function rarely(common: string[], odd: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...common) },
    { weight: 1, arbitrary: fc.constantFrom(...odd) },
  );
}

const prefix = fc.constantFrom('tns1', 'tnsvendor', 'onvif', 'tnsaxis', 'tt', 'constructor', '__proto__', 'x');
const topicWord = fc.constantFrom(
  'Device',
  'IO',
  'Port',
  'Status',
  'SystemReady',
  'VideoSource',
  'MotionAlarm',
  'RuleEngine',
  'Trigger',
);
const ncName = fc.oneof(
  { weight: 6, arbitrary: topicWord },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,12}$/) },
  { weight: 1, arbitrary: fc.constantFrom('Été', 'Ωmega', '中文', 'a\u0301', '_', 'x.y-z') },
  { weight: 1, arbitrary: longRun(200, 3000).map((run) => `N${run.replace(/[^A-Za-z0-9]/g, 'n')}`) },
);
const topicName = fc.oneof(
  ncName,
  fc.tuple(prefix, ncName).map(([p, n]) => `${p}:${n}`),
);
const topicPath = fc
  .tuple(fc.array(topicName, { minLength: 1, maxLength: 5 }), fc.constantFrom('', '', '', '//', '//.'))
  .map(([names, tail]) => names.join('/') + tail);
const bar = fc.constantFrom('|', '|', ' | ', '\t|\n');

/** A topic expression: paths joined by '|', or a match-all form. */
const topicExpression: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.array(topicPath, { minLength: 1, maxLength: 6 }), bar).map(([ps, b]) => ps.join(b)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '//.', 'tns1:Device//.', '|', '//', '/') },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 200, max: 400 })
      .map((n) => Array.from({ length: n }, (_, i) => `tns1:T${i}`).join('|')),
  },
);

const quotedText = fc
  .oneof(fc.constantFrom('1', '0', 'port', 'state', 'ready', ''), headerText(12))
  .chain((text) => fc.constantFrom(`'${text.replace(/'/g, '')}'`, `"${text.replace(/"/g, '')}"`));
const comparison = fc
  .tuple(rarely(['@Name', '@Value'], ['@name', '@Other']), rarely(['=', '=', ' = '], ['!=', '==']), quotedText)
  .map(([attr, eq, text]) => `${attr}${eq}${text}`);
const joiner = rarely([' and ', ' or ', '\tand\n'], [' AND ', 'and']);

/** Attribute expressions nested up to `depth` deep. */
const attrExpression: fc.Arbitrary<string> = fc.letrec<{ attr: string }>((tie) => ({
  attr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(tie('attr'), joiner, tie('attr')).map(([a, j, b]) => a + j + b),
    tie('attr').map((a) => `(${a})`),
    tie('attr').map((a) => `not(${a})`),
  ),
})).attr;

const item = fc
  .tuple(
    fc.constantFrom('', 'tt:', 'x:'),
    rarely(['SimpleItem', 'SimpleItem', 'ElementItem'], ['Item', 'simpleitem']),
    attrExpression,
  )
  .map(([p, element, attr]) => `boolean(//${p}${element}[${attr}])`);

const contentGrammar: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    item,
    fc.tuple(tie('expr'), joiner, tie('expr')).map(([a, j, b]) => a + j + b),
    tie('expr').map((e) => `(${e})`),
    tie('expr').map((e) => `not(${e})`),
  ),
})).expr;

/** `not(not(...))` or `((...))` deeper than the device's nesting limit, or just under it. */
const deepContent = fc
  .tuple(fc.integer({ min: 30, max: 5000 }), fc.boolean())
  .map(([depth, nots]) =>
    nots
      ? `${'not('.repeat(depth)}boolean(//SimpleItem[@Name='a'])${')'.repeat(depth)}`
      : `${'('.repeat(depth)}boolean(//SimpleItem[@Name='a'])${')'.repeat(depth)}`,
  );

/** A content filter: from the grammar, or nested past the limit. */
const contentExpression = fc.oneof({ weight: 9, arbitrary: contentGrammar }, { weight: 1, arbitrary: deepContent });

/** Pieces of both grammars, inserted anywhere. */
const filterPiece = fc.constantFrom(
  '|',
  '/',
  '//',
  '//.',
  ':',
  '(',
  ')',
  '[',
  ']',
  '@',
  "'",
  '"',
  ' and ',
  ' or ',
  'not(',
  'boolean(',
  '=',
  ' ',
  '\u00a0',
  '\0',
);

const filterEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  textEdit,
  fc.tuple(fc.nat(), filterPiece).map(([i, piece]): TextEdit => (t) => {
    const at = i % (t.length + 1);
    return t.slice(0, at) + piece + t.slice(at);
  }),
);

/** A filter string from `grammar`, edited now and then. */
function edited(grammar: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      grammar,
      fc.oneof(
        { weight: 2, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(filterEdit, { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([text, edits]) => applyEdits(text, edits));
}

/** Topic filters: grammar-made, edited, or random text. */
export const topicFilter: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: edited(topicExpression) },
  { weight: 1, arbitrary: headerText(40) },
);

/** Content filters: grammar-made, edited, or random text. */
export const contentFilter: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: edited(contentExpression) },
  { weight: 1, arbitrary: headerText(40) },
);
