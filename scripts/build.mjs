// Bundles the language server/CLI and the VS Code client with esbuild.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

// webview assets: KaTeX (pinned in client/package.json) copied from the npm package into
// dist/media/katex (script, stylesheet, woff2 fonts); the panel loads nothing from the network
const require = createRequire(import.meta.url);
const katexDist = path.join(path.dirname(require.resolve('katex/package.json', { paths: ['client'] })), 'dist');
fs.rmSync('dist/media/katex', { recursive: true, force: true });
fs.mkdirSync('dist/media/katex/fonts', { recursive: true });
for (const f of ['katex.min.js', 'katex.min.css']) fs.copyFileSync(path.join(katexDist, f), path.join('dist/media/katex', f));
for (const f of fs.readdirSync(path.join(katexDist, 'fonts'))) {
  if (f.endsWith('.woff2')) fs.copyFileSync(path.join(katexDist, 'fonts', f), path.join('dist/media/katex/fonts', f));
}
fs.copyFileSync(path.join(katexDist, '..', 'LICENSE'), 'dist/media/katex/LICENSE');

// whitespace only: names stay, so stack traces in a user's log still read; the source maps (not
// shipped) map lines back
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, minifyWhitespace: true, logLevel: 'warning' };

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
  // the equation analysis worker (related equations), found next to the server bundle at runtime
  esbuild.build({
    ...common,
    entryPoints: ['server/src/index/equationWorker.ts'],
    outfile: 'server/dist/equation-worker.cjs',
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
  // the graph view's layout, run in its webview (a browser script: one global, no Node)
  esbuild.build({
    ...common,
    platform: 'browser',
    sourcemap: false,
    entryPoints: ['client/src/graphLayout.ts'],
    outfile: 'dist/media/graphLayout.js',
    format: 'iife',
    globalName: 'MathSenseGraphLayout',
  }),
  esbuild.build({
    ...common,
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/extension.js',
    format: 'cjs',
    external: ['vscode'],
  }),
]);
console.log('built server/dist/mathsense.cjs, server/dist/derivation-worker.cjs, server/dist/equation-worker.cjs, server/dist/embeddingWorker.cjs and dist/extension.js');
