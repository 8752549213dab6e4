'use strict';
/**
 * How the TypeScript sources are compiled for tests, in one place: Jest's transform
 * (jest.config.js, through @swc/jest) and a plain Node child's require hook
 * (test/helpers/register-ts.js, through @swc/core) both use these options, so a child
 * process runs the very code the tests run.
 */
module.exports = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
};
