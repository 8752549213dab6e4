/**
 * Building the page's DOM. Text only ever goes in through `textContent` and attributes through
 * `setAttribute`, never `innerHTML`: whatever a device or a client sent is shown, not run.
 */
import { codeSpans } from './inline-code.js';

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
function append(parent: Node, ...children: Child[]): void {
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

/**
 * Puts `rows` (newest first) at the top of `list`, then removes rows from its end while it has
 * more than `max`, or while the last one is not to be kept (`keep`: the journal's, by seq).
 */
export function prependBounded(
  list: Element,
  rows: Element[],
  max: number,
  keep: (row: Element) => boolean = () => true,
): void {
  list.prepend(...rows);
  for (let last = list.lastElementChild; last && (list.childElementCount > max || !keep(last));) {
    last.remove();
    last = list.lastElementChild;
  }
}

/** Characters of a value shown before it is clipped. */
const CLIP_AT = 200;

/**
 * `text` as a text node, or when longer than {@link CLIP_AT} a disclosure (details) whose
 * summary is its start and which opens on the rest: a long value does not push the list
 * apart. The element's text is still the whole of `text`.
 */
export function clipped(text: string): Node {
  if (text.length <= CLIP_AT) return document.createTextNode(text);
  return h(
    'details',
    { class: 'clip' },
    h('summary', { 'data-more': `+${text.length - CLIP_AT} characters` }, text.slice(0, CLIP_AT)),
    text.slice(CLIP_AT),
  );
}

/**
 * `text` (topics, filters) with a `<wbr>` after each `/` and `|`: a line breaks there, between
 * the names of a topic, before it breaks inside a name (only a name wider than the line does,
 * where the CSS lets it: `overflow-wrap: anywhere` breaks anywhere only on a line with no other
 * place to break).
 */
export function breakingAfterSlashes(text: string): Child[] {
  return text.split(/(?<=[/|])/).flatMap((piece, i) => (i === 0 ? [piece] : [h('wbr'), piece]));
}

/** `text` of a catalogue as children of an element: its inline code (`x`, ./inline-code) as <code>, the rest as text. */
export function withCode(text: string): Child[] {
  return codeSpans(text).map((span) => (span.code ? h('code', {}, span.text) : span.text));
}
