/**
 * The lexical layer shared by the topic and content filter compilers: a cursor over
 * the expression, the character classes both grammars agree on, and the syntax error
 * they report. Filters come from clients over the wire, so a bad one is an ordinary
 * outcome (error 2104 with a message that says where), not an exception.
 */
import { err, type Err, type ErrorInfo } from '../base/result';

/** Why a filter expression was rejected, and where. */
export interface FilterSyntaxError extends ErrorInfo<'FILTER_SYNTAX'> {
  /** Names what is wrong and repeats the column, ready to hand back to the client. */
  readonly message: string;
  /** 1-based position in the original string (UTF-16 code units); `length + 1` means "at the end". */
  readonly column: number;
}

/**
 * XML NCName, with unicode letters, marks and digits; sticky so it can scan in place.
 * Compile-time only: matching never touches it.
 */
const NCNAME = /[\p{L}_][\p{L}\p{M}\p{Nd}._-]*/uy;

/** The read position in a filter expression and the scanning steps both grammars are built from. */
export class FilterCursor {
  /** 0-based index of the next unread character; parsers may move it back to retry a shorter token. */
  pos = 0;

  constructor(readonly src: string) {}

  /** 1-based column of the cursor, as messages quote it. */
  get column(): number {
    return this.pos + 1;
  }

  /** True once every character has been read. */
  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  /** The character `offset` code units past the cursor; `undefined` past the end, so callers need no bounds check. */
  peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  /** Whether the unread text starts with `text`. */
  lookingAt(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  /** Moves past `count` characters the caller has already looked at. */
  skip(count: number): void {
    this.pos += count;
  }

  /** Moves past spaces, tabs and line breaks. */
  skipSpace(): void {
    while (isSpace(this.src[this.pos])) this.pos++;
  }

  /** Reads the NCName at the cursor; returns '' without moving when there is none. */
  readNcName(): string {
    NCNAME.lastIndex = this.pos;
    if (!NCNAME.test(this.src)) return '';
    const start = this.pos;
    this.pos = NCNAME.lastIndex;
    return this.src.slice(start, this.pos);
  }

  /** The character at `at` (default: the cursor) as a message quotes it. */
  describeChar(at = this.pos): string {
    return describeChar(this.src, at);
  }

  /** A syntax error at 0-based index `at` (default: the cursor). */
  fail(message: string, at = this.pos): Err<FilterSyntaxError> {
    return syntaxError(message, at);
  }
}

/** A syntax error at a 0-based index, reported as the 1-based column clients count in. */
export function syntaxError(message: string, index: number): Err<FilterSyntaxError> {
  return err({ code: 'FILTER_SYNTAX', message, column: index + 1 });
}

/** The whitespace both grammars allow between tokens; XML's set, so U+00A0 and friends stay invalid characters. */
export function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** Quotes a printable character; names invisible ones by code point so the message stays readable. */
function describeChar(src: string, i: number): string {
  if (i >= src.length) return 'end of expression';
  const cp = src.codePointAt(i) ?? 0;
  const invisible =
    cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || /\s/u.test(String.fromCodePoint(cp));
  if (invisible) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${String.fromCodePoint(cp)}'`;
}

/** Keeps error messages short when a client sends a huge name or token. */
export function truncate(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 40)}...`;
}
