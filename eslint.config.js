// ESLint: typescript-eslint's type-checked recommended rules over src/, test/ and bench/;
// prettier owns the form (eslint-config-prettier turns the style rules off). Import cycles
// and the layer rule are checked by dependency-cruiser (.dependency-cruiser.js).
'use strict';
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');
const logFields = require('./eslint-rules/log-fields');

module.exports = tseslint.config(
  // examples/ are projects of their own (their own dependencies, installed by .ci/run); prettier checks their form.
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'examples/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Log by allow-list: every log line names its fields (eslint-rules/log-fields.js).
  {
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'log-fields': logFields } } },
    rules: { 'local/log-fields': 'error' },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
