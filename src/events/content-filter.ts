/**
 * Content filters of `events:configure` (ONVIF ItemFilter, an XPath subset):
 *
 * ```
 * Expression ::= BoolExpr | Expression 'and' Expression | Expression 'or' Expression
 *              | '(' Expression ')' | 'not' '(' Expression ')'
 * BoolExpr   ::= 'boolean' '(' PathExpr ')'
 * PathExpr   ::= '//' Prefix? ( 'SimpleItem' | 'ElementItem' ) '[' AttrExpr ']'
 * Prefix     ::= NCName ':'
 * AttrExpr   ::= AttrComp | AttrExpr 'and' AttrExpr | AttrExpr 'or' AttrExpr
 *              | '(' AttrExpr ')' | 'not' '(' AttrExpr ')'
 * AttrComp   ::= ( '@Name' | '@Value' ) '=' ( '"' chars '"' | "'" chars "'" )
 * ```
 *
 * `and` binds tighter than `or`, as in XPath. The expression is parsed once into a
 * small condition tree; evaluating a notification walks that tree and never
 * re-tokenizes. Keywords and attribute names are case-sensitive, as in XPath.
 */
import type { FilterResult, FilterSyntaxError } from './filter-result';

/** The part of an `events:notify` notification a content filter looks at. */
export interface NotificationMessage {
  source?: Readonly<Record<string, string>>;
  key?: Readonly<Record<string, string>>;
  data?: Readonly<Record<string, string>>;
}

/** A compiled content filter. */
export interface ContentFilter {
  /** The expression exactly as the client sent it. */
  readonly source: string;
  /**
   * Whether the message satisfies the filter. `boolean(//SimpleItem[P])` holds when
   * some name/value pair of `source`, `key` or `data` satisfies P. JSON notifications
   * carry no element items, so `boolean(//ElementItem[...])` is always false. Safe to
   * call detached.
   */
  matches(message: NotificationMessage): boolean;
}

/** Deepest nesting of '(', 'not(' and '[' accepted; keeps the parser and evaluator off the stack limit. */
export const MAX_CONTENT_FILTER_NESTING = 64;

/**
 * Compiles a content filter. Never throws: any input yields either a filter or an
 * error saying what was expected and at which 1-based column.
 */
export function compileContentFilter(expression: string): FilterResult<ContentFilter> {
  // The wire format is JSON, so guard against callers that forward unchecked values.
  if (typeof expression !== 'string') return fail('content filter must be a string', 0);
  const parser = new Parser(expression);
  const root = parser.parseFilter();
  if (!root.ok) return root;
  const tree = root.value;
  const matches = (message: NotificationMessage): boolean => evaluate(tree, testItem, message, undefined);
  return { ok: true, filter: Object.freeze({ source: expression, matches }) };
}

// ---- condition tree ------------------------------------------------------------

/** Boolean structure shared by both levels; `all`/`any` are n-ary so long chains stay shallow. */
type Cond<L> =
  | { readonly op: 'leaf'; readonly leaf: L }
  | { readonly op: 'all' | 'any'; readonly items: readonly Cond<L>[] }
  | { readonly op: 'not'; readonly item: Cond<L> };

/** `@Name='x'` or `@Value='x'`. */
interface AttrTest {
  readonly field: 'name' | 'value';
  readonly text: string;
}

/** `boolean(//SimpleItem[...])` or `boolean(//ElementItem[...])`. */
interface ItemTest {
  readonly element: boolean;
  readonly attr: Cond<AttrTest>;
}

/** Walks a tree; the two extra arguments avoid allocating a closure per item tested. */
function evaluate<L, A, B>(cond: Cond<L>, test: (leaf: L, a: A, b: B) => boolean, a: A, b: B): boolean {
  switch (cond.op) {
    case 'leaf':
      return test(cond.leaf, a, b);
    case 'not':
      return !evaluate(cond.item, test, a, b);
    case 'all':
      for (let i = 0; i < cond.items.length; i++) if (!evaluate(cond.items[i], test, a, b)) return false;
      return true;
    case 'any':
      for (let i = 0; i < cond.items.length; i++) if (evaluate(cond.items[i], test, a, b)) return true;
      return false;
  }
}

function testItem(item: ItemTest, message: NotificationMessage, _unused: undefined): boolean {
  if (item.element) return false;
  return anyPair(message.source, item.attr) || anyPair(message.key, item.attr) || anyPair(message.data, item.attr);
}

function anyPair(record: Readonly<Record<string, string>> | undefined, attr: Cond<AttrTest>): boolean {
  if (record === null || typeof record !== 'object') return false;
  for (const name in record) {
    if (Object.hasOwn(record, name) && evaluate(attr, testAttr, name, record[name])) return true;
  }
  return false;
}

