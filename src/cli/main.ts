/** The `bwc-emu` command line: picks the command from the first word; each command is its own file. */
import { destinationCommand } from './destination';
import { deviceCommand } from './device';
import { processIo, unblockProcessOutput } from './output';
import type { CliIo } from './parse';
import { recordCommand } from './record';
import { runCommand } from './run';
import { scenariosCommand } from './scenarios';
import { uploadCommand } from './upload';
import { validateCommand } from './validate';

export type { CliIo } from './parse';
export { flushOutput } from './output';

/** The commands named by a first word; anything else runs devices (`bwc-emu [options]`). */
const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  validate: validateCommand,
  scenarios: scenariosCommand,
  record: recordCommand,
  destination: destinationCommand,
  upload: uploadCommand,
  run: runCommand,
};

/** Runs the CLI; resolves to the exit code. With the process's own output, makes it non-blocking first. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) unblockProcessOutput();
  const command = Object.hasOwn(COMMANDS, argv[0] ?? '') ? COMMANDS[argv[0]] : undefined;
  return command ? command(argv.slice(1), io) : deviceCommand(argv, io);
}
