/**
 * web/dashboard/wire-types.ts is the page's copy of the server's wire shapes, generated from
 * their zod schemas (test/helpers/page-wire-types.ts): regenerate with `npm run docs`. A shape
 * changed on the server and not regenerated fails here; regenerated, the page's own compile
 * (scripts/build-web.js) fails wherever the page reads what is gone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PAGE_WIRE_TYPES_FILE, pageWireTypes } from '../../helpers/page-wire-types';

describe('web/dashboard/wire-types.ts', () => {
  const text = pageWireTypes();
  if (process.env.UPDATE_DOCS === '1') writeFileSync(PAGE_WIRE_TYPES_FILE, text);

  it('is the shapes the server declares (regenerate: npm run docs)', () => {
    expect(readFileSync(PAGE_WIRE_TYPES_FILE, 'utf8')).toBe(text);
  });
});
