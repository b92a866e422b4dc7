// `npm run bench -- --scale`: the scaled library store (server/src/index/library/lanceStore.ts,
// LanceDB) at a group's size, opt-in (never in the default bench or CI; needs
// `npm run setup:scale`). The library's real vectors (the Stacks project indexed as a library,
// .cache/eval-library/stacks, made by evalLibrary or trainRelevance) padded with perturbed
// copies to 1M and 10M rows; per size:
//   * build time (writing the table, then the IVF-PQ index) and the store's size on disk;
//   * query p50/p95 and recall@10 of the approximate search against exact search, the exact top
//     ten computed here over every vector (streamed while the rows are made), for two settings
//     of the index's probes; and LanceDB's own exact scan of the same table as the baseline of
//     the same run (the latency ratio);
//   * several processes reading the one store at once (a shared filesystem path, as a group
//     mounts it): each one's p95 and recall.
//   node scripts/out/bin/bench.js --scale [--scale-sizes 1000000,10000000] [--scale-queries 100] [--scale-readers 3] [--scale-dir DIR]
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import { table } from '../lib/table.js';
import { lanceModule, readManifest, readPaperData, type LanceTable } from 'mathsense-server/api/index';

const K = 10;
const BATCH = 100_000;

/** A small seeded generator (mulberry32) and normal draws from it. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  return { next, normal: () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next()) };
}

/** Row `i` of the padded set: the real vector i mod R, perturbed (i ≥ R) and normalised again. */
function padded(real: Float32Array[], i: number, dim: number, out: Float32Array): void {
  const v = real[i % real.length];
  if (i < real.length) { out.set(v); return; }
  const r = rng(i * 2654435761);
  let s = 0;
  for (let k = 0; k < dim; k++) { out[k] = v[k] + 0.35 * r.normal() / Math.sqrt(dim); s += out[k] * out[k]; }
  s = 1 / Math.sqrt(s);
  for (let k = 0; k < dim; k++) out[k] *= s;
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x: number) => x.toFixed(1);

interface QuerySet { vectors: Float32Array[]; truth: number[][] }

/** Runs the queries against a table: latency per query and recall@10 against the exact top ten. */
async function runQueries(tbl: LanceTable, qs: QuerySet, how: { nprobes?: number; refine?: number; exact?: boolean }): Promise<{ p50: number; p95: number; recall: number }> {
  const times: number[] = [];
  let hit = 0;
  for (const [i, v] of qs.vectors.entries()) {
    const t0 = performance.now();
    let q = tbl.vectorSearch(v).select(['id', '_distance']).limit(K) as unknown as { nprobes(n: number): unknown; refineFactor(n: number): unknown; bypassVectorIndex(): unknown; distanceType(d: string): unknown; toArray(): Promise<Array<{ id: number }>> };
    q = q.distanceType('cosine') as typeof q;
    if (how.exact) q = q.bypassVectorIndex() as typeof q;
    if (how.nprobes) q = q.nprobes(how.nprobes) as typeof q;
    if (how.refine) q = q.refineFactor(how.refine) as typeof q;
    const rows = await q.toArray();
    times.push(performance.now() - t0);
    const want = new Set(qs.truth[i]);
    hit += rows.filter((r) => want.has(Number(r.id))).length;
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), recall: hit / (qs.vectors.length * K) };
}

