/**
 * The `bwc-emu` command line: picks the command from the first word; each command is its own
 * file, loaded only when it runs, so `bwc-emu destination` loads no device, no scenario
 * format, no control API (a command's file loads what it needs): `bwc-emu validate` takes
 * about half the time and 10 MB less than with every command loaded (bench/lazy-load.js).
 *
 * The commands are a thin shell over the public face: they take what a user could call from
 * `../index`, and from the layers below only what no user needs (flag parsing helpers such
 * as durations and sizes, the grading report's table and JUnit, the shipped scenarios' list).
 */
import type * as CloneModule from './clone';
import type * as DestinationModule from './destination';
import type * as DeviceModule from './device';
import type * as OptionOwnersModule from './option-owners';
import { processIo, unblockProcessOutput } from './output';
import { type CliIo, whereOptionsBelong } from './parse';
import type * as RecordModule from './record';
import type * as RunModule from './run';
import type * as ScenariosModule from './scenarios';
import type * as UploadModule from './upload';
import type * as ValidateModule from './validate';

export type { CliIo } from './parse';
export { flushOutput } from './output';

/** A command: its arguments after the first word, the output to use; resolves to the exit code. */
type Command = (argv: string[], io: CliIo) => Promise<number>;

/* eslint-disable @typescript-eslint/no-require-imports -- commands load on use: see the file comment */
/** The commands named by a first word; anything else runs devices (`bwc-emu [options]`). */
const COMMANDS: Record<string, () => Command> = {
  validate: () => (require('./validate') as typeof ValidateModule).validateCommand,
  scenarios: () => (require('./scenarios') as typeof ScenariosModule).scenariosCommand,
  record: () => (require('./record') as typeof RecordModule).recordCommand,
  clone: () => (require('./clone') as typeof CloneModule).cloneCommand,
  destination: () => (require('./destination') as typeof DestinationModule).destinationCommand,
  upload: () => (require('./upload') as typeof UploadModule).uploadCommand,
  run: () => (require('./run') as typeof RunModule).runCommand,
};
const deviceCommand = (): Command => (require('./device') as typeof DeviceModule).deviceCommand;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Runs the CLI; resolves to the exit code. With the process's own output, makes it non-blocking first. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) unblockProcessOutput();
  // Loads every command, so only when an unknown option is refused.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see the file comment
  whereOptionsBelong((option) => (require('./option-owners') as typeof OptionOwnersModule).commandsTaking(option));
  const command = Object.hasOwn(COMMANDS, argv[0] ?? '') ? COMMANDS[argv[0]] : undefined;
  return command ? command()(argv.slice(1), io) : deviceCommand()(argv, io);
}
