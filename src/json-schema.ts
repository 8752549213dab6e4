/**
 * The JSON Schemas in `schema/`, generated from the zod schemas so editors (the YAML
 * language server) can complete and check the files people write: scenarios and
 * upload plans. A file opts in with a first line such as
 * `# yaml-language-server: $schema=../schema/plan.schema.json`.
 *
 * Regenerate after changing a zod schema:
 *   npm run schema
 * (test/unit/scenario-schema.test.ts fails while a committed file is not current).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PlanSchema } from './bws/plan';
import { ScenarioSchema } from './scenario/schema';

/** The package's `schema/` directory (one level above both `src/` and `dist/`). */
export const SCHEMA_DIR = join(__dirname, '..', 'schema');

/** One generated schema file. */
export interface JsonSchemaFile {
  /** Absolute path of the committed file. */
  path: string;
  /** The zod schema it is generated from. */
  schema: z.ZodType;
}

/** Every generated schema file, by the kind of file it describes. */
export const JSON_SCHEMA_FILES = {
  scenario: { path: join(SCHEMA_DIR, 'scenario.schema.json'), schema: ScenarioSchema },
  plan: { path: join(SCHEMA_DIR, 'plan.schema.json'), schema: PlanSchema },
} as const satisfies Record<string, JsonSchemaFile>;

/** The JSON Schema of `schema`, input side: what people write (durations and sizes as strings). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}

/** The exact text of a schema file: {@link jsonSchemaOf}, 2-space JSON, newline at end. */
export function jsonSchemaText(schema: z.ZodType): string {
  return `${JSON.stringify(jsonSchemaOf(schema), null, 2)}\n`;
}

/** Writes every file of {@link JSON_SCHEMA_FILES} (or the ones given). */
export function writeJsonSchemaFiles(files: readonly JsonSchemaFile[] = Object.values(JSON_SCHEMA_FILES)): void {
  for (const file of files) writeFileSync(file.path, jsonSchemaText(file.schema), 'utf8');
}
