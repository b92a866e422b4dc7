#!/usr/bin/env node
// Runs the bundled CLI; `npm run build` (part of `npm run setup`) produces it.
require('../dist/mathsense.cjs');
