// `npm run bench:install`: what installing MathSense costs, measured separately from `npm run
// bench` because each part takes minutes:
//   * the .vsix (`scripts/package.mjs --skip-build`): its size and what takes the room (compressed
//     bytes by part, from the archive's own directory);
//   * a cold index build (`index build --no-cache` into a temporary folder): what `npm run setup`
//     spends on the index on a fresh clone.
// Writes test-output/bench-install.json.
//
//   node scripts/out/bin/benchInstall.js [--skip-package] [--skip-index]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
process.chdir(root);
const argv = process.argv.slice(2);

/** Where a file of the .vsix belongs, for the size table. */
function part(name: string): string {
  if (/onnxruntime/.test(name)) return 'onnxruntime (native library and binding)';
  if (/^extension\/models\//.test(name)) return 'models (encoders, tokenizer, rankers)';
  if (/^extension\/build\/index\//.test(name)) return 'index (ProofWiki, PlanetMath, MathD2)';
  if (/^extension\/(server\/)?dist\/[^/]+\.(c?js)$/.test(name)) return 'bundles (server, CLI, workers, client)';
  if (/^extension\/(media|dist\/media)\//.test(name)) return 'media (KaTeX, icons, screenshots)';
  return 'other (manifest, README, notices, grammar)';
}

/** Compressed bytes of each entry, read from the zip's central directory. */
function zipEntries(file: string): Array<{ name: string; compressed: number; size: number }> {
  const b = fs.readFileSync(file);
  let eocd = b.length - 22;
  while (eocd >= 0 && b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip archive`);
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const compressed = b.readUInt32LE(p + 20), size = b.readUInt32LE(p + 24);
    const n = b.readUInt16LE(p + 28), m = b.readUInt16LE(p + 30), k = b.readUInt16LE(p + 32);
    out.push({ name: b.toString('utf8', p + 46, p + 46 + n), compressed, size });
    p += 46 + n + m + k;
  }
  return out;
}

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length };
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

if (!argv.includes('--skip-package')) {
  const out = path.join(os.tmpdir(), `mathsense-bench-${process.pid}.vsix`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--skip-build', '--out', out], { encoding: 'utf8' });
  if (r.status !== 0) { console.error(r.stdout, r.stderr); process.exit(1); }
  const entries = zipEntries(out);
  const parts = new Map<string, number>();
  for (const e of entries) parts.set(part(e.name), (parts.get(part(e.name)) ?? 0) + e.compressed);
  const bytes = fs.statSync(out).size;
  results.vsix = { bytes, packageMs: performance.now() - t0, parts: Object.fromEntries([...parts].sort((a, b) => b[1] - a[1])), largest: entries.sort((a, b) => b.compressed - a.compressed).slice(0, 8) };
  fs.rmSync(out, { force: true });
  console.log(`\n.vsix: ${mib(bytes)} (packaged in ${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  console.log('| part | compressed |\n|---|---|');
  for (const [k, v] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${mib(v)} |`);
}

if (!argv.includes('--skip-index')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-bench-index-'));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['scripts/out/bin/index.js', 'build', '--index', path.join(dir, 'index'), '--no-cache', '--quiet'], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  fs.rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) { console.error(r.stdout, r.stderr); process.exit(1); }
  results.indexBuild = { ms, log: r.stderr.split('\n').filter(Boolean).slice(-12), summary: r.stdout.trim() };
  console.log(`\ncold index build (no embedding cache): ${(ms / 1000).toFixed(1)} s\n${r.stdout.trim()}`);
}

fs.mkdirSync('test-output', { recursive: true });
fs.writeFileSync('test-output/bench-install.json', JSON.stringify(results, null, 2) + '\n');
console.log('\nJSON: test-output/bench-install.json');
