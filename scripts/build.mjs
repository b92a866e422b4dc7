// Bundles the language server/CLI and the VS Code client with esbuild.
import * as esbuild from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['server/src/cli/entry.ts'],
    outfile: 'server/dist/mathsense.cjs',
    format: 'cjs',
  }),
  esbuild.build({
    ...common,
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/extension.js',
    format: 'cjs',
    external: ['vscode'],
  }),
]);
console.log('built server/dist/mathsense.cjs and dist/extension.js');
