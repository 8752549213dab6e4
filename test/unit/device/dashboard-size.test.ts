/**
 * The built dashboard stays small: every file the device serves from dist/web/dashboard, and
 * all of them together, within budget (it is loaded over a device's port, and shipped in the
 * package). `npm test` builds it first (`npm run build:web`).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIR } from '../../../src/device/dashboard-route';

/** The whole page, scripts and styles included. */
const TOTAL_BUDGET = 150 * 1024;
/** Any one file (a panel is a few KB; one this big wants splitting). */
const FILE_BUDGET = 24 * 1024;

function builtFiles(): { name: string; bytes: number }[] {
  let names: string[];
  try {
    names = readdirSync(DASHBOARD_DIR);
  } catch {
    throw new Error(`${DASHBOARD_DIR} is missing: build the dashboard first (npm run build:web)`);
  }
  return names.map((name) => ({ name, bytes: statSync(join(DASHBOARD_DIR, name)).size }));
}

describe('the built dashboard', () => {
  it('has its page, stylesheet and entry script', () => {
    expect(builtFiles().map((f) => f.name)).toEqual(expect.arrayContaining(['index.html', 'dashboard.css', 'main.js']));
  });

  it(`is under ${TOTAL_BUDGET / 1024} KB in all, each file under ${FILE_BUDGET / 1024} KB`, () => {
    const files = builtFiles();
    expect(files.reduce((sum, f) => sum + f.bytes, 0)).toBeLessThan(TOTAL_BUDGET);
    expect(files.filter((f) => f.bytes >= FILE_BUDGET)).toEqual([]);
  });

  it('holds only what the device serves: html, css and js, no source maps or declarations', () => {
    expect(builtFiles().filter((f) => !/^(index\.html|[a-z][a-z0-9-]*\.(js|css))$/.test(f.name))).toEqual([]);
  });
});
