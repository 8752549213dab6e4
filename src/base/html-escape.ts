/** Escaping text for HTML: element content or a quoted attribute value. */

/** `<`, `>`, `&`, `"` and `'` as numeric character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
