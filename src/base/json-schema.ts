/**
 * The JSON Schemas in `schema/`, generated from zod schemas so editors (the YAML
 * language server) can complete and check the files people write. Each wing declares
 * its own file with {@link schemaFile} (scenarios: `SCENARIO_SCHEMA_FILE`, upload
 * plans: `PLAN_SCHEMA_FILE`); a file opts in with a first line such as
 * `# yaml-language-server: $schema=../schema/plan.schema.json`.
 *
 * Regenerate after changing a zod schema:
 *   npm run schema
 * (test/unit/scenario/schema.test.ts fails while a committed file is not current).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The package's `schema/` directory (two levels above `src/base/` and `dist/base/`). */
export const SCHEMA_DIR = join(__dirname, '..', '..', 'schema');

/** One generated schema file. */
export interface JsonSchemaFile {
  /** Absolute path of the committed file. */
  path: string;
  /** The zod schema it is generated from. */
  schema: z.ZodType;
}

/** The schema file `name` (in {@link SCHEMA_DIR}) generated from `schema`. */
export function schemaFile(name: string, schema: z.ZodType): JsonSchemaFile {
  return { path: join(SCHEMA_DIR, name), schema };
}

/** The JSON Schema of `schema`, input side: what people write (durations and sizes as strings). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
}

/** The exact text of a schema file: {@link jsonSchemaOf}, 2-space JSON, newline at end. */
export function jsonSchemaText(schema: z.ZodType): string {
  return `${JSON.stringify(jsonSchemaOf(schema), null, 2)}\n`;
}

/** Writes each of `files`. */
export function writeJsonSchemaFiles(files: readonly JsonSchemaFile[]): void {
  for (const file of files) writeFileSync(file.path, jsonSchemaText(file.schema), 'utf8');
}
