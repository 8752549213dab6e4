'use strict';
/**
 * Lets a plain Node process (a test's `node -e` child) require the TypeScript sources:
 * each `.ts` file is compiled on load with @swc/core, as Jest does. Require this file first.
 */
const { readFileSync } = require('node:fs');
const swc = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
