#!/usr/bin/env node
/** Empties dist/ before a build, so a module that was moved or removed in src/ does not linger in the package. */
'use strict';
require('node:fs').rmSync(require('node:path').join(__dirname, '..', 'dist'), { recursive: true, force: true });
