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
 * small condition tree and compiled into closures; evaluating a notification calls
 * them and never re-tokenizes. Keywords and attribute names are case-sensitive, as in XPath.
 */
import { ok, type Result } from '../base/result';
import { compileMessageTest } from './content-filter-matcher';
import { ContentFilterParser } from './content-filter-parser';
import { type FilterSyntaxError, syntaxError } from './filter-syntax';
import type { NotificationMessage } from './notification-message';

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
  readonly matches: (message: NotificationMessage) => boolean;
  /** Comparisons (`@Name=`, `@Value=`) in the filter: what evaluating it costs per name/value pair. */
  readonly terms: number;
}

/** Default deepest nesting of '(', 'not(' and '[' accepted; keeps the parser and evaluator off the stack limit. */
export const MAX_CONTENT_FILTER_NESTING = 64;

/** How content filters are compiled. */
export interface ContentFilterOptions {
  /** Deepest nesting accepted; {@link MAX_CONTENT_FILTER_NESTING} by default (and at most). */
  readonly maxNesting?: number;
}

/**
 * Compiles a content filter. Never throws: any input yields either a filter or an
 * error saying what was expected and at which 1-based column.
 */
export function compileContentFilter(
  expression: string,
  options: ContentFilterOptions = {},
): Result<ContentFilter, FilterSyntaxError> {
  // The wire format is JSON, so guard against callers that forward unchecked values.
  if (typeof expression !== 'string') return syntaxError('content filter must be a string', 0);
  const maxNesting = Math.min(options.maxNesting ?? MAX_CONTENT_FILTER_NESTING, MAX_CONTENT_FILTER_NESTING);
  const parser = new ContentFilterParser(expression, maxNesting);
  const root = parser.parseFilter();
  if (!root.ok) return root;
  const matches = compileMessageTest(root.value);
  return ok(Object.freeze({ source: expression, matches, terms: parser.comparisons }));
}
