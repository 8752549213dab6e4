/**
 * The `local/log-fields` lint rule (eslint-rules/log-fields.js) that keeps logging by allow-list:
 * it flags exactly the lines of log-fields-cases/cases.ts marked `// expect: <messageId>` (a
 * request, a variable, a spread, an object field, a computed key, an unknown `err`, and the
 * same passed on through a `LogFields` helper) and passes the rest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const logFields = require('../../../eslint-rules/log-fields') as NonNullable<ESLint.Plugin['rules']>[string];

const DIR = join(__dirname, 'log-fields-cases');
const FILE = join(DIR, 'cases.ts');

it('flags whole objects, spreads, object fields and unknown errors in log lines, and nothing else', async () => {
  const eslint = new ESLint({
    cwd: DIR,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: {
          parser: tseslint.parser,
          parserOptions: { project: join(DIR, 'tsconfig.json'), tsconfigRootDir: DIR },
        },
        plugins: { local: { rules: { 'log-fields': logFields } } },
        rules: { 'local/log-fields': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([FILE]);
  const found = result.messages.map((m) => `${m.line}: ${m.messageId ?? m.message}`);
  const expected = readFileSync(FILE, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      const tag = /\/\/ expect: (\w+)$/.exec(line);
      return tag ? [`${i + 1}: ${tag[1]}`] : [];
    });
  expect(expected.length).toBeGreaterThan(10);
  expect(found).toEqual(expected);
}, 30_000);