function testAttr(test: AttrTest, name: string, value: string): boolean {
  return (test.field === 'name' ? name : value) === test.text;
}

// ---- lexer and parser ----------------------------------------------------------

type TokenKind = '(' | ')' | '[' | ']' | '=' | '//' | 'string' | 'attr' | 'name' | 'end';

interface Token {
  readonly kind: TokenKind;
  /** Raw source text (quotes included for strings), for messages. */
  readonly text: string;
  /** Names: the name; attributes: the name after '@'; strings: the contents. */
  readonly value: string;
  /** 0-based index of the first character. */
  readonly start: number;
}

type Step<T> = { ok: true; value: T } | { ok: false; error: FilterSyntaxError };
type Failure = { ok: false; error: FilterSyntaxError };

/** Recursive descent over a lazily lexed token stream, so the first error by position wins. */
class Parser {
  private token: Token = { kind: 'end', text: '', value: '', start: 0 };
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  parseFilter(): Step<Cond<ItemTest>> {
    const first = this.advance();
    if (first) return first;
    if (this.peek() === 'end') return fail('content filter is empty', 0);
    const root = this.parseOr(() => this.parseBoolExpr());
    if (!root.ok) return root;
    if (this.peek() !== 'end') {
      return this.failAtToken(`${this.unexpected()}: expected 'and', 'or' or the end of the filter`);
    }
    return root;
  }

  /** OrExpr ::= AndExpr ('or' AndExpr)* -- shared by Expression and AttrExpr. */
  private parseOr<L>(primary: () => Step<Cond<L>>): Step<Cond<L>> {
    const terms: Cond<L>[] = [];
    for (;;) {
      const term = this.parseAnd(primary);
      if (!term.ok) return term;
      terms.push(term.value);
      if (!this.atKeyword('or')) break;
      const err = this.advance();
      if (err) return err;
    }
    return { ok: true, value: terms.length === 1 ? terms[0] : { op: 'any', items: terms } };
  }

  private parseAnd<L>(primary: () => Step<Cond<L>>): Step<Cond<L>> {
    const factors: Cond<L>[] = [];
    for (;;) {
      const factor = this.parseUnary(primary);
      if (!factor.ok) return factor;
      factors.push(factor.value);
      if (!this.atKeyword('and')) break;
      const err = this.advance();
      if (err) return err;
    }
    return { ok: true, value: factors.length === 1 ? factors[0] : { op: 'all', items: factors } };
  }

  /** '(' OrExpr ')' | 'not' '(' OrExpr ')' | primary. */
  private parseUnary<L>(primary: () => Step<Cond<L>>): Step<Cond<L>> {
    const negate = this.atKeyword('not');
    if (negate) {
      const err = this.advance();
      if (err) return err;
      if (this.peek() !== '(') return this.expected(`'(' after 'not'`);
    } else if (this.peek() !== '(') {
      return primary();
    }
    const inner = this.nested(() => this.parseOr(primary), ')');
    if (!inner.ok) return inner;
    return { ok: true, value: negate ? { op: 'not', item: inner.value } : inner.value };
  }

  /** BoolExpr ::= 'boolean' '(' '//' Prefix? ('SimpleItem' | 'ElementItem') '[' AttrExpr ']' ')'. */
  private parseBoolExpr(): Step<Cond<ItemTest>> {
    if (!this.atKeyword('boolean')) {
      return this.failAtToken(`${this.unexpected()}: expected 'boolean(', 'not(' or '('`);
    }
    const err = this.advance();
    if (err) return err;
    if (this.peek() !== '(') return this.expected(`'(' after 'boolean'`);
    return this.nested(() => this.parsePathExpr(), ')');
  }

  private parsePathExpr(): Step<Cond<ItemTest>> {
    if (this.peek() !== '//') return this.expected(`'//'`);
    let err = this.advance();
    if (err) return err;
    const local = this.peek() === 'name' ? this.token.value.slice(this.token.value.indexOf(':') + 1) : '';
    if (local !== 'SimpleItem' && local !== 'ElementItem') return this.expected(`'SimpleItem' or 'ElementItem'`);
    err = this.advance();
    if (err) return err;
    if (this.peek() !== '[') return this.expected(`'['`);
    const attr = this.nested(() => this.parseOr(() => this.parseAttrComp()), ']');
    if (!attr.ok) return attr;
    return { ok: true, value: { op: 'leaf', leaf: { element: local === 'ElementItem', attr: attr.value } } };
  }

  /** AttrComp ::= ('@Name' | '@Value') '=' string. */
  private parseAttrComp(): Step<Cond<AttrTest>> {
    const attr = this.token;
    if (attr.kind !== 'attr' || (attr.value !== 'Name' && attr.value !== 'Value')) {
      return this.expected(`'@Name' or '@Value'`);
    }
    let err = this.advance();
    if (err) return err;
    if (this.peek() !== '=') return this.expected(`'='`);
    err = this.advance();
    if (err) return err;
    if (this.peek() !== 'string') return this.expected('a quoted string');
    const text = this.token.value;
    err = this.advance();
    if (err) return err;
    return { ok: true, value: { op: 'leaf', leaf: { field: attr.value === 'Name' ? 'name' : 'value', text } } };
  }

