/** The `<thead>` of a table on the destination's pages. */
import { markup, type SafeHtml } from './html';

/** A header row; a name starting with `#` is a number column (right-aligned), shown without the `#`. */
export function tableHead(names: readonly string[]): SafeHtml {
  const cells = names.map((name) =>
    name.startsWith('#') ? markup`<th class="num">${name.slice(1)}</th>` : markup`<th>${name}</th>`,
  );
  return markup`<thead><tr>${cells}</tr></thead>\n`;
}
