/**
 * `schema/scenario.schema.json`: the JSON Schema of scenario files, generated from
 * the zod schema so editors (YAML language server) can complete and check them.
 * Add `# yaml-language-server: $schema=<path>/scenario.schema.json` to a scenario file.
 *
 * Regenerate after changing ./schema.ts:
 *   UPDATE_SCHEMA=1 npx jest test/unit/scenario-schema
 * (the same test fails while the committed file is not current).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ScenarioSchema } from './schema';

/** Where the committed JSON Schema lives, from the package root. */
export const SCENARIO_JSON_SCHEMA_PATH = join(__dirname, '..', '..', 'schema', 'scenario.schema.json');

/** The JSON Schema of a scenario file, input side: durations are strings, as written. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScenarioSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}

/** The exact text of `schema/scenario.schema.json`: {@link scenarioJsonSchema}, 2-space JSON, newline at end. */
export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}

/** Writes {@link scenarioJsonSchemaText} to `file` (default: the committed schema file). */
export function writeScenarioJsonSchema(file: string = SCENARIO_JSON_SCHEMA_PATH): void {
  writeFileSync(file, scenarioJsonSchemaText(), 'utf8');
}
