'use strict';
/**
 * Lets a plain Node process (a test's `node -e` child) require the TypeScript sources:
 * each `.ts` file is compiled on load with @swc/core, with the options Jest uses
 * (test/helpers/swc-options.js). Require this file first.
 */
const { readFileSync } = require('node:fs');
const swc = require('@swc/core');
const swcOptions = require('./swc-options');

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};
