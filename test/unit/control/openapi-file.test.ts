/**
 * schema/control-api.openapi.json is the control API's OpenAPI document (fleet routes
 * included) as the router serves it, committed so that clients in other languages (the
 * Python package) and reviewers see every change of a wire shape: regenerate with `npm run docs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { controlDocument } from '../../../src/control/openapi';
import { controlRoutes } from '../../../src/control/route-table';

const FILE = join(__dirname, '../../../schema/control-api.openapi.json');

/** The document as the file holds it: the package's version left out, so that a release does not change it. */
function documentText(): string {
  const doc = controlDocument(controlRoutes(true)) as { info: { version: string } };
  return `${JSON.stringify({ ...doc, info: { ...doc.info, version: '(the package version)' } }, null, 2)}\n`;
}

describe('schema/control-api.openapi.json', () => {
  if (process.env.UPDATE_DOCS === '1') writeFileSync(FILE, documentText());

  it('is the document the control API serves (regenerate: npm run docs)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(documentText());
  });
});
