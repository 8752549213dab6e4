/**
 * `schema/scenario.schema.json`: the JSON Schema of scenario files, generated from
 * the zod schema so editors (YAML language server) can complete and check them.
 * Add `# yaml-language-server: $schema=<path>/scenario.schema.json` to a scenario file.
 * Generation and the other schema files: see ../json-schema.ts (`npm run schema`).
 */
import { JSON_SCHEMA_FILES, jsonSchemaOf, jsonSchemaText } from '../json-schema';
import { ScenarioSchema } from './schema';

/** Where the committed JSON Schema lives. */
export const SCENARIO_JSON_SCHEMA_PATH = JSON_SCHEMA_FILES.scenario.path;

/** The JSON Schema of a scenario file, input side: durations are strings, as written. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(ScenarioSchema);
}

/** The exact text of `schema/scenario.schema.json`. */
export function scenarioJsonSchemaText(): string {
  return jsonSchemaText(ScenarioSchema);
}
