// Bundles the language server/CLI and the VS Code client with esbuild.
import * as esbuild from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['server/src/cli/entry.ts'],
    outfile: 'server/dist/mathsense.cjs',
    format: 'cjs',
    external: ['onnxruntime-node'],
  }),
  // the derivation checker's worker thread, found next to the server bundle at runtime
  esbuild.build({
    ...common,
    entryPoints: ['server/src/math/worker.ts'],
    outfile: 'server/dist/derivation-worker.cjs',
    format: 'cjs',
  }),
  // the embedding worker (onnxruntime-node is native: loaded from node_modules at runtime)
  esbuild.build({
    ...common,
    entryPoints: ['server/src/embeddings/embeddingWorker.ts'],
    outfile: 'server/dist/embeddingWorker.cjs',
    format: 'cjs',
    external: ['onnxruntime-node'],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/extension.js',
    format: 'cjs',
    external: ['vscode'],
  }),
]);
console.log('built server/dist/mathsense.cjs, server/dist/derivation-worker.cjs, server/dist/embeddingWorker.cjs and dist/extension.js');
