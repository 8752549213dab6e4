/**
 * Number flags that refuse a value that is no number by naming the flag and the value
 * ("--port must be a port number (0-65535), not "abc""): yargs' own `type: 'number'`
 * turns "abc" into NaN before any check sees it, and then says "not NaN".
 */

/** What a number flag accepts: any number (the command checks its range), or a TCP port. */
type NumberKind = 'number' | 'port';

/** A number flag's yargs spec, with `coerce` doing the check (so it also checks values from variables and files). */
type NumberFlag<D extends number | undefined> = {
  alias?: string;
  describe: string;
  requiresArg: true;
  coerce: (value: unknown) => number;
} & (D extends number ? { default: D } : { default?: undefined });

/** What each kind says after "must be". */
const KIND_WORDS: Record<NumberKind, string> = {
  number: 'a number',
  port: 'a port number (0-65535)',
};

/** The flag `--name` taking a number of `kind`; `spec.default` may be left undefined. */
export function numberFlag<D extends number | undefined = undefined>(
  name: string,
  kind: NumberKind,
  spec: { alias?: string; default?: D; describe: string },
): NumberFlag<D> {
  const flag = {
    ...(spec.alias === undefined ? {} : { alias: spec.alias }),
    ...(spec.default === undefined ? {} : { default: spec.default }),
    describe: spec.describe,
    requiresArg: true,
    coerce: (value: unknown) => {
      const number = toNumber(value);
      if (number !== undefined && fits(number, kind)) return number;
      throw new Error(`--${name} must be ${KIND_WORDS[kind]}, not ${JSON.stringify(value)}`);
    },
  };
  return flag as NumberFlag<D>;
}

/** The number a flag's value (a number, or text from a variable or file) stands for, else undefined. */
function toNumber(value: unknown): number | undefined {
  if (Array.isArray(value)) return toNumber(value[value.length - 1]); // a repeated flag: the last one wins
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Whether `number` is of `kind`. */
function fits(number: number, kind: NumberKind): boolean {
  return kind === 'number' || (Number.isInteger(number) && number >= 0 && number <= 65535);
}
