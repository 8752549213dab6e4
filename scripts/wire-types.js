#!/usr/bin/env node
/**
 * Writes a TypeScript module of types (and constant lists) for JSON Schemas to standard output.
 * Reads `{ file, header, schemas: { Name: <JSON Schema>, ... }, defs, constants: { NAME: { doc, values } } }`
 * on standard input: each schema becomes an exported type of its name (json-schema-to-typescript),
 * the shared `defs` (`$ref: "#/$defs/Name"`, named parts used by several) each once, and each
 * constant an `as const` list; the whole formatted with the project's prettier settings.
 * test/unit/web/wire-types.test.ts makes the dashboard's web/dashboard/wire-types.ts with it from
 * the server's zod schemas (`npm run docs`). A process of its own because prettier, which
 * json-schema-to-typescript loads, cannot load inside Jest.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { compile } = require('json-schema-to-typescript');
const prettier = require('prettier');

/** The compiler's options: no banner of its own, no extra keys allowed, formatting left to the end. */
const OPTIONS = {
  bannerComment: '',
  additionalProperties: false,
  declareExternallyReferenced: false,
  format: false,
  unknownAny: true,
};

/** The module's text: header, each type, each constant, formatted as the file will be checked. */
async function main() {
  const input = JSON.parse(readFileSync(0, 'utf8'));
  const parts = [input.header.trim()];
  const named = { ...input.schemas, ...input.defs };
  for (const [name, schema] of Object.entries(named)) {
    // Every other named schema is reachable by `$ref` from this one, and declared on its own;
    // this one, when another refers to it (a report's evidence, a journal entry), is the root.
    const others = Object.fromEntries(
      Object.entries(named).map(([other, part]) => [other, other === name ? { $ref: '#' } : { ...part, title: other }]),
    );
    parts.push((await compile({ ...schema, title: name, $defs: others }, name, OPTIONS)).trim());
  }
  for (const [name, { doc, values }] of Object.entries(input.constants))
    parts.push(`/** ${doc} */\nexport const ${name} = ${JSON.stringify(values)} as const;`);
  const text = `${parts.join('\n\n')}\n`;
  const style = await prettier.resolveConfig(input.file);
  process.stdout.write(await prettier.format(text, { ...style, filepath: input.file }));
}

main().catch((err) => {
  console.error(`wire-types: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
