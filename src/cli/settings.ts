/**
 * Where a command's settings come from besides its flags: a variable `BWC_EMU_<OPTION>`
 * (`BWC_EMU_PORT=0` for `--port 0`), what CI files and containers use, and a JSON or YAML
 * file named by `--config FILE` (or `BWC_EMU_CONFIG`). A flag wins over a variable, a
 * variable over the file, the file over the defaults. Both reach yargs through its own
 * `config()`: yargs' `env()` would take every `BWC_EMU_*` variable for an option, and under
 * `strict()` refuse the command for a variable that is no option of it (one of another
 * command, a test's switch, the names `bwc-emu run` hands its command).
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Argv } from 'yargs';
import type * as YamlModule from 'yaml';

/** The start of every variable that sets an option. */
export const ENV_PREFIX = 'BWC_EMU_';

/** The variables `bwc-emu run` gives its command (documented in docs/testing.md). */
export const RUN_ENVIRONMENT = [
  'BWC_EMU_URL',
  'BWC_EMU_WS_URL',
  'BWC_EMU_USER',
  'BWC_EMU_PASSWORD',
  'BWC_EMU_CONTROL_URL',
  'BWC_EMU_READY_FILE',
] as const;

/**
 * Variables bwc-emu hands out, never read as settings: `run`'s, and BWC_EMU_KEY, which the
 * destination's banner has the user export. A bwc-emu started by the command of
 * `bwc-emu run` must not take over the outer one's ready file or login.
 */
export const HANDED_OUT_VARIABLES: readonly string[] = [...RUN_ENVIRONMENT, 'BWC_EMU_KEY'];

/** Said once, under the option list of every command's `--help`. */
export const SETTINGS_HELP =
  `Every option can also be set by a variable ${ENV_PREFIX}<OPTION> (${ENV_PREFIX}PORT=0 for --port 0, ` +
  `${ENV_PREFIX}LOG_LEVEL=debug; true or false for a switch; one value for a repeatable option) or in a ` +
  `JSON or YAML file named by --config FILE or ${ENV_PREFIX}CONFIG ({"port": 0, "scenario": ["motion"]}). ` +
  `A flag wins over a variable, a variable over the file. ${HANDED_OUT_VARIABLES.join(', ')} are not ` +
  'read (bwc-emu hands them out): give those options as flags or in the file.';

/** What the variables and the config file set, to name them when a value they gave is refused. */
export interface Settings {
  /** `message` with where the options it names got their values, when not from the command line. */
  explain: (message: string) => string;
  /** A variable whose value no option can take (a switch that is not true or false), else undefined. */
  problem: string | undefined;
}

/** What yargs' `getOptions()` says was declared (the part read here). */
interface DeclaredOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[] | undefined>;
  boolean: string[];
}

/** The words `true`/`false` a switch takes from a variable, and their usual spellings. */
const SWITCH_WORDS: Record<string, boolean> = { true: true, 1: true, yes: true, false: false, 0: false, no: false };

/** `BWC_EMU_LOG_LEVEL` for `log-level`. */
export function variableName(option: string): string {
  return `${ENV_PREFIX}${option
    .replace(/[A-Z]/g, (c) => `-${c}`)
    .toUpperCase()
    .replace(/-/g, '_')}`;
}

/**
 * Adds `--config FILE`, the variables' and the file's values and {@link SETTINGS_HELP} to
 * `parser`, whose own options are all declared; `argv` (its command line) tells which
 * values a flag gave.
 */
