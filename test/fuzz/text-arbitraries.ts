/**
 * Text the fuzz surfaces build inputs from: header-safe characters, a sprinkle of
 * UTF-8 and control bytes, syntax pieces parsers trip on, and long runs. Strings
 * here never hold CR or LF, so a header value cannot turn into a second header line.
 */
import fc from 'fast-check';

/** Printable ASCII mostly, some tabs, Latin-1, wider Unicode and a few control characters. */
const headerChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant('\t') },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', '€', '中', '😀', '\u200b', '\ufeff', '\ud800') },
  { weight: 1, arbitrary: fc.constantFrom('\0', '\x01', '\x1b', '\x7f', '\v', '\f') },
);

/** A string of {@link headerChar}s, at most `maxLength` long. */
export function headerText(maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: headerChar, maxLength });
}

/** A long run of one character: buffer sizes and limits (`minLength`..`maxLength` long). */
export function longRun(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: minLength, max: maxLength }), fc.constantFrom('a', '0', '"', '\\', ' ', ',', '%', 'é'))
    .map(([length, ch]) => ch.repeat(length));
}

/** Pieces that matter to auth-param and JSON parsers, to get past their first check more often. */
export const syntaxPiece: fc.Arbitrary<string> = fc.constantFrom(
  '"',
  '\\',
  ',',
  '=',
  ' ',
  '\t',
  '""',
  '\\"',
  ', ',
  '="',
  'Digest ',
  'Basic ',
  '{',
  '}',
  '[',
  ']',
  ':',
  'null',
  '1e999',
  '-0',
);

/** A text edit: applied to a string, it returns the edited string. */
export type TextEdit = (text: string) => string;

/** Truncations, deletions, insertions and dropped quotes anywhere in a text. */
export const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.nat().map(
    (i): TextEdit =>
      (t) =>
        t.slice(0, i % (t.length + 1)),
  ),
  fc.nat().map(
    (i): TextEdit =>
      (t) =>
        t.length ? t.slice(0, i % t.length) + t.slice((i % t.length) + 1) : t,
  ),
  fc.tuple(fc.nat(), fc.oneof(syntaxPiece, headerText(10))).map(([i, piece]): TextEdit => (t) => {
    const at = i % (t.length + 1);
    return t.slice(0, at) + piece + t.slice(at);
  }),
  fc.nat().map((i): TextEdit => (t) => {
    const quotes = [...t].flatMap((c, j) => (c === '"' ? [j] : []));
    if (quotes.length === 0) return t;
    const at = quotes[i % quotes.length];
    return t.slice(0, at) + t.slice(at + 1);
  }),
);

/** `text` with the edits applied in order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return edits.reduce((t, edit) => edit(t), text);
}

/** `text` as UTF-8 with every byte but the unreserved ones percent-encoded (lone surrogates become U+FFFD). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
