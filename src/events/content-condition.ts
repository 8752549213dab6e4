/**
 * The condition tree a content filter parses into: the boolean structure over item tests
 * (`boolean(//SimpleItem[...])`) and, inside each, over attribute tests (`@Name='x'`). The
 * parser builds it, the matcher compiles it into closures; nothing keeps it after that.
 */

/** Boolean structure shared by both levels; `all`/`any` are n-ary so long chains stay shallow. */
export type Cond<L> =
  | { readonly op: 'leaf'; readonly leaf: L }
  | { readonly op: 'all' | 'any'; readonly items: readonly Cond<L>[] }
  | { readonly op: 'not'; readonly item: Cond<L> };

/** `@Name='x'` or `@Value='x'`. */
export interface AttrTest {
  readonly field: 'name' | 'value';
  readonly text: string;
}

/** `boolean(//SimpleItem[...])` or `boolean(//ElementItem[...])`. */
export interface ItemTest {
  readonly element: boolean;
  readonly attr: Cond<AttrTest>;
}
