/**
 * Name = value rows: the `source` and `data` of an event to publish, or a fault parameter that
 * is a map of strings. Each row is a labelled pair of inputs with a Remove button; Add appends one.
 */
import { h } from './dom.js';

/** A group of rows, and how to read it. */
export interface KvRows {
  element: HTMLFieldSetElement;
  /** The rows with a name, as a map (undefined when there are none). */
  value(): Record<string, string> | undefined;
  /** Replaces the rows with `values`. */
  set(values: Record<string, string>): void;
}

/**
 * A fieldset `legend` whose inputs have ids starting with `idPrefix` (`<idPrefix>-name-0`,
 * `<idPrefix>-value-0`, ...), holding `initial`.
 */
export function kvRows(idPrefix: string, legend: string, initial: Record<string, string> = {}): KvRows {
  const list = h('div', { class: 'kv-list' });
  let next = 0;

  const addRow = (name = '', value = ''): HTMLInputElement => {
    const n = next++;
    const nameInput = h('input', { id: `${idPrefix}-name-${n}`, type: 'text', value: name, autocomplete: 'off' });
    const valueInput = h('input', { id: `${idPrefix}-value-${n}`, type: 'text', value, autocomplete: 'off' });
    const row = h(
      'div',
      { class: 'kv-row', 'data-testid': `${idPrefix}-row` },
      h('label', { for: nameInput.id, class: 'kv-label' }, `${legend} name`),
      nameInput,
      h('label', { for: valueInput.id, class: 'kv-label' }, 'value'),
      valueInput,
    );
    row.append(
      h(
        'button',
        { type: 'button', class: 'small', 'aria-label': `Remove ${legend} row ${n + 1}`, onclick: () => row.remove() },
        'Remove',
      ),
    );
    list.append(row);
    return nameInput;
  };

  const element = h(
    'fieldset',
    { class: 'kv', id: idPrefix },
    h('legend', {}, legend),
    list,
    h(
      'button',
      { type: 'button', class: 'small', id: `${idPrefix}-add`, onclick: () => addRow().focus() },
      `Add ${legend} item`,
    ),
  );

  const set = (values: Record<string, string>): void => {
    list.replaceChildren();
    for (const [name, value] of Object.entries(values)) addRow(name, value);
  };
  set(initial);

  return {
    element,
    set,
    value: () => {
      const result: Record<string, string> = {};
      for (const row of list.querySelectorAll('.kv-row')) {
        const [name, value] = row.querySelectorAll('input');
        if (name && value && name.value.trim() !== '') result[name.value.trim()] = value.value;
      }
      return Object.keys(result).length > 0 ? result : undefined;
    },
  };
}
