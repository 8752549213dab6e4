/**
 * Building the page's DOM. Text only ever goes in through `textContent` and attributes through
 * `setAttribute`, never `innerHTML`: whatever a device or a client sent is shown, not run.
 */

/** What may be a child: an element, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes: a value each (true: present and empty; false or undefined: absent), `on<event>` a listener. */
export type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** An element `tag` with `attrs` and `children`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends `children` to `parent` (strings as text nodes). */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything in `parent` with `children`. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** The element with id `id`; throws when the page has none (index.html and the panels disagree). */
export function byId<E extends HTMLElement = HTMLElement>(id: string): E {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as E;
}

/** Shows `message` in `where` (an error or status line); empty hides it. */
export function say(where: HTMLElement, message: string): void {
  where.textContent = message;
  where.hidden = message === '';
}

/** `a=1, b=2` of a message part, empty for none. */
export function pairs(part: Record<string, string> | undefined): string {
  return part
    ? Object.entries(part)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')
    : '';
}
