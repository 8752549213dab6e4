/**
 * Inputs made from a JSON Schema object (a fault switch's `params`): boolean -> checkbox,
 * integer and number -> number input with its bounds, enum -> select, string -> text, a map of
 * strings -> name/value rows, a constant -> a checkbox that sends it. Defaults filled in, the
 * description as the hint. The server checks the values; this only reads them.
 */
import { append, h } from './dom.js';
import { kvRows } from './kv-rows.js';
import type { ParamSchema } from './types.js';

/** The inputs of one schema, and how to read them. */
export interface SchemaForm {
  element: HTMLElement;
  /** The values given; an empty optional input is left out. Throws for a number that is not one. */
  values(): Record<string, unknown>;
}

/** Bounds beyond this are no bounds a person needs told (zod's safe-integer limits). */
const SHOWN_BOUND = 1e15;

/** Inputs for `schema`'s properties, with ids `<idPrefix>-<property>`. */
export function schemaForm(idPrefix: string, schema: ParamSchema | undefined): SchemaForm {
  const readers: [string, () => unknown][] = [];
  const element = h('div', { class: 'schema-form' });
  const required = new Set(schema?.required ?? []);
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const id = `${idPrefix}-${name}`;
    const hintId = `${id}-hint`;
    const hint = hintOf(property, required.has(name));
    const described = hint ? { 'aria-describedby': hintId } : {};
    const hintElement = hint ? h('span', { id: hintId, class: 'hint' }, hint) : null;
    if (property.const !== undefined) {
      const input = h('input', { id, type: 'checkbox', ...described });
      element.append(
        h(
          'div',
          { class: 'field inline' },
          input,
          h('label', { for: id }, `${name} = ${JSON.stringify(property.const)}`),
          hintElement,
        ),
      );
      readers.push([name, () => (input.checked ? property.const : undefined)]);
    } else if (property.type === 'boolean') {
      const input = h('input', { id, type: 'checkbox', checked: property.default === true, ...described });
      element.append(h('div', { class: 'field inline' }, input, h('label', { for: id }, name), hintElement));
      readers.push([name, () => input.checked]);
    } else if (property.enum) {
      const select = h(
        'select',
        { id, ...described },
        property.default === undefined ? h('option', { value: '' }, '(not set)') : null,
        ...property.enum.map((v) => h('option', { value: String(v), selected: v === property.default }, String(v))),
      );
      element.append(field(id, name, select, hintElement));
      readers.push([name, () => property.enum?.find((v) => String(v) === select.value)]);
    } else if (property.type === 'integer' || property.type === 'number') {
      const input = h('input', {
        id,
        type: 'number',
        inputmode: property.type === 'integer' ? 'numeric' : 'decimal',
        step: property.type === 'integer' ? 1 : 'any',
        min: bound(property.minimum),
        max: bound(property.maximum),
        value: typeof property.default === 'number' ? property.default : undefined,
        ...described,
      });
      element.append(field(id, name, input, hintElement));
      readers.push([
        name,
        () => {
          if (input.value.trim() === '') return undefined;
          const value = Number(input.value);
          if (!Number.isFinite(value)) throw new Error(`${name}: "${input.value}" is not a number`);
          return value;
        },
      ]);
    } else if (property.type === 'object') {
      const initial = (property.default ?? {}) as Record<string, string>;
      const rows = kvRows(id, name, initial);
      append(element, rows.element, hintElement);
      readers.push([name, () => rows.value() ?? (property.default === undefined ? undefined : {})]);
    } else {
      const input = h('input', {
        id,
        type: 'text',
        autocomplete: 'off',
        value: typeof property.default === 'string' ? property.default : undefined,
        ...described,
      });
      element.append(field(id, name, input, hintElement));
      readers.push([name, () => (input.value === '' && !required.has(name) ? undefined : input.value)]);
    }
  }
  return {
    element,
    values: () => {
      const values: Record<string, unknown> = {};
      for (const [name, read] of readers) {
        const value = read();
        if (value !== undefined) values[name] = value;
      }
      return values;
    },
  };
}

/** A labelled input. */
function field(id: string, label: string, input: HTMLElement, hint: HTMLElement | null): HTMLElement {
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint);
}

/** The hint of a property: its description, its bounds, whether it may stay empty. */
function hintOf(property: ParamSchema, required: boolean): string {
  const range =
    bound(property.minimum) !== undefined && bound(property.maximum) !== undefined
      ? `${property.minimum}–${property.maximum}`
      : '';
  const optional = !required && property.default === undefined && property.type !== 'boolean' ? 'optional' : '';
  return [property.description ?? '', range, optional].filter(Boolean).join('; ');
}

function bound(value: number | undefined): number | undefined {
  return value !== undefined && Math.abs(value) < SHOWN_BOUND ? value : undefined;
}
