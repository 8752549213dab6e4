/** `bwc-emu scenarios`: the shipped scenarios with their descriptions. */
import yargs from 'yargs';
import { SHIPPED_SCENARIOS_DIR, shippedScenarios } from '../scenario/shipped';
import { type CliIo, parseCommandLine } from './parse';

const COMMAND = 'bwc-emu scenarios';

/** Lists the shipped scenarios, one a line; exit 0 (2 for an option it does not take). */
export async function scenariosCommand(argv: string[], io: CliIo): Promise<number> {
  const parser = yargs(argv)
    .scriptName(COMMAND)
    .usage('$0\n\nLists the shipped scenarios, for bwc-emu --scenario NAME.')
    .demandCommand(0, 0)
    .strict()
    .help()
    .alias('help', 'h');
  const parsed = await parseCommandLine(parser, argv, COMMAND, io);
  if (!parsed.ok) return parsed.code;
  const rows = shippedScenarios();
  const width = Math.max(...rows.map((s) => s.name.length));
  io.out(`Shipped scenarios (bwc-emu --scenario NAME), in ${SHIPPED_SCENARIOS_DIR}:\n`);
  for (const { name, description } of rows) io.out(`  ${name.padEnd(width)}  ${description}\n`);
  return 0;
}
