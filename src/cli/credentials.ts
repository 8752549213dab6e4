/**
 * How the start-up banners show a secret (a device password, a destination key): the
 * secret itself only when it is a built-in default (public: `--help` and the README show
 * it) and a person reads the banner at a terminal with readable logs; anywhere else (a
 * pipe, a CI transcript, JSON logs) the banner says where the secret comes from instead,
 * and its commands to try read it from an environment variable.
 */
import { resolve } from 'node:path';
import { logFormat, type LogArgs } from './parse';

/** What decides whether the built-in defaults may be printed. */
export interface SecretsView {
  /** True at a terminal with readable (pretty) logs: the built-in default secrets are printed there. */
  showDefaults: boolean;
}

/** A secret as a banner shows it. */
export interface ShownSecret {
  /** The secret itself (a built-in default, shown), or undefined when it is not printed. */
  value: string | undefined;
  /** Where it comes from, for the banner: `as given by --password`, `in connection file cd.json`. */
  from: string;
  /** The environment variable the commands to try read it from when it is not printed. */
  variable: string;
}

/** The view for a command's output: defaults printed only at a terminal with pretty logs. */
export function secretsView(args: Pick<LogArgs, 'log-format'>, isTty: boolean): SecretsView {
  return { showDefaults: isTty && logFormat(args, isTty) === 'pretty' };
}

/**
 * `secret` as the banner may show it: itself when it equals `builtIn` (the public default)
 * and the view shows defaults; else only `from` (`fromDefault` when it is the default).
 */
export function shownSecret(
  view: SecretsView,
  secret: string,
  builtIn: string,
  from: { given: string; fromDefault: string; variable: string },
): ShownSecret {
  const isDefault = secret === builtIn;
  return {
    value: isDefault && view.showDefaults ? secret : undefined,
    from: isDefault ? from.fromDefault : from.given,
    variable: from.variable,
  };
}

/**
 * One shell word for a command to try: `prefix` then the secret, e.g. `root:pass`, or
 * `"root:$BWC_EMU_PASSWORD"` when the secret is not printed.
 */
export function shellWord(prefix: string, secret: ShownSecret): string {
  if (secret.value === undefined) return `"${prefix.replace(/[\\"$`]/g, '\\$&')}$${secret.variable}"`;
  return shellQuoted(`${prefix}${secret.value}`);
}

/**
 * The lines before commands that read a hidden secret from its variable: what it is, where
 * it comes from, how to set the variable (from the output of `valueCommand` when there is
 * one, else by hand); none when the secret is printed.
 */
export function variableLines(secret: ShownSecret, what: string, valueCommand?: string): string[] {
  if (secret.value !== undefined) return [];
  return [
    `The ${what} is not printed here (${secret.from}); the commands below read it from ${secret.variable}:`,
    valueCommand === undefined
      ? `  export ${secret.variable}='<the ${what}>'`
      : `  export ${secret.variable}="$(${valueCommand})"`,
  ];
}

/** A command that prints the `BlobAPIKey` of the connection file at `path` (Node.js is at hand: bwc-emu runs on it). */
export function connectionKeyCommand(path: string): string {
  return `node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).BlobAPIKey' ${shellQuoted(resolve(path))}`;
}

/** `text` as one shell word. */
function shellQuoted(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
