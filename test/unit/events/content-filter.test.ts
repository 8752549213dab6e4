import fc from 'fast-check';
import {
  compileContentFilter,
  MAX_CONTENT_FILTER_NESTING,
  type ContentFilter,
} from '../../../src/events/content-filter';
import type { NotificationMessage } from '../../../src/events/notification-message';
import type { FilterSyntaxError } from '../../../src/events/filter-syntax';

function compile(expression: string): ContentFilter {
  const result = compileContentFilter(expression);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(expression)} to compile: ${result.error.message}`);
  return result.value;
}

function compileError(expression: string): FilterSyntaxError {
  const result = compileContentFilter(expression);
  if (result.ok) throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
  return result.error;
}

/** `boolean(//SimpleItem[@Name='n' and @Value='v'])`, the shape clients send most. */
function item(name: string, value: string): string {
  return `boolean(//SimpleItem[@Name='${name}' and @Value='${value}'])`;
}

const PORT_1: NotificationMessage = { source: { port: '1' }, data: { state: '1' } };
const PORT_2: NotificationMessage = { source: { port: '2' }, data: { state: '0' } };
const VIRTUAL: NotificationMessage = { source: { port: '3' }, key: { port: '1' }, data: { active: '1' } };
const EMPTY: NotificationMessage = {};
const EMPTY_MAPS: NotificationMessage = { source: {}, key: {}, data: {} };

describe('compileContentFilter: productions', () => {
  it("matches the client example boolean(//SimpleItem[@Name='port' and @Value='1'])", () => {
    const filter = compile("boolean(//SimpleItem[@Name='port' and @Value='1'])");
    expect(filter.source).toBe("boolean(//SimpleItem[@Name='port' and @Value='1'])");
    expect(filter.matches(PORT_1)).toBe(true);
    expect(filter.matches(PORT_2)).toBe(false);
    expect(filter.matches(EMPTY)).toBe(false);
    expect(filter.matches(EMPTY_MAPS)).toBe(false);
  });

  it('requires @Name and @Value to hold for the same item', () => {
    const filter = compile(item('port', '1'));
    expect(filter.matches({ source: { port: '2' }, data: { other: '1' } })).toBe(false);
    expect(filter.matches({ source: { port: '2' }, data: { port: '1' } })).toBe(true);
  });

  it('takes SimpleItems from each of source, key and data', () => {
    const filter = compile(item('x', 'y'));
    expect(filter.matches({ source: { x: 'y' } })).toBe(true);
    expect(filter.matches({ key: { x: 'y' } })).toBe(true);
    expect(filter.matches({ data: { x: 'y' } })).toBe(true);
    expect(filter.matches({ source: { x: 'n' }, key: { y: 'x' }, data: { X: 'y' } })).toBe(false);
  });

  it('AttrComp alone: @Name or @Value, with either quote kind', () => {
    expect(compile("boolean(//SimpleItem[@Name='active'])").matches(VIRTUAL)).toBe(true);
    expect(compile('boolean(//SimpleItem[@Name="active"])').matches(PORT_1)).toBe(false);
    expect(compile('boolean(//SimpleItem[@Value="3"])').matches(VIRTUAL)).toBe(true);
    expect(compile("boolean(//SimpleItem[@Value='3'])").matches(PORT_1)).toBe(false);
    expect(compile(`boolean(//SimpleItem[@Value="it's"])`).matches({ data: { s: "it's" } })).toBe(true);
    expect(compile(`boolean(//SimpleItem[@Value='say "hi"'])`).matches({ data: { s: 'say "hi"' } })).toBe(true);
    expect(compile("boolean(//SimpleItem[@Value=''])").matches({ data: { s: '' } })).toBe(true);
  });

  it('compares exactly: case, whitespace and unicode matter', () => {
    const filter = compile("boolean(//SimpleItem[@Name='Port' and @Value=' 1'])");
    expect(filter.matches({ source: { port: ' 1' } })).toBe(false);
    expect(filter.matches({ source: { Port: '1' } })).toBe(false);
    expect(filter.matches({ source: { Port: ' 1' } })).toBe(true);
    expect(compile("boolean(//SimpleItem[@Value='Ωmega'])").matches({ data: { n: 'Ωmega' } })).toBe(true);
  });

  it('accepts a namespace prefix before SimpleItem', () => {
    expect(compile("boolean(//tt:SimpleItem[@Name='port' and @Value='1'])").matches(PORT_1)).toBe(true);
    expect(compile("boolean(// tns1:SimpleItem[@Name='port'])").matches(PORT_2)).toBe(true);
  });

  it('ElementItem never matches, since JSON notifications carry no element items', () => {
    for (const expr of [
      "boolean(//ElementItem[@Name='port'])",
      "boolean(//tt:ElementItem[@Name='port' or @Value='1'])",
    ]) {
      const filter = compile(expr);
      expect([PORT_1, PORT_2, VIRTUAL, EMPTY].some((m) => filter.matches(m))).toBe(false);
    }
    expect(compile("not(boolean(//ElementItem[@Name='port']))").matches(PORT_1)).toBe(true);
  });

  it("Expression 'and' / 'or' combine BoolExprs", () => {
    const both = compile(`${item('port', '1')} and boolean(//SimpleItem[@Name='state' and @Value='1'])`);
    expect(both.matches(PORT_1)).toBe(true);
    expect(both.matches({ source: { port: '1' }, data: { state: '0' } })).toBe(false);
    const either = compile(`${item('port', '1')} or ${item('port', '2')}`);
    expect([PORT_1, PORT_2, VIRTUAL, EMPTY].map((m) => either.matches(m))).toEqual([true, true, true, false]);
  });

  it("AttrExpr 'or', 'not(...)' and parentheses", () => {
    const anyPort = compile("boolean(//SimpleItem[@Name='port' and (@Value='1' or @Value='2')])");
    expect([PORT_1, PORT_2, VIRTUAL].map((m) => anyPort.matches(m))).toEqual([true, true, true]);
    expect(anyPort.matches({ source: { port: '4' } })).toBe(false);
    const notOne = compile("boolean(//SimpleItem[@Name='port' and not(@Value='1')])");
    expect(notOne.matches(PORT_1)).toBe(false);
    expect(notOne.matches(PORT_2)).toBe(true);
    expect(notOne.matches(VIRTUAL)).toBe(true); // source port=3 qualifies although key port=1 does not
  });

  it("Expression 'not(...)' and parentheses", () => {
    const notPort1 = compile(`not(${item('port', '1')})`);
    expect([PORT_1, PORT_2, EMPTY].map((m) => notPort1.matches(m))).toEqual([false, true, true]);
    const grouped = compile(`(${item('port', '1')} or ${item('port', '2')}) and boolean(//SimpleItem[@Name='state'])`);
    expect([PORT_1, PORT_2, VIRTUAL].map((m) => grouped.matches(m))).toEqual([true, true, false]);
    expect(compile(`((( ${item('port', '2')} )))`).matches(PORT_2)).toBe(true);
    expect(compile(`not(not(${item('port', '2')}))`).matches(PORT_2)).toBe(true);
  });

  it('allows free whitespace between tokens and none where tokens are self-delimiting', () => {
    const spaced = compile(" \n boolean ( // SimpleItem [ @Name = 'port'\tand\r\n@Value = '1' ] ) ");
    const tight = compile("boolean(//SimpleItem[@Name='port'and@Value='1'])");
    const notTight = compile("not(boolean(//SimpleItem[not(@Name='port')]))or(boolean(//SimpleItem[@Value='1']))");
    for (const m of [PORT_1, PORT_2, VIRTUAL]) expect(tight.matches(m)).toBe(spaced.matches(m));
    expect(notTight.matches(PORT_1)).toBe(true);
  });

  it('matches() works detached and tolerates malformed messages', () => {
    const { matches } = compile(item('port', '1'));
    expect([PORT_1, PORT_2].filter(matches)).toEqual([PORT_1]);
    expect(matches({ source: null } as unknown as NotificationMessage)).toBe(false);
    expect(matches({ source: 'port' } as unknown as NotificationMessage)).toBe(false);
    expect(matches({ source: { port: 1 } } as unknown as NotificationMessage)).toBe(false);
  });
});

describe('compileContentFilter: precedence', () => {
  // a, b, c chosen so that "a or (b and c)" and "(a or b) and c" differ on some message.
  const a = "boolean(//SimpleItem[@Name='a'])";
  const b = "boolean(//SimpleItem[@Name='b'])";
  const c = "boolean(//SimpleItem[@Name='c'])";
  const messages: NotificationMessage[] = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({
    data: Object.fromEntries(['a', 'b', 'c'].filter((_, i) => bits & (1 << i)).map((n) => [n, 'v'])),
  }));

  function truthTable(expression: string): boolean[] {
    const filter = compile(expression);
    return messages.map((m) => filter.matches(m));
  }

  it("'and' binds tighter than 'or' between BoolExprs", () => {
    expect(truthTable(`${a} or ${b} and ${c}`)).toEqual(truthTable(`${a} or (${b} and ${c})`));
    expect(truthTable(`${a} or ${b} and ${c}`)).not.toEqual(truthTable(`(${a} or ${b}) and ${c}`));
    expect(truthTable(`${a} and ${b} or ${c}`)).toEqual(truthTable(`(${a} and ${b}) or ${c}`));
  });

  it("'and' binds tighter than 'or' inside AttrExpr", () => {
    const x = "boolean(//SimpleItem[@Name='a' or @Name='b' and @Value='w'])";
    const grouped = "boolean(//SimpleItem[@Name='a' or (@Name='b' and @Value='w')])";
    const wrong = "boolean(//SimpleItem[(@Name='a' or @Name='b') and @Value='w'])";
    const msg: NotificationMessage = { data: { a: 'v' } };
    expect(compile(x).matches(msg)).toBe(true);
    expect(compile(grouped).matches(msg)).toBe(true);
    expect(compile(wrong).matches(msg)).toBe(false);
  });
});

