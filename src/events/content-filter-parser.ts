/**
 * The lexer and recursive-descent parser of content filters (the grammar is in
 * content-filter.ts): the text into a condition tree, or the first error by position.
 */
import { ok, type Err, type Result } from '../base/result';
import type { AttrTest, Cond, ItemTest } from './content-condition';
import { FilterCursor, type FilterSyntaxError, syntaxError, truncate } from './filter-syntax';

/** What a token is: punctuation, a string, an attribute, a name, or the end of the filter. */
type TokenKind = '(' | ')' | '[' | ']' | '=' | '//' | 'string' | 'attr' | 'name' | 'end';

/** One lexed token; kept with its raw text and position so messages can quote it. */
interface Token {
  readonly kind: TokenKind;
  /** Raw source text (quotes included for strings), for messages. */
  readonly text: string;
  /** Names: the name; attributes: the name after '@'; strings: the contents. */
  readonly value: string;
  /** 0-based index of the first character. */
  readonly start: number;
}

/** A parse step: what it parsed, or the first syntax error. */
type Step<T> = Result<T, FilterSyntaxError>;
/** A syntax error as a parse step returns it. */
type Failure = Err<FilterSyntaxError>;

/** Recursive descent over a lazily lexed token stream, so the first error by position wins. */
export class ContentFilterParser {
  private token: Token = { kind: 'end', text: '', value: '', start: 0 };
  private depth = 0;
  private readonly cursor: FilterCursor;
  /** `@Name=` and `@Value=` comparisons parsed so far. */
  comparisons = 0;

  /** A parser of `src` that refuses nesting deeper than `maxNesting`. */
  constructor(
    src: string,
    private readonly maxNesting: number,
  ) {
    this.cursor = new FilterCursor(src);
  }

  /** Expression, then the end of the input: the whole filter or the first error by position. */
  parseFilter(): Step<Cond<ItemTest>> {
    const first = this.advance();
    if (first) return first;
    if (this.peek() === 'end') return syntaxError('content filter is empty', 0);
    const root = this.parseOr(() => this.parseBoolExpr());
    if (!root.ok) return root;
    if (this.peek() !== 'end') {
      return this.failAtToken(`${this.unexpected()}: expected 'and', 'or' or the end of the filter`);
    }
    return root;
  }

  /** OrExpr ::= AndExpr ('or' AndExpr)* -- shared by Expression and AttrExpr. */
  private parseOr<L>(primary: () => Step<Cond<L>>): Step<Cond<L>> {
    return this.parseJoined(() => this.parseAnd(primary), 'or', 'any');
  }

  /** AndExpr ::= UnaryExpr ('and' UnaryExpr)*; and binds tighter than or, as in XPath. */
  private parseAnd<L>(primary: () => Step<Cond<L>>): Step<Cond<L>> {
    return this.parseJoined(() => this.parseUnary(primary), 'and', 'all');
  }

  /** One or more `part`s separated by the keyword, folded into one `op` condition when there are several. */
  private parseJoined<L>(part: () => Step<Cond<L>>, keyword: 'or' | 'and', op: 'any' | 'all'): Step<Cond<L>> {
    const items: Cond<L>[] = [];
    for (;;) {
      const item = part();
      if (!item.ok) return item;
      items.push(item.value);
      if (!this.atKeyword(keyword)) break;
      const err = this.advance();
      if (err) return err;
    }
    return ok(items.length === 1 ? items[0] : { op, items });
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
    return ok(negate ? { op: 'not', item: inner.value } : inner.value);
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

  /** PathExpr ::= '//' Prefix? ('SimpleItem' | 'ElementItem') '[' AttrExpr ']'; any prefix is accepted. */
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
    return ok({ op: 'leaf', leaf: { element: local === 'ElementItem', attr: attr.value } });
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
    this.comparisons++;
    return ok({ op: 'leaf', leaf: { field: attr.value === 'Name' ? 'name' : 'value', text } });
  }

  /** Consumes the opening token, parses `body`, then requires `close`; enforces the nesting limit. */
  private nested<T>(body: () => Step<T>, close: ')' | ']'): Step<T> {
    if (++this.depth > this.maxNesting) {
      return this.failAtToken(
        `expression nested too deeply at column ${this.token.start + 1} (more than ${this.maxNesting} levels)`,
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
    const cur = this.cursor;
    cur.skipSpace();
    const start = cur.pos;
    const ch = cur.peek();
    let kind: TokenKind;
    let value = '';
    if (ch === undefined) {
      kind = 'end';
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']' || ch === '=') {
      kind = ch;
      cur.skip(1);
    } else if (ch === '/') {
      if (cur.peek(1) !== '/') return cur.fail(`unexpected '/' at column ${cur.column}: expected '//'`);
      kind = '//';
      cur.skip(2);
    } else if (ch === '"' || ch === "'") {
      const close = cur.src.indexOf(ch, start + 1);
      if (close < 0) return cur.fail(`unterminated string starting at column ${cur.column}`);
      kind = 'string';
      value = cur.src.slice(start + 1, close);
      cur.pos = close + 1;
    } else if (ch === '@') {
      cur.skip(1);
      value = cur.readNcName();
      if (value === '') return cur.fail(`expected '@Name' or '@Value' at column ${start + 1}`, start);
      kind = 'attr';
    } else {
      value = readQName(cur);
      if (value === '') return cur.fail(`invalid character ${cur.describeChar()} at column ${cur.column}`);
      kind = 'name';
    }
    this.token = { kind, text: cur.src.slice(start, cur.pos), value, start };
    return undefined;
  }

  /** A method, not a field read, so TypeScript does not carry narrowing across advance(). */
  private peek(): TokenKind {
    return this.token.kind;
  }

  /** Whether the current token is the bare name `word`; keywords are case-sensitive, as in XPath. */
  private atKeyword(word: 'and' | 'or' | 'not' | 'boolean'): boolean {
    return this.token.kind === 'name' && this.token.value === word;
  }

  /** "expected X at column N, found Y" for the current token. */
  private expected(what: string): Failure {
    return this.failAtToken(`expected ${what} at column ${this.token.start + 1}, found ${this.describeToken()}`);
  }

  /** "unexpected Y at column N", the start of a message whose ending says what would have fit. */
  private unexpected(): string {
    return this.token.kind === 'end'
      ? `unexpected end of filter at column ${this.token.start + 1}`
      : `unexpected ${this.describeToken()} at column ${this.token.start + 1}`;
  }

  /** The current token as a message quotes it, shortened so a huge token cannot bloat the reply. */
  private describeToken(): string {
    if (this.token.kind === 'end') return 'the end of the filter';
    const text = truncate(this.token.text);
    return this.token.kind === 'string' ? `string ${text}` : `'${text}'`;
  }

  /** A failure at the start of the current token, where the client should look. */
  private failAtToken(message: string): Failure {
    return this.cursor.fail(message, this.token.start);
  }
}

/**
 * Reads NCName or prefix:NCName as one token, since XPath allows no space inside a
 * QName; a ':' with no local name after it is left for the next token. Returns ''
 * without moving when there is no name at the cursor.
 */
function readQName(cur: FilterCursor): string {
  const start = cur.pos;
  if (cur.readNcName() === '' || cur.peek() !== ':') return cur.src.slice(start, cur.pos);
  const prefixEnd = cur.pos;
  cur.skip(1);
  if (cur.readNcName() === '') cur.pos = prefixEnd;
  return cur.src.slice(start, cur.pos);
}