export function withSettings<T>(
  parser: Argv<T>,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Settings {
  // getOptions() is yargs' own (not in its type declarations): what was declared, by kind.
  const declared = (parser as unknown as { getOptions(): DeclaredOptions }).getOptions();
  const aliases = declared.alias;
  const aliasNames = new Set(Object.values(aliases).flat());
  const options = Object.keys(declared.key).filter(
    (key) => !aliasNames.has(key) && key !== 'help' && key !== 'version' && key !== 'config',
  );
  const fromEnv: Record<string, unknown> = {};
  let problem: string | undefined;
  for (const option of options) {
    const name = variableName(option);
    const text = env[name];
    if (text === undefined || HANDED_OUT_VARIABLES.includes(name)) continue;
    if (!declared.boolean.includes(option)) fromEnv[option] = text;
    else if (Object.hasOwn(SWITCH_WORDS, text.trim().toLowerCase()))
      fromEnv[option] = SWITCH_WORDS[text.trim().toLowerCase()];
    else problem ??= `${name} must be true or false (for --${option}), not ${JSON.stringify(text)}`;
  }
  let file: { path: string; values: Record<string, unknown> } | undefined;
  const configPath = env[`${ENV_PREFIX}CONFIG`];
  parser
    .option('config', { type: 'string', ...(configPath ? { default: configPath } : {}) })
    .config(
      'config',
      `read options from this JSON or YAML file (flags and ${ENV_PREFIX}* variables win)`,
      (path: string) => {
        file = { path, values: readConfigFile(path) };
        return { ...file.values, ...fromEnv };
      },
    )
    .config(fromEnv)
    .epilogue(SETTINGS_HELP);
  const given = (option: string): boolean => onCommandLine(argv, option, aliases[option] ?? []);
  return {
    problem,
    explain: (message) => {
      const notes = mentionedOptions(message).flatMap((option) => {
        if (Object.hasOwn(fromEnv, option) && !given(option)) return [`--${option} was set by ${variableName(option)}`];
        if (option === 'config' && configPath !== undefined && !given(option))
          return [`--config was set by ${ENV_PREFIX}CONFIG`];
        if (file && hasOption(file.values, option) && !given(option))
          return [`--${option} was set by the config file ${file.path}`];
        return [];
      });
      return notes.length === 0 ? message : `${message} (${notes.join('; ')})`;
    },
  };
}

/** The options of the config file at `path`: JSON, or YAML for `.yaml`/`.yml`; throws a one-line reason. */
function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`--config ${path}: cannot read it: ${(err as Error).message}`);
  }
  const yaml = ['.yaml', '.yml'].includes(extname(path).toLowerCase());
  let value: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a YAML config file
    value = yaml ? (require('yaml') as typeof YamlModule).parse(text) : JSON.parse(text);
  } catch (err) {
    throw new Error(`--config ${path}: not valid ${yaml ? 'YAML' : 'JSON'}: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`--config ${path}: must be an object of options, e.g. {"port": 0}`);
  return value as Record<string, unknown>;
}

/** The options a yargs or bwc-emu message names (`--port`, yargs' `Argument: auth`), kebab-case. */
function mentionedOptions(message: string): string[] {
  const names = [...message.matchAll(/--(?:no-)?([a-zA-Z][\w-]*)|Argument: ([\w-]+)/g)].map((m) => m[1] ?? m[2]);
  return [...new Set(names.map((n) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)))];
}

/** Whether the config file has `option`, kebab-case or camelCase. */
function hasOption(values: Record<string, unknown>, option: string): boolean {
  return (
    Object.hasOwn(values, option) ||
    Object.hasOwn(
      values,
      option.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()),
    )
  );
}

/** Whether a word before `--` gives `option` (or one of its `aliases`) a value. */
function onCommandLine(argv: readonly string[], option: string, aliases: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  const camel = option.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  const longs = [option, camel, ...aliases.filter((a) => a.length > 1)].flatMap((n) => [`--${n}`, `--no-${n}`]);
  const shorts = aliases.filter((a) => a.length === 1).map((a) => `-${a}`);
  return words.some(
    (w) =>
      longs.some((l) => w === l || w.startsWith(`${l}=`)) || shorts.some((s) => w.startsWith(s) && !w.startsWith('--')),
  );
}
