/**
 * Name = value rows: the `source` and `data` of an event to publish, or a fault parameter that
 * is a map of strings. Each row is a labelled pair of inputs with a Remove button; Add appends
 * one. Remove hands the keyboard on to the next row's name, or to Add when it was the last.
 */
import { h } from './dom.js';

/** A group of rows, and how to read it. */
export interface KvRows {
  element: HTMLFieldSetElement;
  /** The rows with a name, as a map (undefined when there are none). */
  value(): Record<string, string> | undefined;
}

/**
 * A fieldset `legend` whose inputs have ids starting with `idPrefix` (`<idPrefix>-name-0`,
 * `<idPrefix>-value-0`, ...), holding `initial`.
 */
export function kvRows(idPrefix: string, legend: string, initial: Record<string, string> = {}): KvRows {
  const list = h('div');
  const add = h('button', { type: 'button', class: 'small', id: `${idPrefix}-add` }, `Add ${legend} item`);
  let next = 0;

  const addRow = (name = '', value = ''): HTMLInputElement => {
    const n = next++;
    const nameInput = h('input', { id: `${idPrefix}-name-${n}`, type: 'text', value: name, autocomplete: 'off' });
    const valueInput = h('input', { id: `${idPrefix}-value-${n}`, type: 'text', value, autocomplete: 'off' });
    const row = h(
      'div',
      { class: 'kv-row' },
      h('label', { for: nameInput.id, class: 'kv-label' }, `${legend} name`),
      nameInput,
      h('label', { for: valueInput.id, class: 'kv-label' }, 'value'),
      valueInput,
    );
    const remove = (): void => {
      const after = row.nextElementSibling?.querySelector('input') ?? add;
      const hadFocus = row.contains(document.activeElement);
      row.remove();
      if (hadFocus) after.focus();
    };
    row.append(
      h(
        'button',
        { type: 'button', class: 'small', 'aria-label': `Remove ${legend} row ${n + 1}`, onclick: remove },
        'Remove',
      ),
    );
    list.append(row);
    return nameInput;
  };
  add.addEventListener('click', () => addRow().focus());
  for (const [name, value] of Object.entries(initial)) addRow(name, value);

  return {
    element: h('fieldset', { class: 'kv', id: idPrefix }, h('legend', {}, legend), list, add),
    value: () => {
      const result: Record<string, string> = {};
      for (const row of list.children) {
        const [name, value] = row.querySelectorAll('input');
        if (name && value && name.value.trim() !== '') result[name.value.trim()] = value.value;
      }
      return Object.keys(result).length > 0 ? result : undefined;
    },
  };
}
