/**
 * What input each property of a JSON Schema object (a fault switch's `params`) gets, and how
 * what the input holds is read back: a constant -> a checkbox that sends it, boolean ->
 * checkbox, enum -> select, integer and number -> number input with its bounds, a map of
 * strings -> name/value rows, anything else -> text. Defaults filled in, the description (and
 * the bounds, and "optional") as the hint. Pure (no DOM): ./schema-form draws it; unit-tested.
 */
import type { ParamSchema } from './types.js';

/** One property's input. */
export type FieldSpec = { name: string; hint: string } & (
  | { kind: 'const'; value: unknown }
  | { kind: 'boolean'; checked: boolean }
  /** `unset`: a "(not set)" choice first (no default); `selected`: the default's label, '' for none. */
  | { kind: 'enum'; values: unknown[]; labels: string[]; selected: string; unset: boolean }
  | { kind: 'number'; integer: boolean; min: number | undefined; max: number | undefined; value: string }
  /** `empty`: what rows without a name send (`{}` when the schema has a default, else nothing). */
  | { kind: 'map'; initial: Record<string, string>; empty: Record<string, string> | undefined }
  | { kind: 'text'; value: string; required: boolean }
);

/** What an input holds: a checkbox's state, a text or a select's value, the named rows (undefined: none). */
export type RawValue = boolean | string | Record<string, string> | undefined;

/** Bounds beyond this are no bounds a person needs told (zod's safe-integer limits). */
const SHOWN_BOUND = 1e15;

/** The inputs of `schema`'s properties, in its order. */
export function fieldsOf(schema: ParamSchema | undefined): FieldSpec[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]): FieldSpec => {
    const hint = hintOf(property, required.has(name));
    const base = { name, hint };
    if (property.const !== undefined) return { ...base, kind: 'const', value: property.const };
    if (property.type === 'boolean') return { ...base, kind: 'boolean', checked: property.default === true };
    if (property.enum) {
      const labels = property.enum.map(String);
      const chosen = property.enum.indexOf(property.default);
      return {
        ...base,
        kind: 'enum',
        values: property.enum,
        labels,
        selected: chosen < 0 ? '' : labels[chosen],
        unset: property.default === undefined,
      };
    }
    if (property.type === 'integer' || property.type === 'number')
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        min: bound(property.minimum),
        max: bound(property.maximum),
        value: typeof property.default === 'number' ? String(property.default) : '',
      };
    if (property.type === 'object')
      return {
        ...base,
        kind: 'map',
        initial: (property.default ?? {}) as Record<string, string>,
        empty: property.default === undefined ? undefined : {},
      };
    return {
      ...base,
      kind: 'text',
      value: typeof property.default === 'string' ? property.default : '',
      required: required.has(name),
    };
  });
}

/** The value `field` sends for what its input holds (`raw`); undefined: left out. Throws for a number that is not one. */
export function valueOf(field: FieldSpec, raw: RawValue): unknown {
  switch (field.kind) {
    case 'const':
      return raw === true ? field.value : undefined;
    case 'boolean':
      return raw === true;
    case 'enum':
      return field.values.find((v) => String(v) === raw);
    case 'number': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return undefined;
      const value = Number(text);
      if (!Number.isFinite(value)) throw new Error(`${field.name}: "${text}" is not a number`);
      return value;
    }
    case 'map':
      return typeof raw === 'object' ? raw : field.empty;
    case 'text': {
      const text = typeof raw === 'string' ? raw : '';
      return text === '' && !field.required ? undefined : text;
    }
  }
}

/** The hint of a property: its description, its bounds, whether it may stay empty. */
function hintOf(property: ParamSchema, required: boolean): string {
  const min = bound(property.minimum);
  const max = bound(property.maximum);
  const range = min !== undefined && max !== undefined ? `${min}–${max}` : '';
  const optional = !required && property.default === undefined && property.type !== 'boolean' ? 'optional' : '';
  return [property.description ?? '', range, optional].filter(Boolean).join('; ');
}

function bound(value: number | undefined): number | undefined {
  return value !== undefined && Math.abs(value) < SHOWN_BOUND ? value : undefined;
}