  /** Consumes the opening token, parses `body`, then requires `close`; enforces the nesting limit. */
  private nested<T>(body: () => Step<T>, close: ')' | ']'): Step<T> {
    if (++this.depth > MAX_CONTENT_FILTER_NESTING) {
      return this.failAtToken(
        `expression nested too deeply at column ${this.token.start + 1} (more than ${MAX_CONTENT_FILTER_NESTING} levels)`,
      );
    }
    let err = this.advance();
    if (err) return err;
    const result = body();
    if (!result.ok) return result;
    if (this.peek() !== close) return this.expected(`'${close}'`);
    err = this.advance();
    if (err) return err;
    this.depth--;
    return result;
  }

  /** Moves to the next token; returns a failure when the text there cannot be lexed. */
  private advance(): Failure | undefined {
    const src = this.src;
    let i = this.pos;
    while (i < src.length && isSpace(src[i])) i++;
    const ch = src[i];
    let end = i + 1;
    let kind: TokenKind;
    let value = '';
    if (i >= src.length) {
      kind = 'end';
      end = i;
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']' || ch === '=') {
      kind = ch;
    } else if (ch === '/') {
      if (src[i + 1] !== '/') return fail(`unexpected '/' at column ${i + 1}: expected '//'`, i);
      kind = '//';
      end = i + 2;
    } else if (ch === '"' || ch === "'") {
      const close = src.indexOf(ch, i + 1);
      if (close < 0) return fail(`unterminated string starting at column ${i + 1}`, i);
      kind = 'string';
      value = src.slice(i + 1, close);
      end = close + 1;
    } else if (ch === '@') {
      end = matchNcName(src, i + 1);
      if (end === i + 1) return fail(`expected '@Name' or '@Value' at column ${i + 1}`, i);
      kind = 'attr';
      value = src.slice(i + 1, end);
    } else {
      end = matchQName(src, i);
      if (end === i) return fail(`invalid character ${describeChar(src, i)} at column ${i + 1}`, i);
      kind = 'name';
      value = src.slice(i, end);
    }
    this.token = { kind, text: src.slice(i, end), value, start: i };
    this.pos = end;
    return undefined;
  }

  /** A method, not a field read, so TypeScript does not carry narrowing across advance(). */
  private peek(): TokenKind {
    return this.token.kind;
  }

  private atKeyword(word: 'and' | 'or' | 'not' | 'boolean'): boolean {
    return this.token.kind === 'name' && this.token.value === word;
  }

  private expected(what: string): Failure {
    return this.failAtToken(`expected ${what} at column ${this.token.start + 1}, found ${this.describeToken()}`);
  }

  private unexpected(): string {
    return this.token.kind === 'end'
      ? `unexpected end of filter at column ${this.token.start + 1}`
      : `unexpected ${this.describeToken()} at column ${this.token.start + 1}`;
  }

  private describeToken(): string {
    if (this.token.kind === 'end') return 'the end of the filter';
    const text = this.token.text.length <= 40 ? this.token.text : `${this.token.text.slice(0, 40)}...`;
    return this.token.kind === 'string' ? `string ${text}` : `'${text}'`;
  }

  private failAtToken(message: string): Failure {
    return fail(message, this.token.start);
  }
}

// ---- small helpers -------------------------------------------------------------

/** XML NCName with unicode letters, marks and digits; sticky so it scans in place. */
const NCNAME = /[\p{L}_][\p{L}\p{M}\p{Nd}._-]*/uy;

/** Returns the index after the NCName starting at `i`, or `i` when there is none. */
function matchNcName(src: string, i: number): number {
  NCNAME.lastIndex = i;
  return NCNAME.test(src) ? NCNAME.lastIndex : i;
}

/** NCName or prefix:NCName as one token, since XPath allows no space inside a QName. */
function matchQName(src: string, i: number): number {
  const first = matchNcName(src, i);
  if (first === i || src[first] !== ':') return first;
  const local = matchNcName(src, first + 1);
  return local === first + 1 ? first : local;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** Quotes a printable character; names invisible ones by code point so the message stays readable. */
function describeChar(src: string, i: number): string {
  const cp = src.codePointAt(i) ?? 0;
  const invisible =
    cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || /\s/u.test(String.fromCodePoint(cp));
  if (invisible) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${String.fromCodePoint(cp)}'`;
}

function fail(message: string, index: number): Failure {
  return { ok: false, error: { message, column: index + 1 } };
}
