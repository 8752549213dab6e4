/**
 * Which commands take an option, for the refusal of a misplaced one ("--data-dir is an
 * option of bwc-emu destination"): read from each command's own declaration. Loads every
 * command, so it is required only for that refusal (see main.ts).
 */
import { cloneParser } from './clone';
import { destinationParser } from './destination';
import { deviceFlags } from './device-flags';
import { recordParser } from './record';
import { RUN_OPTIONS } from './run';
import { uploadParser } from './upload';

/** What yargs' `getOptions()` says was declared (the part read here; not in its type declarations). */
interface Declared {
  key: Record<string, unknown>;
  alias: Record<string, string[] | undefined>;
}

/** A command's option names, aliases included. */
function declaredNames(parser: unknown): string[] {
  const { key, alias } = (parser as { getOptions(): Declared }).getOptions();
  return [...Object.keys(key), ...Object.values(alias).flatMap((names) => names ?? [])];
}

/** Each command with the options it takes. */
function commandOptions(): [string, string[]][] {
  const device = Object.entries(deviceFlags()).flatMap(([name, spec]) => [name, ...[spec.alias ?? []].flat()]);
  return [
    ['bwc-emu', device],
    ['bwc-emu run', [...device, ...Object.keys(RUN_OPTIONS)]],
    ['bwc-emu destination', declaredNames(destinationParser([]))],
    ['bwc-emu upload', declaredNames(uploadParser([]))],
    ['bwc-emu record', declaredNames(recordParser([]))],
    ['bwc-emu clone', declaredNames(cloneParser([]))],
  ];
}

/** The commands that take `option` (kebab-case, without dashes). */
export function commandsTaking(option: string): string[] {
  return commandOptions()
    .filter(([, names]) => names.includes(option))
    .map(([command]) => command);
}
