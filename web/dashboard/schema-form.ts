/**
 * The inputs of a JSON Schema object (a fault switch's `params`), as ./schema-fields maps each
 * property, with their labels and hints. The server checks the values; this only reads them.
 */
import { h, withCode } from './dom.js';
import { kvRows } from './kv-rows.js';
import { type FieldSpec, fieldsOf, type RawValue, valueOf } from './schema-fields.js';
import type { ParamSchema } from './types.js';

/** The inputs of one schema, and how to read them. */
export interface SchemaForm {
  element: HTMLElement;
  /** The values given; an empty optional input is left out. Throws for a number that is not one. */
  values(): Record<string, unknown>;
}

/** Inputs for `schema`'s properties, with ids `<idPrefix>-<property>`. */
export function schemaForm(idPrefix: string, schema: ParamSchema | undefined): SchemaForm {
  const element = h('div');
  const readers: [FieldSpec, () => RawValue][] = [];
  for (const field of fieldsOf(schema)) {
    const id = `${idPrefix}-${field.name}`;
    const hintId = `${id}-hint`;
    const described = field.hint ? { 'aria-describedby': hintId } : {};
    const hint = field.hint ? h('span', { id: hintId, class: 'hint' }, ...withCode(field.hint)) : null;
    const labelled = (input: HTMLElement): HTMLElement =>
      h('div', { class: 'field' }, h('label', { for: id }, field.name), input, hint);
    const checkbox = (label: string, checked: boolean): void => {
      const input = h('input', { id, type: 'checkbox', checked, ...described });
      element.append(h('div', { class: 'field inline' }, input, h('label', { for: id }, label), hint));
      readers.push([field, () => input.checked]);
    };
    switch (field.kind) {
      case 'const':
        checkbox(`${field.name} = ${JSON.stringify(field.value)}`, false);
        break;
      case 'boolean':
        checkbox(field.name, field.checked);
        break;
      case 'enum': {
        const select = h(
          'select',
          { id, ...described },
          field.unset ? h('option', { value: '' }, '(not set)') : null,
          ...field.labels.map((label) => h('option', { value: label, selected: label === field.selected }, label)),
        );
        element.append(labelled(select));
        readers.push([field, () => select.value]);
        break;
      }
      case 'number': {
        const input = h('input', {
          id,
          type: 'number',
          inputmode: field.integer ? 'numeric' : 'decimal',
          step: field.integer ? 1 : 'any',
          min: field.min,
          max: field.max,
          value: field.value || undefined,
          ...described,
        });
        element.append(labelled(input));
        readers.push([field, () => input.value]);
        break;
      }
      case 'map': {
        const rows = kvRows(id, field.name, field.initial);
        element.append(rows.element);
        if (hint) element.append(hint);
        readers.push([field, () => rows.value()]);
        break;
      }
      case 'text': {
        const input = h('input', {
          id,
          type: 'text',
          autocomplete: 'off',
          value: field.value || undefined,
          ...described,
        });
        element.append(labelled(input));
        readers.push([field, () => input.value]);
        break;
      }
    }
  }
  return {
    element,
    values: () => {
      const values: Record<string, unknown> = {};
      for (const [field, read] of readers) {
        const value = valueOf(field, read());
        if (value !== undefined) values[field.name] = value;
      }
      return values;
    },
  };
}
