/** `bwc-emu scenarios`: the shipped scenarios with their descriptions. */
import { SHIPPED_SCENARIOS_DIR, shippedScenarios } from '../scenario/shipped';
import type { CliIo } from './parse';

/** Lists the shipped scenarios, one a line; always exit 0. */
export function scenariosCommand(_argv: string[], io: CliIo): Promise<number> {
  const rows = shippedScenarios();
  const width = Math.max(...rows.map((s) => s.name.length));
  io.out(`Shipped scenarios (bwc-emu --scenario NAME), in ${SHIPPED_SCENARIOS_DIR}:\n`);
  for (const { name, description } of rows) io.out(`  ${name.padEnd(width)}  ${description}\n`);
  return Promise.resolve(0);
}
