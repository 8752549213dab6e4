/**
 * The layer rule of shared/design.md ("Shape"), checked by dependency-cruiser in `npm run lint`:
 * imports point down only,
 *   cli -> index -> emulator -> control / grading -> scenario / device
 *       -> events / bws / destination -> auth / protocol -> base
 * a wing never imports a sibling wing (device and bws share only protocol/), and no module
 * imports itself back through others (no cycles).
 */
'use strict';

/** Layers from the top; folders on one row are siblings and may not import each other. */
const LAYERS = [
  ['cli'],
  ['index'],
  ['emulator'],
  ['control', 'grading'],
  ['scenario', 'device'],
  ['events', 'bws', 'destination'],
  ['auth', 'protocol'],
  ['base'],
];

/** `src/cli/...` or `src/index.ts` -> its folder's regular expression. */
const path = (name) => (name === 'index' ? '^src/index\\.ts$' : `^src/${name}(/|\\.ts$)`);
const below = (i) => LAYERS.slice(i + 1).flat();

const forbidden = [
  {
    name: 'no-cycle',
    severity: 'error',
    comment: 'Import cycles make load order fragile and layers meaningless.',
    from: {},
    to: { circular: true },
  },
  {
    name: 'no-orphans-in-src',
    severity: 'error',
    comment: 'A module in src/ that nothing imports is dead code (or a missing export).',
    from: { orphan: true, path: '^src/', pathNot: '^src/(index|cli/main)\\.ts$' },
    to: {},
  },
  {
    name: 'src-not-from-outside',
    severity: 'error',
    comment: 'The package does not import its tests, benchmarks or scripts.',
    from: { path: '^src/' },
    to: { path: '^(test|bench|scripts|examples)/' },
  },
];

// Each layer may import only itself (its own folder) and the layers below it.
for (const [i, row] of LAYERS.entries()) {
  for (const name of row) {
    const allowed = [name, ...below(i)].map(path).join('|');
    forbidden.push({
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name} imports only from itself and the layers below it: ${below(i).join(', ') || 'none'}`,
      from: { path: path(name) },
      to: { path: '^src/', pathNot: allowed },
    });
  }
}

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