describe('compileContentFilter: errors', () => {
  const cases: ReadonlyArray<[input: string, message: string, column: number]> = [
    ['', 'content filter is empty', 1],
    ['  \t\n ', 'content filter is empty', 1],
    ["boolean(//SimpleItem[@Name='port' and @Value='1')", "expected ']' at column 49, found ')'", 49],
    ["boolean(//SimpleItem[@Name='port'", "expected ']' at column 34, found the end of the filter", 34],
    [
      "boolean(//SimpleItem[@Name='port'])  and boolean(//SimpleItem[@Name='x)",
      'unterminated string starting at column 69',
      69,
    ],
    [
      "boolean(//SimpleItem[@Name='port' and Value='1'])",
      "expected '@Name' or '@Value' at column 39, found 'Value'",
      39,
    ],
    ["boolean(//SimpleItem[@name='port'])", "expected '@Name' or '@Value' at column 22, found '@name'", 22],
    ['boolean(//SimpleItem[@ Name="x"])', "expected '@Name' or '@Value' at column 22", 22],
    ['(   xyz', "unexpected 'xyz' at column 5: expected 'boolean(', 'not(' or '('", 5],
    [
      "boolean(//SimpleItem[@Name='a']) xyz",
      "unexpected 'xyz' at column 34: expected 'and', 'or' or the end of the filter",
      34,
    ],
    [
      "boolean(//SimpleItem[@Name='a']) and",
      "unexpected end of filter at column 37: expected 'boolean(', 'not(' or '('",
      37,
    ],
    [
      "boolean(//SimpleItem[@Name='a']) AND boolean(//SimpleItem[@Name='b'])",
      "unexpected 'AND' at column 34: expected 'and', 'or' or the end of the filter",
      34,
    ],
    ["Boolean(//SimpleItem[@Name='a'])", "unexpected 'Boolean' at column 1: expected 'boolean(', 'not(' or '('", 1],
    ["boolean //SimpleItem[@Name='a']", "expected '(' after 'boolean' at column 9, found '//'", 9],
    ["not boolean(//SimpleItem[@Name='a'])", "expected '(' after 'not' at column 5, found 'boolean'", 5],
    ["boolean(/SimpleItem[@Name='a'])", "unexpected '/' at column 9: expected '//'", 9],
    ["boolean(SimpleItem[@Name='a'])", "expected '//' at column 9, found 'SimpleItem'", 9],
    ["boolean(//Item[@Name='a'])", "expected 'SimpleItem' or 'ElementItem' at column 11, found 'Item'", 11],
    [
      "boolean(//tt:simpleitem[@Name='a'])",
      "expected 'SimpleItem' or 'ElementItem' at column 11, found 'tt:simpleitem'",
      11,
    ],
    ["boolean(//SimpleItem(@Name='a'))", "expected '[' at column 21, found '('", 21],
    ["boolean(//SimpleItem[@Name 'a'])", "expected '=' at column 28, found string 'a'", 28],
    ['boolean(//SimpleItem[@Name=port])', "expected a quoted string at column 28, found 'port'", 28],
    ["boolean(//SimpleItem[@Name='a']", "expected ')' at column 32, found the end of the filter", 32],
    ["boolean(//SimpleItem[@Name='a'] and @Value='b')", "expected ')' at column 33, found 'and'", 33],
    ["boolean(//SimpleItem[@Name='a'])#", "invalid character '#' at column 33", 33],
    ["boolean(//SimpleItem[@Name='a'])\u0000", 'invalid character U+0000 at column 33', 33],
    ["(boolean(//SimpleItem[@Name='a'])", "expected ')' at column 34, found the end of the filter", 34],
    [
      "boolean(//SimpleItem[@Name='a'])) ",
      "unexpected ')' at column 33: expected 'and', 'or' or the end of the filter",
      33,
    ],
    ['boolean(//SimpleItem[])', "expected '@Name' or '@Value' at column 22, found ']'", 22],
    ['@Name="x"', "unexpected '@Name' at column 1: expected 'boolean(', 'not(' or '('", 1],
  ];

  it.each(cases)('%j -> %s', (input, message, column) => {
    expect(compileError(input)).toEqual({ code: 'FILTER_SYNTAX', message, column });
  });

  it('rejects a non-string instead of throwing', () => {
    expect(compileContentFilter(undefined as unknown as string)).toEqual({
      ok: false,
      error: { code: 'FILTER_SYNTAX', message: 'content filter must be a string', column: 1 },
    });
  });

  it('keeps messages short for huge tokens', () => {
    const error = compileError(`boolean(//${'x'.repeat(100_000)}[`);
    expect(error.column).toBe(11);
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('compileContentFilter: nesting and size limits', () => {
  const leaf = "boolean(//SimpleItem[@Name='port'])";

  it.each([
    ['(', '('.repeat(100_000)],
    ['not(', 'not('.repeat(100_000)],
    ['( inside [', `boolean(//SimpleItem[${'('.repeat(100_000)}`],
    ['balanced parentheses', `${'('.repeat(100_000)}${leaf}${')'.repeat(100_000)}`],
  ])('a huge %s returns an error instead of overflowing the stack', (_label, input) => {
    const error = compileError(input);
    expect(error.message).toMatch(/^expression nested too deeply at column \d+ \(more than 64 levels\)$/);
  });

  it('accepts exactly the maximum nesting and rejects one more', () => {
    // boolean( and [ are two levels of their own.
    const depth = MAX_CONTENT_FILTER_NESTING - 2;
    expect(compile(`${'('.repeat(depth)}${leaf}${')'.repeat(depth)}`).matches(PORT_1)).toBe(true);
    const error = compileError(`${'('.repeat(depth + 1)}${leaf}${')'.repeat(depth + 1)}`);
    // The 65th level is the '[' after 63 parentheses and "boolean(//SimpleItem".
    expect(error).toEqual({
      code: 'FILTER_SYNTAX',
      message: 'expression nested too deeply at column 84 (more than 64 levels)',
      column: 84,
    });
  });

  it('handles very long flat chains without deep recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => item('port', String(i))).join(' or ');
    const filter = compile(chain);
    expect(filter.matches({ source: { port: '19999' } })).toBe(true);
    expect(filter.matches({ source: { port: '20000' } })).toBe(false);
    const attrChain = `boolean(//SimpleItem[${Array.from({ length: 20_000 }, (_, i) => `@Value='${i}'`).join(' or ')}])`;
    expect(compile(attrChain).matches({ data: { n: '777' } })).toBe(true);
  });
});

describe('compileContentFilter: properties', () => {
  function checkResultShape(input: string): void {
    const result = compileContentFilter(input);
    if (result.ok) {
      expect(result.value.source).toBe(input);
      expect(typeof result.value.matches(PORT_1)).toBe('boolean');
    } else {
      expect(result.error.column).toBeGreaterThanOrEqual(1);
      expect(result.error.column).toBeLessThanOrEqual(input.length + 1);
      expect(result.error.message.length).toBeGreaterThan(0);
    }
  }

  const filterChars = fc.constantFrom(
    ...`()[]=/@'" \tandornotbooleanSimpleItemElementItemNameValue:#x1`.split(''),
    '\u0000',
    '\ud800',
    'Ω',
  );

  it('any string yields a result with a column inside the input, never an exception', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkResultShape), { numRuns: 1500 });
    fc.assert(fc.property(fc.string({ unit: filterChars, maxLength: 80 }), checkResultShape), { numRuns: 1500 });
  });

  // A random tree, its rendering, and a direct evaluation of the tree as the reference.
  type Attr = { op: 'name' | 'value'; text: string } | { op: 'and' | 'or'; l: Attr; r: Attr } | { op: 'not'; x: Attr };
  type Expr =
    { op: 'item'; element: boolean; attr: Attr } | { op: 'and' | 'or'; l: Expr; r: Expr } | { op: 'not'; x: Expr };
  const texts = fc.constantFrom('a', 'b', '1', '');

  const attrArb = fc.letrec<{ attr: Attr }>((tie) => ({
    attr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ op: fc.constantFrom('name' as const, 'value' as const), text: texts }),
      fc.record({ op: fc.constantFrom('and' as const, 'or' as const), l: tie('attr'), r: tie('attr') }),
      fc.record({ op: fc.constant('not' as const), x: tie('attr') }),
    ),
  })).attr;
  const exprArb = fc.letrec<{ expr: Expr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({
        op: fc.constant('item' as const),
        element: fc.constantFrom(false, false, false, true),
        attr: attrArb,
      }),
      fc.record({ op: fc.constantFrom('and' as const, 'or' as const), l: tie('expr'), r: tie('expr') }),
      fc.record({ op: fc.constant('not' as const), x: tie('expr') }),
    ),
  })).expr;

  /** Renders with the fewest parentheses precedence allows, so the parser's precedence is exercised. */
  function renderAttr(t: Attr, quote: string): string {
    switch (t.op) {
      case 'name':
        return `@Name=${quote}${t.text}${quote}`;
      case 'value':
        return `@Value = ${quote}${t.text}${quote}`;
      case 'not':
        return `not(${renderAttr(t.x, quote)})`;
      default:
        return `${wrap(t.op, t.l, (x) => renderAttr(x, quote))} ${t.op} ${wrap(t.op, t.r, (x) => renderAttr(x, quote))}`;
    }
  }

  function renderExpr(t: Expr, quote: string): string {
    switch (t.op) {
      case 'item':
        return `boolean(//${t.element ? 'tt:ElementItem' : 'SimpleItem'}[${renderAttr(t.attr, quote)}])`;
      case 'not':
        return `not( ${renderExpr(t.x, quote)} )`;
      default:
        return `${wrap(t.op, t.l, (x) => renderExpr(x, quote))} ${t.op} ${wrap(t.op, t.r, (x) => renderExpr(x, quote))}`;
    }
  }

  function wrap<T extends { op: string }>(parent: 'and' | 'or', child: T, render: (x: T) => string): string {
    const needsParens = parent === 'and' && child.op === 'or';
    return needsParens ? `(${render(child)})` : render(child);
  }

  function evalAttr(t: Attr, name: string, value: string): boolean {
    switch (t.op) {
      case 'name':
        return name === t.text;
      case 'value':
        return value === t.text;
      case 'not':
        return !evalAttr(t.x, name, value);
      case 'and':
        return evalAttr(t.l, name, value) && evalAttr(t.r, name, value);
      case 'or':
        return evalAttr(t.l, name, value) || evalAttr(t.r, name, value);
    }
  }

  function evalExpr(t: Expr, m: NotificationMessage): boolean {
    switch (t.op) {
      case 'item': {
        if (t.element) return false;
        const pairs = [m.source, m.key, m.data].flatMap((r) => Object.entries(r ?? {}));
        return pairs.some(([n, v]) => evalAttr(t.attr, n, v));
      }
      case 'not':
        return !evalExpr(t.x, m);
      case 'and':
        return evalExpr(t.l, m) && evalExpr(t.r, m);
      case 'or':
        return evalExpr(t.l, m) || evalExpr(t.r, m);
    }
  }

  const record = fc.dictionary(texts, texts, { maxKeys: 3 });
  const message: fc.Arbitrary<NotificationMessage> = fc.record(
    { source: record, key: record, data: record },
    { requiredKeys: [] },
  );
  const validExpression = fc
    .tuple(exprArb, fc.constantFrom("'", '"'))
    .map(([tree, quote]) => ({ tree, text: renderExpr(tree, quote) }));

  it('agrees with a direct evaluation of the expression tree it was rendered from', () => {
    fc.assert(
      fc.property(validExpression, fc.array(message, { minLength: 1, maxLength: 8 }), ({ tree, text }, messages) => {
        const filter = compile(text);
        for (const m of messages) expect(filter.matches(m)).toBe(evalExpr(tree, m));
      }),
      { numRuns: 1500 },
    );
  });

  it('mutated valid expressions (one character inserted or deleted) never throw', () => {
    const mutated = fc
      .tuple(validExpression, fc.nat(), fc.boolean(), fc.constantFrom(...`()[]=/@'" a#`.split(''), '\u0000'))
      .map(([{ text }, at, insert, ch]) => {
        const i = at % (text.length + 1);
        return insert ? text.slice(0, i) + ch + text.slice(i) : text.slice(0, i) + text.slice(i + 1);
      });
    fc.assert(fc.property(mutated, checkResultShape), { numRuns: 3000 });
  });
});
