// `npm run package`: builds the extension and packages it as a .vsix, offline.
//
// The .vsix is assembled in build/vsix/ (a clean staging folder) and packed there with
// `vsce package --no-dependencies --allow-missing-repository`, so nothing from the workspace
// (sources, node_modules, tests, caches) leaks in. It holds:
//   dist/extension.js, dist/media/katex/   the client bundle and the webview's KaTeX
//   server/dist/*.cjs                      the bundled language server, CLI and workers
//   server/node_modules/onnxruntime-*      the embedding runtime (native, this platform only)
//   server/node_modules/pdfjs-dist/        the PDF text reader of library folders (two scripts)
//   models/                                the encoder (.onnx, config) and tokenizer, if present
//   build/index/                           the built search index, if present (where the server looks)
//   packed.json, *.br                      large files packed with brotli, unpacked on first start (step 7)
//   media/, syntaxes/                      webview assets, icon, screenshots; injection grammar
//   README.md, ATTRIBUTION.md, LICENSE     the README (with screenshots), third-party notices
//
// Options: --skip-build (use the current bundles), --out <file.vsix>.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const option = (f) => { const i = args.indexOf(f); return i >= 0 ? args[i + 1] : undefined; };

function run(cmd, cmdArgs, opts = {}) {
  console.log(`$ ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', ...opts });
  if (r.status !== 0) { console.error(`package: ${cmd} exited with ${r.status ?? r.signal}`); process.exit(1); }
}

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const target = `${process.platform}-${process.arch}`; // vsce target names match Node's for linux/darwin/win32 x64/arm64
const out = path.resolve(option('--out') ?? path.join('build', `${manifest.name}-${manifest.version}-${target}.vsix`));

if (!flag('--skip-build')) {
  run('npx', ['tsc', '-b', 'server', 'client']);
  run(process.execPath, ['scripts/build.mjs']);
}
for (const f of ['dist/extension.js', 'server/dist/mathsense.cjs', 'dist/media/katex/katex.min.js']) {
  if (!fs.existsSync(f)) { console.error(`package: ${f} is missing; run npm run build`); process.exit(1); }
}

const stage = path.join(root, 'build', 'vsix');
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });
const copy = (from, to = from, filter = () => true) => {
  if (!fs.existsSync(from)) return false;
  fs.cpSync(from, path.join(stage, to), { recursive: true, filter: (src) => !src.endsWith('.map') && filter(src) });
  return true;
};

/** An installed package's folder (workspace folders first, then the root). */
function packageDir(name) {
  for (const base of ['server', 'client', '.']) {
    const d = path.join(base, 'node_modules', name);
    if (fs.existsSync(path.join(d, 'package.json'))) return fs.realpathSync(d);
  }
  return undefined;
}

// 1. the manifest, without the development-only fields
const { scripts: _s, devDependencies: _d, dependencies: _deps, workspaces: _w, private: _p, ...published } = manifest;
fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(published, null, 2) + '\n');

// 2. bundles, assets, grammar
copy('dist');
for (const f of fs.readdirSync('server/dist')) if (f.endsWith('.cjs')) copy(path.join('server/dist', f));
copy('media');
copy('syntaxes');

// 3. the embedding runtime (loaded from node_modules at run time; only this platform's binaries)
const bundled = [];
for (const pkg of ['onnxruntime-node', 'onnxruntime-common']) {
  const dir = packageDir(pkg);
  if (!dir) continue;
  copy(dir, path.join('server/node_modules', pkg), (src) => {
    const parts = path.relative(dir, src).split(path.sep); // bin/napi-v6/<platform>/<arch>/...
    if (parts[0] === 'script' || parts[0] === 'lib' || parts[0] === 'node_modules') return false;
    if (parts[0] === 'bin' && parts.length >= 3 && parts[2] !== process.platform) return false;
    if (parts[0] === 'bin' && parts.length >= 4 && parts[3] !== process.arch) return false;
    return true;
  });
  bundled.push(pkg);
}

// 3b. the PDF reader of library folders (an ES module the server imports at run time): its two
// scripts, the package file that resolves them, and its licence
const pdfjs = packageDir('pdfjs-dist');
if (pdfjs) {
  const keep = new Set(['package.json', 'LICENSE', path.join('legacy', 'build', 'pdf.min.mjs'), path.join('legacy', 'build', 'pdf.worker.min.mjs')]);
  copy(pdfjs, path.join('server/node_modules', 'pdfjs-dist'), (src) => {
    const rel = path.relative(pdfjs, src);
    return rel === '' || rel === 'legacy' || rel === path.join('legacy', 'build') || keep.has(rel);
  });
  bundled.push('pdfjs-dist');
}

// 4. models and a built index, when present
const modelFiles = [];
if (fs.existsSync('models')) {
  copy('models', 'models', (src) => !src.includes(`${path.sep}training`) && !src.endsWith('.py') && !src.endsWith('.float.onnx') && !src.endsWith('state.pt'));
  for (const f of fs.readdirSync(path.join(stage, 'models'), { recursive: true })) if (String(f).endsWith('.onnx')) modelFiles.push(`models/${f}`);
}
// the server finds its index at build/index under the package root (server/src/index/paths.ts)
const indexDirs = ['build/index'].filter((d) => fs.existsSync(path.join(d, 'index.json')));
for (const d of indexDirs) copy(d, d);
let indexSources = [];
try { indexSources = JSON.parse(fs.readFileSync('build/index/index.json', 'utf8')).sources ?? []; } catch { /* no index */ }

// 5. README (relative image links are kept: VS Code resolves them inside the installed extension)
copy('README.md');
if (fs.existsSync('LICENSE')) copy('LICENSE');
else fs.writeFileSync(path.join(stage, 'LICENSE'), `MIT License\n\nCopyright (c) MathSense contributors\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:\n\nThe above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.\n\nTHE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n`);

// 6. ATTRIBUTION.md: the data the bundled models/index derive from, and every npm package inside
//    the bundles (read from the bundles' source maps) or shipped beside them, with its licence.
const packagesInBundles = new Set(bundled);
for (const map of ['dist/extension.js.map', ...fs.readdirSync('server/dist').filter((f) => f.endsWith('.map')).map((f) => `server/dist/${f}`)]) {
  if (!fs.existsSync(map)) continue;
  for (const src of JSON.parse(fs.readFileSync(map, 'utf8')).sources ?? []) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(src);
    if (m) packagesInBundles.add(m[1]);
  }
}
packagesInBundles.add('katex');
const licenceText = (dir) => {
  const f = fs.existsSync(dir) ? fs.readdirSync(dir).find((n) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(n)) : undefined;
  return f ? fs.readFileSync(path.join(dir, f), 'utf8').trim() : undefined;
};
const sections = [];
for (const name of [...packagesInBundles].sort()) {
  const dir = packageDir(name);
  if (!dir) continue;
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const text = licenceText(dir);
  sections.push(`### ${name} ${pj.version}\n\nLicence: ${pj.license ?? 'see below'}${pj.homepage ? ` — ${pj.homepage}` : ''}\n${text ? `\n\`\`\`\n${text}\n\`\`\`\n` : ''}`);
}
const attribution = `# Third-party notices and data attribution

MathSense is MIT-licensed. This package also contains the following.

## Data

${modelFiles.length ? `* **Models** (${modelFiles.join(', ')}): trained on ProofWiki content (CC BY-SA 3.0,
  https://proofwiki.org) and the Stacks project (GNU FDL 1.2, https://stacks.math.columbia.edu).
  See models/README.md (the model card).` : '* No models are bundled in this build.'}
${indexDirs.length ? `* **Index** (build/index/): statements, proofs and definitions from the sources below. Every result
  the extension shows keeps its source URL and licence.
${indexSources.map((x) => `  * ${x.name} (${x.entries ?? '?'} entries): ${x.licence}; attribution: ${x.attribution}; ${x.home ?? ''}`).join('\n')}` : '* No prebuilt index is bundled in this build.'}

## Software

${sections.join('\n')}`;
fs.writeFileSync(path.join(stage, 'ATTRIBUTION.md'), attribution);

// 7. the large files brotli packs much smaller than the .vsix's zip does (the index's text and
//    postings, onnxruntime's library): stored as <file>.br and listed in packed.json, unpacked
//    by the server on its first start (server/src/util/packedFiles.ts). Packed outputs are kept in
//    .cache/packed by content hash, so packaging again is quick.
const PACKED = [/^build\/index\/(entries\.ndjson|bm25\.bin|equations\.bin|equations\.ndjson)$/, /^server\/node_modules\/onnxruntime-node\/bin\/.*\/libonnxruntime\.so[.\d]*$/];
const packed = [];
const packCache = path.join(root, '.cache', 'packed');
fs.mkdirSync(packCache, { recursive: true });
const toPack = fs.readdirSync(stage, { recursive: true }).map((f) => String(f).split(path.sep).join('/')).filter((f) => PACKED.some((re) => re.test(f)) && fs.statSync(path.join(stage, f)).isFile());
const t0 = Date.now();
await Promise.all(toPack.map(async (f) => {
  const abs = path.join(stage, f);
  const bytes = fs.readFileSync(abs);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const cached = path.join(packCache, `${sha256}.br`);
  if (!fs.existsSync(cached)) {
    const br = await promisify(zlib.brotliCompress)(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    fs.writeFileSync(`${cached}.tmp`, br);
    fs.renameSync(`${cached}.tmp`, cached);
  }
  fs.copyFileSync(cached, `${abs}.br`);
  fs.rmSync(abs);
  packed.push({ path: f, bytes: bytes.length, sha256 });
}));
packed.sort((a, b) => a.path.localeCompare(b.path));
// packed outputs of earlier builds' files are not kept
const used = new Set(packed.map((p) => `${p.sha256}.br`));
for (const f of fs.readdirSync(packCache)) if (!used.has(f)) fs.rmSync(path.join(packCache, f), { force: true });
fs.writeFileSync(path.join(stage, 'packed.json'), JSON.stringify({ format: 'mathsense-packed', files: packed }, null, 1) + '\n');
if (packed.length) console.log(`packed ${packed.length} files with brotli in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${packed.map((p) => `${p.path} ${(p.bytes / 1048576).toFixed(1)} → ${(fs.statSync(path.join(stage, p.path + '.br')).size / 1048576).toFixed(1)} MiB`).join(', ')}`);

// 8. pack
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(path.join(stage, '.vscodeignore'), '**/*.map\n**/*.d.ts\n');
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links',
  '--target', target, '--out', out], { cwd: stage });
const size = fs.statSync(out).size;
console.log(`packaged ${path.relative(root, out)} (${(size / 1024 / 1024).toFixed(1)} MiB; models: ${modelFiles.length ? modelFiles.join(', ') : 'none'}; index: ${indexDirs.length ? indexDirs.join(', ') : 'none'})`);
