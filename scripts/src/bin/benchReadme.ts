// `npm run bench:readme`: runs the benchmarks and rewrites README's performance table from what
// they wrote (between the `perf:begin` and `perf:end` markers). Each row says what it was measured
// against in the same run.
//
//   node scripts/out/bin/benchReadme.js [--from-json]
//
//   --from-json  do not run anything: rewrite the table from the JSON files the last runs left in
//                test-output/ (bench.json, bench-requests.json, bench-sizes.json, bench-burst.json, bench-hover-math.json,
//                bench-install.json)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../lib/repo.js';

const root = repoRoot;
process.chdir(root);
const BEGIN = '<!-- perf:begin (npm run bench:readme writes this table) -->';
const END = '<!-- perf:end -->';

if (!process.argv.includes('--from-json')) {
  for (const args of [['bench.js'], ['bench.js', '--requests'], ['bench.js', '--sizes'], ['bench.js', '--burst'], ['benchInstall.js']]) {
    console.log(`\n$ node scripts/out/bin/${args.join(' ')}`);
    const r = spawnSync(process.execPath, [path.join('scripts', 'out', 'bin', args[0]), ...args.slice(1)], { stdio: 'inherit' });
    // 3: a target missed, which the table shows; anything else is a failed run
    if (r.status !== 0 && r.status !== 3) { console.error(`${args.join(' ')} failed (${r.status ?? r.signal})`); process.exit(1); }
  }
}

const read = (f: string): any => {
  try { return JSON.parse(fs.readFileSync(path.join('test-output', f), 'utf8')); } catch { return undefined; }
};
const ms = (x: number | undefined) => (x == null ? 'n/a' : x >= 10_000 ? `${(x / 1000).toFixed(0)} s` : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 1 : 0)} ms`);
const mb = (bytes: number | undefined) => (bytes == null ? 'n/a' : `${Math.round(bytes / 1048576)} MB`);
const day = (d: string | undefined) => (d ? d.slice(0, 10) : '?');
const rows: string[][] = [];
// what MATHSENSE_BENCH_BASELINE (a bundle path) was, for the table: e.g. a commit
const BASELINE_LABEL = process.env.MATHSENSE_BENCH_BASELINE_LABEL ?? 'baseline build';

const b = read('bench.json');
if (b) {
  const base = b.baseline?.fullMs as number | undefined;
  const vsParse = (x: number | undefined) => (base && x ? `full unified-latex parse ${ms(base)}${b.baseline.extrapolated ? ' (extrapolated)' : ''}: ${Math.round(base / x)}×` : 'n/a');
  const src = `bench, ${day(b.date)}`;
  for (const [k, label] of [['workspace', 'Stacks workspace'], ['singleFile', 'algebra.tex alone']] as const) {
    const s = b[k];
    if (!s) continue;
    rows.push([`keystroke → diagnostics p50 / p95 (${label})`, `${ms(s.keystrokes.p50)} / ${ms(s.keystrokes.p95)}`, vsParse(s.keystrokes.p95), src]);
    rows.push([`didOpen → first diagnostics (${label})`, ms(s.openMs), vsParse(s.openMs), src]);
  }
  const rc = b.refCompletion, rb = b.refCompletionBaseline;
  if (rc) rows.push([`\`\\ref{\` completion p50 / p95 over ${rc.places} proofs, first after a pause; repeated (${rc.items} labels)`, `${ms(rc.firstMs)} / ${ms(rc.firstP95Ms)}; ${ms(rc.nextMs)} / ${ms(rc.nextP95Ms)}`, rb ? `${rb.label ?? BASELINE_LABEL}: ${ms(rb.firstMs)} / ${ms(rb.firstP95Ms)}; ${ms(rb.nextMs)} / ${ms(rb.nextP95Ms)}` : '—', src]);
  if (b.workspace) {
    rows.push([`spawn → Stacks project read (${b.workspace.status.documents} files)`, ms(b.workspace.coldOpenMs), '—', src]);
    rows.push(['server RSS after reading Stacks / peak', `${mb(b.workspace.rssAfterScan.vmRssBytes)} / ${mb(b.workspace.rssAfterScan.vmHwmBytes)}`, '—', src]);
  }
}
const q = read('bench-requests.json');
if (q) {
  const [cur, base] = q.runs as Array<{ name: string; requests: Record<string, { p50: number; p95: number } | undefined> }>;
  for (const [name, r] of Object.entries(cur.requests)) {
    if (!r) continue;
    const o = base?.requests[name];
    rows.push([`Stacks workspace, SVG hovers: ${name.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')} p50 / p95${r.p95 < q.targetP95Ms ? '' : ` (≥ ${q.targetP95Ms} ms)`}`, `${ms(r.p50)} / ${ms(r.p95)}`, o ? `${base.name}: ${ms(o.p50)} / ${ms(o.p95)}` : '—', `bench --requests, ${day(q.date)}`]);
  }
}
const s = read('bench-sizes.json');
if (s) {
  for (const r of s.rows as Array<any>) {
    rows.push([`${Math.round(r.mb)} MB document: didOpen → diagnostics; hovers meanwhile, median / max`, `${ms(r.diagnosticsMs)}; ${ms(r.hoverMedianMs)} / ${ms(r.hoverMaxMs)}`, `\`check\` ${ms(r.checkMs)}, server peak ${r.serverPeakMb} MB`, `bench --sizes, ${day(s.date)}`]);
  }
}
const burst = read('bench-burst.json');
if (burst) {
  const [name, reqs] = burst.runs[0] as [string, Array<{ request: string; ms: number }>];
  const other = burst.runs[1] as [string, Array<{ request: string; ms: number }>] | undefined;
  for (const r of reqs) {
    const o = other?.[1].find((x) => x.request === r.request);
    rows.push([`${Math.round(burst.mb)} MB workspace file opened: ${r.request}`, ms(r.ms), o ? `${BASELINE_LABEL}: ${ms(o.ms)}` : '—', `bench --burst, ${day(burst.date)}${name === 'this build' ? '' : ` (${name})`}`]);
  }
}
const h = read('bench-hover-math.json');
if (h) rows.push(['hover with typeset math p95: first sight / again', `${ms(h.first.p95)} / ${ms(h.again.p95)}`, `source form ${ms(h.source.p95)}`, 'bench']);
const inst = read('bench-install.json');
if (inst?.vsix) rows.push(['`.vsix` with the full index and models', `${(inst.vsix.bytes / 1048576).toFixed(1)} MiB (${(inst.vsix.bytes / 1e6).toFixed(1)} MB)`, '—', `bench:install, ${day(inst.date)}`]);
if (inst?.indexBuild) rows.push(['cold index build (no embedding cache)', ms(inst.indexBuild.ms), '—', `bench:install, ${day(inst.date)}`]);

const table = ['| measure | MathSense | baseline in the same run | source |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const readme = fs.readFileSync('README.md', 'utf8');
const a = readme.indexOf(BEGIN), z = readme.indexOf(END);
if (a < 0 || z < a) { console.error(`README.md has no ${BEGIN} … ${END} block`); process.exit(1); }
fs.writeFileSync('README.md', `${readme.slice(0, a + BEGIN.length)}\n${table}\n${readme.slice(z)}`);
console.log(`\nREADME.md: performance table rewritten (${rows.length} rows)\n\n${table}`);
