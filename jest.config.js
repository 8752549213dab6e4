/** Jest runs the TypeScript sources directly through @swc/jest; `tsc --noEmit` checks types. */
const swcOptions = require('./test/helpers/swc-options');

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  // The dashboard's modules (web/dashboard) are native ES modules importing './x.js' for the
  // browser; the same relative import without `.js` finds the `.ts` file, or a `.js` one as before.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Control API answers are checked against their routes' schemas under the tests (test/setup/check-answers.js).
  setupFiles: ['<rootDir>/test/setup/check-answers.js'],
  testTimeout: 20000,
  // Two workers on the 2-core machines this runs on (Jest's default keeps one core free, which
  // runs the files one after another); the client matrices go first (see the sequencer).
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/helpers/matrix-first-sequencer.js',
};
