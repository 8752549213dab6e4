/**
 * Checks of options given to the public API: a bad value, or a name that is not an option
 * (a typo, or an option given at the wrong level), is an `EmulatorError` `BAD_OPTION` naming it.
 */
import { closestName } from './closest-name';
import { EmulatorError } from './errors';

/** `value` when it is a whole number from `min` to `max`; otherwise `BAD_OPTION` naming `name`. */
export function wholeNumberOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new EmulatorError('BAD_OPTION', `${name} must be a whole number from ${min} to ${max}, not ${value}`);
  return value;
}

/**
 * The option names of `T` as a table: written `{ ... } satisfies OptionNames<T>`, it fails to
 * compile when `T` gains an option the table lacks or the table names one `T` has not, so
 * the names checked at run time are the interface's own.
 */
export type OptionNames<T> = { readonly [K in keyof T]-?: true };

/** An {@link OptionNames} table of some options, as the checks read it. */
type NameTable = Readonly<Record<string, true>>;

/** Options that belong one level down (`port` under `device`): that option's name and their names. */
export interface OptionHome {
  readonly under: string;
  readonly names: NameTable;
}

/** Where a checked options object sits: the function given it, its path in that function's options, its home. */
export interface OptionPlace {
  /** The function the options were given to, first word of the message (`startEmulator`). */
  readonly where: string;
  /** Path of `given` in the options (`device`); none at the top level. */
  readonly at?: string;
  /** Where unknown names that are options one level down belong. */
  readonly home?: OptionHome;
}

/**
 * Throws one `BAD_OPTION` naming every key of `given` that `known` lacks, each with where
 * it belongs (`port, auth: they are device options; pass them as { device: { port: 0 } }`)
 * or the known name it is probably a typo of; before, such options were silently ignored.
 * `undefined` passes (the option was not given); anything but a plain object is refused.
 */
export function checkOptionNames(given: unknown, known: NameTable, place: OptionPlace): void {
  if (given === undefined) return;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new EmulatorError(
      'BAD_OPTION',
      `${place.where}: ${place.at ?? 'options'} must be an object, not ${shownValue(given)}`,
    );
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(known, name));
  if (unknown.length === 0) return;
  const { home } = place;
  const moved = home ? unknown.filter((name) => Object.hasOwn(home.names, name)) : [];
  const parts = [
    ...(home && moved.length > 0 ? [movedClause(given as Record<string, unknown>, moved, unknown, home.under)] : []),
    ...guessClauses(
      unknown.filter((name) => !moved.includes(name)),
      unknown.length,
      known,
      place,
    ),
  ];
  throw new EmulatorError(
    'BAD_OPTION',
    `${place.where}: unknown option${plural(unknown)} ${unknown.map((name) => pathOf(place, name)).join(', ')}: ${parts.join('; ')}`,
  );
}

/** `they are device options; pass them as { device: { port: 0, auth: 'none' } }`, for the `moved` of `unknown`. */
function movedClause(given: Record<string, unknown>, moved: string[], unknown: string[], under: string): string {
  const several = moved.length > 1;
  const subject = moved.length === unknown.length ? (several ? 'they' : 'it') : moved.join(', ');
  const values = moved.map((name) => `${name}: ${shownValue(given[name])}`).join(', ');
  const article = /^[aeiou]/i.test(under) ? 'an' : 'a';
  return `${subject} ${several ? 'are' : `is ${article}`} ${under} option${plural(moved)}; pass ${several ? 'them' : 'it'} as { ${under}: { ${values} } }`;
}

/**
 * `did you mean speed?` for each of `names` close to a known name (or to one a level down:
 * `prot` -> `device.port`), and the known names once if any is close to none.
 */
function guessClauses(names: string[], unknownCount: number, known: NameTable, place: OptionPlace): string[] {
  const { home } = place;
  const guessed = names.map((name) => {
    const below = home && closestName(name, Object.keys(home.names));
    return [name, closestName(name, Object.keys(known)) ?? (below && `${home.under}.${below}`)] as const;
  });
  const parts = guessed.flatMap(([name, meant]) =>
    meant === undefined ? [] : [`${unknownCount > 1 ? `${pathOf(place, name)}: ` : ''}did you mean ${meant}?`],
  );
  if (guessed.some(([, meant]) => meant === undefined))
    parts.push(`the ${place.at === undefined ? '' : `${place.at} `}options are ${Object.keys(known).join(', ')}`);
  return parts;
}

/** `name` as the caller wrote it: `device.prot` for `prot` under `device`. */
function pathOf(place: OptionPlace, name: string): string {
  return place.at === undefined ? name : `${place.at}.${name}`;
}

/** `s` for several. */
function plural(list: readonly unknown[]): string {
  return list.length > 1 ? 's' : '';
}

/** A value as it would be written in the options: `'none'`, `0`, `true`, `[...]`, `{...}`. */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/[\\']/g, '\\$&')}'`;
  if (Array.isArray(value)) return '[...]';
  if (typeof value === 'function') return 'function';
  if (typeof value === 'object' && value !== null) return '{...}';
  return String(value);
}
