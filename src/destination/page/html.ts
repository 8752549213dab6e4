/**
 * HTML that is escaped by construction: the `markup` template tag escapes every value
 * put into it unless the value is itself {@link SafeHtml} (made by `markup` or `raw`);
 * arrays are joined. A name a client chose can never become markup on the page.
 * (Not named `html`: prettier would reformat such templates, and with them the output.)
 */
import { escapeHtml } from '../../base/html-escape';

/** A piece of markup, safe to put into a page as it is. */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What may be put into a `markup` template. */
export type HtmlValue = SafeHtml | string | number | undefined | null | false | readonly HtmlValue[];

/** Markup from a template; values are escaped (undefined, null and false put nothing). */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** Markup the caller vouches for (constants only, never client input). */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}
