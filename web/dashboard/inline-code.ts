/**
 * Inline code in the catalogues' text (the fault switches' explanations, the grading rules'
 * fixes): they are written for the Markdown docs, with `code` in backticks. The page shows each
 * such span as a <code> element made with `textContent` like any text (dom.ts `withCode`): never
 * Markdown rendered as HTML, so nothing in the text can make an element but the <code> itself.
 * No DOM here: the unit tests check this file with Node's types.
 */

/** A piece of a text: plain, or inline code (what was between a pair of backticks). */
export interface TextSpan {
  text: string;
  code: boolean;
}

/**
 * `text` cut at its backticks: what lies between a pair is code, without the backticks. A
 * backtick with no partner stays as it is, and so does an empty pair; empty pieces are left out.
 */
export function codeSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const plain = (piece: string): void => {
    if (piece === '') return;
    const last = spans[spans.length - 1];
    if (last && !last.code) last.text += piece;
    else spans.push({ text: piece, code: false });
  };
  let at = 0;
  for (const match of text.matchAll(/`([^`]+)`/g)) {
    plain(text.slice(at, match.index));
    spans.push({ text: match[1], code: true });
    at = match.index + match[0].length;
  }
  plain(text.slice(at));
  return spans;
}