const dirSize = (d: string): number => fs.readdirSync(d, { withFileTypes: true }).reduce((a, e) => a + (e.isDirectory() ? dirSize(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size), 0);

/** A reader process: opens the store, runs the queries it is sent, reports. */
async function reader(): Promise<void> {
  const { mod } = lanceModule();
  process.on('message', async (m: { uri: string; vectors: number[][]; truth: number[][]; nprobes: number }) => {
    const tbl = await (await mod!.connect(m.uri)).openTable('entries');
    const r = await runQueries(tbl, { vectors: m.vectors.map((v) => Float32Array.from(v)), truth: m.truth }, { nprobes: m.nprobes });
    process.send!(r);
    process.exit(0);
  });
}

export async function benchScale(argv: readonly string[]): Promise<number> {
  const opt = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
  if (argv.includes('--scale-reader')) { await reader(); return 0; }
  const { mod, problem } = lanceModule();
  if (!mod) { console.error(`bench --scale: ${problem}`); return 1; }
  const sizes = opt('--scale-sizes', '1000000,10000000').split(',').map(Number);
  const nq = Number(opt('--scale-queries', '100'));
  const readers = Number(opt('--scale-readers', '3'));
  const root = path.resolve(opt('--scale-dir', path.join(repoRoot, 'test-output', 'scale')));
  const store = path.join(repoRoot, '.cache', 'eval-library', 'stacks');
  const { manifest, problem: noStore } = readManifest(store);
  if (!manifest || !manifest.dim) { console.error(`bench --scale: the real vectors come from ${store} (${noStore ?? 'no vectors'}): run \`node scripts/out/bin/evalLibrary.js --only stacks\` first`); return 1; }
  const dim = manifest.dim;
  const real: Float32Array[] = manifest.papers.flatMap((p) => readPaperData(store, dim, p).vectors.map((v) => Float32Array.from(v)));
  const log = (m: string) => console.error(`[bench-scale] ${m}`);
  log(`${real.length} real vectors (dim ${dim}) from the Stacks library; sizes ${sizes.join(', ')}; ${nq} queries`);
  const rows: Array<Array<string | number>> = [];
  for (const n of sizes) {
    // queries: real vectors perturbed anew (none is a stored row); exact top ten kept while rows are made
    const qr = rng(n + 7);
    const vectors = Array.from({ length: nq }, (_, i) => { const v = new Float32Array(dim); padded(real, Math.floor(qr.next() * real.length), dim, v); const r = rng(900_000_000 + i); let s = 0; for (let k = 0; k < dim; k++) { v[k] += 0.2 * r.normal() / Math.sqrt(dim); s += v[k] * v[k]; } for (let k = 0; k < dim; k++) v[k] /= Math.sqrt(s); return v; });
    const best = vectors.map(() => ({ ids: new Int32Array(K).fill(-1), sims: new Float32Array(K).fill(-Infinity) }));
    const uri = path.join(root, String(n));
    fs.rmSync(uri, { recursive: true, force: true });
    fs.mkdirSync(uri, { recursive: true });
    const db = await mod.connect(uri);
    let tbl: LanceTable | undefined;
    const t0 = Date.now();
    const row = new Float32Array(dim);
    for (let start = 0; start < n; start += BATCH) {
      const end = Math.min(n, start + BATCH);
      const batch: Array<Record<string, unknown>> = [];
      for (let i = start; i < end; i++) {
        padded(real, i, dim, row);
        for (let q = 0; q < nq; q++) {
          const v = vectors[q];
          let s = 0;
          for (let k = 0; k < dim; k++) s += v[k] * row[k];
          const b = best[q];
          if (s > b.sims[K - 1]) { let j = K - 1; while (j > 0 && b.sims[j - 1] < s) { b.sims[j] = b.sims[j - 1]; b.ids[j] = b.ids[j - 1]; j--; } b.sims[j] = s; b.ids[j] = i; }
        }
        batch.push({ id: i, paper: `p${Math.floor(i / 200)}`, vector: Array.from(row) });
      }
      if (!tbl) tbl = await db.createTable('entries', batch, { mode: 'overwrite' }); else await tbl.add(batch);
      if ((end / BATCH) % 10 === 0 || end === n) log(`${n}: ${end} rows written (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    const writeS = (Date.now() - t0) / 1000;
    const qs: QuerySet = { vectors, truth: best.map((b) => [...b.ids]) };
    // LanceDB's exact scan reads every vector per query: a few queries say its latency
    const nExact = Math.min(nq, n > 2_000_000 ? 5 : 20);
    const exact = await runQueries(tbl!, { vectors: vectors.slice(0, nExact), truth: qs.truth.slice(0, nExact) }, { exact: true });
    const t1 = Date.now();
    await tbl!.createIndex('vector', { config: mod.Index.ivfPq({ distanceType: 'cosine', numPartitions: Math.round(Math.sqrt(n)), numSubVectors: 24 }), replace: true });
    const indexS = (Date.now() - t1) / 1000;
    log(`${n}: written in ${writeS.toFixed(0)} s, IVF-PQ in ${indexS.toFixed(0)} s`);
    const settings = [{ nprobes: 20 }, { nprobes: 50, refine: 10 }, { nprobes: 100, refine: 50 }];
    const measured = [];
    for (const s of settings) measured.push({ s, r: await runQueries(tbl!, qs, s) });
    // several processes reading the one store at once
    const self = fileURLToPath(new URL('./bench.js', import.meta.url));
    const procs = await Promise.all(Array.from({ length: readers }, () => new Promise<{ p50: number; p95: number; recall: number }>((resolve, reject) => {
      const c = fork(self, ['--scale', '--scale-reader'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      c.on('message', (m) => resolve(m as { p50: number; p95: number; recall: number }));
      c.on('exit', (code) => { if (code) reject(new Error(`reader exited ${code}`)); });
      c.send({ uri, vectors: vectors.map((v) => Array.from(v)), truth: qs.truth, nprobes: 20 });
    })));
    const size = dirSize(uri) / 1024 ** 3;
    for (const { s, r } of measured) rows.push([n.toLocaleString('en'), `IVF-PQ, ${s.nprobes} probes${s.refine ? `, refine ×${s.refine}` : ''}`, writeS.toFixed(0), indexS.toFixed(0), size.toFixed(2), ms(r.p50), ms(r.p95), (r.recall * 100).toFixed(1), `${(exact.p95 / r.p95).toFixed(0)}×`]);
    rows.push([n.toLocaleString('en'), `exact scan (LanceDB, no index; ${nExact} queries): the baseline`, '', '', '', ms(exact.p50), ms(exact.p95), '100', '1×']);
    rows.push([n.toLocaleString('en'), `${readers} processes at once, 20 probes: p95 per process`, '', '', '', procs.map((p) => ms(p.p50)).join(' / '), procs.map((p) => ms(p.p95)).join(' / '), procs.map((p) => (p.recall * 100).toFixed(1)).join(' / '), '']);
    if (!argv.includes('--scale-keep')) fs.rmSync(uri, { recursive: true, force: true });
  }
  console.log('\n## The scaled library store (LanceDB 0.31.0) on this machine\n');
  console.log(table([['vectors', 'search', 'write s', 'index s', 'GiB on disk', 'p50 ms', 'p95 ms', 'recall@10 %', 'p95 vs exact'], ...rows]));
  console.log(`\nVectors: the Stacks library's ${real.length} real ${dim}-dim encoder vectors, padded with perturbed copies; queries: ${nq} real vectors perturbed anew; exact top ten over every vector computed while writing. Object storage (s3://, gs://) is what LanceDB reads too; not verified here (no network).`);
  return 0;
}
