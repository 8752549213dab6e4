/**
 * The route table is the one list the router and the OpenAPI document are made from: a route
 * declared in a route file but missing from the table (a new file not spread into it, a route
 * left out of its file's list) would be neither served nor documented, and nothing else says so.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlRoute } from '../../../src/control/route';
import { CONTROL_ROUTES } from '../../../src/control/route-table';

const CONTROL_DIR = join(__dirname, '../../../src/control');

/** The files that declare routes (route.ts declares how), with the number of routes each declares. */
function routeFiles(): { file: string; declared: number }[] {
  return readdirSync(CONTROL_DIR)
    .filter((file) => file.endsWith('.ts') && file !== 'route.ts')
    .map((file) => {
      const text = readFileSync(join(CONTROL_DIR, file), 'utf8');
      return { file, declared: (text.match(/\bdefine(Route|EventStream)\(/g) ?? []).length };
    })
    .filter(({ declared }) => declared > 0);
}

/** The routes a module exports in its lists. */
function exportedRoutes(file: string): ControlRoute[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exports = require(join(CONTROL_DIR, file)) as Record<string, unknown>;
  return Object.values(exports).flatMap((value) =>
    Array.isArray(value) ? (value as unknown[]).filter((v): v is ControlRoute => isRoute(v)) : [],
  );
}

function isRoute(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'kind' in value && 'path' in value && 'method' in value;
}

describe('the control route table', () => {
  const files = routeFiles();

  it('finds the route files', () => {
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['fault-routes.ts', 'journal-routes.ts']));
  });

  it.each(files)('has every route $file declares', ({ file, declared }) => {
    const routes = exportedRoutes(file);
    expect(routes).toHaveLength(declared);
    for (const route of routes) expect(CONTROL_ROUTES).toContain(route);
  });

  it('has each route once', () => {
    const keys = CONTROL_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
