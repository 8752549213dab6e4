#!/usr/bin/env node
/**
 * Builds the device dashboard (web/dashboard) into dist/web/dashboard: tsc compiles the page's
 * TypeScript to native ES modules (no bundler: a dozen small files over loopback), then the page
 * and its stylesheet are copied next to them. The device serves that directory
 * (src/device/dashboard-route.ts); `npm run build` and `npm test` run this.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { copyFileSync, mkdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const source = join(root, 'web', 'dashboard');
const target = join(root, 'dist', 'web', 'dashboard');
/** Copied as they are: the page and its styles (no inline script or style: the CSP allows 'self' only). */
const STATIC_FILES = ['index.html', 'dashboard.css'];

// A file removed from web/dashboard must not linger: the device serves whatever is there.
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(source, 'tsconfig.json')], {
    cwd: root,
    stdio: 'inherit',
  });
} catch {
  console.error('build-web: tsc failed on web/dashboard (see above)');
  process.exit(1);
}
for (const name of STATIC_FILES) copyFileSync(join(source, name), join(target, name));
