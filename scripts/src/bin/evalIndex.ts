// `npm run eval` row set for the bundled index (issue 5), measured through the full index in
// build/index (built by `npm run index:build`; `npm run setup` does it):
//   * statement -> proof MRR / acc@1 for held-out ProofWiki theorems against every indexed proof
//     (BM25, encoder, fused) — published anchors are 1-1 pools, ours is ~22k proofs;
//   * PS-ProofWiki test reference retrieval mAP / R@10 over every indexed statement;
//   * MathD2 test-split disambiguation accuracy (candidates: the term's definitions in the
//     index, scored by their titles only: title BM25 and the fitted term ranker; anchor 93.8);
//   * the MathSense column is what the server ships where it differs from BM25+enc (the
//     reference text ranker over match, neighbour votes and times cited; the term ranker);
//   * hover latency p50/p95 over real LSP stdio with the full index loaded;
//   * index build time, size and load time.
// Queries are held-out ProofWiki texts; against an index whose texts have ProofWiki's macros
// written out (the default build) the queries are written out the same way, as an author
// writing standard LaTeX would write them.
// Options: --slice N (first N queries per task), --index DIR, --raw-queries (ProofWiki's macros
// left in the queries), --expand-queries (written out whatever the index).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../lib/repo.js';
import type { ServerStatus } from 'mathsense-server/protocol';
import { type IndexEntry, LoadedIndex, disambiguate, withCitationVotes, QUERY_TOKENS, defaultIndexDir, sharedDataDir, indexProofRanker, rankIndexProofs, statementSimilarity, expandProofWikiMacros } from 'mathsense-server/api/index';
import { fuseZ } from 'mathsense-server/api/util';
import { mapPsStatements } from '../indexBuild/builder.js';
import { EncoderSession, EmbeddingCache, embedThroughCache } from 'mathsense-server/api/embeddings';
import { goldRank, averagePrecision, recallAt } from '../eval/metrics.js';
import { loadMathD2 } from '../data/mathd2.js';
import { loadPsProofWiki } from '../data/psProofwiki.js';
import { textKey } from '../data/splits.js';

const root = repoRoot;

const argv = process.argv.slice(2);
const opt = (n: string) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : undefined; };
const slice = opt('--slice') ? Number(opt('--slice')) : undefined;
const indexDir = defaultIndexDir(opt('--index'));
const dataDir = sharedDataDir();
const cut = <T>(xs: T[]): T[] => (slice ? xs.slice(0, slice) : xs);
let qtext = (t: string) => t;
const pct = (x: number) => Math.round(x * 1000) / 10;
/** A row of the table (`shipped`: what the server ranks with; blank columns stay absent). */
interface Row { task: string; metric: string; n: number; bm25?: number; encoder?: number; fused?: number | string; shipped?: number; anchor?: string }
const rows: Row[] = [];

let index: LoadedIndex;
let loadMsCold: number;
try {
  const t0 = performance.now();
  index = LoadedIndex.load(indexDir);
  loadMsCold = performance.now() - t0;
} catch (e) {
  console.log(`index unavailable: ${(e as Error).message}`);
  console.log('(run `npm run index:build` first; skipping the index rows)');
  process.exit(0);
}
const h = index.header;
/** The build statistics read here, as indexBuild/builder.ts writes them (the server's header leaves them untyped). */
const stats = h.stats as { perKind: Record<string, number>; psProofWiki?: { statements: number; rate: number } };
if (argv.includes('--expand-queries') || (h.proofwikiMacrosExpanded && !argv.includes('--raw-queries'))) qtext = expandProofWikiMacros;
const enc = await EncoderSession.load(path.join(root, 'models'), { accelerator: 'cpu', threads: 2 });
if (enc.info.version !== h.modelVersion) console.log(`warning: index built with encoder ${h.modelVersion}, model is ${enc.info.version}`);
const cache = new EmbeddingCache(enc.info.version, enc.info.dim, path.join(root, '.cache', 'index-embeddings'));
const embed = (texts: string[]) => embedThroughCache(cache, texts, (part) => enc.embedTexts(part.map((i) => texts[i])));
const tok = enc.tokenizer;
const ids = (t: string) => tok.encode(t, { maxTokens: QUERY_TOKENS });

// ---- statement -> proof (held-out ProofWiki theorems, every indexed proof a candidate)
{
  const [sa, sb] = h.kinds.statement;
  const [pa, pb] = h.kinds.proof;
  const queries: IndexEntry[] = [];
  for (let id = sa; id < sb; id++) { const e = index.entry(id); if (e.heldOut && h.sources[e.source].id === 'proofwiki' && e.proofs?.length) queries.push(e); }
  const qs = cut(queries);
  const vecs = await embed(qs.map((e) => qtext(e.text)));
  const acc = { bm25: [0, 0], encoder: [0, 0], fused: [0, 0], shipped: [0, 0] };
  const ranker = indexProofRanker(index);
  if ('problem' in ranker) console.log(`proof ranker not used: ${ranker.problem}`);
  qs.forEach((e, i) => {
    const bm = index.bm25Range(ids(qtext(e.text)), 'proof', pa, pb);
    const cos = index.cosineRange(vecs[i], pa, pb);
    const gold = new Set<number>(e.proofs!.map((p) => p - pa)); // queries have proofs
    const fused = fuseZ(bm, cos);
    const channels: Array<[keyof typeof acc, Float32Array]> = [['bm25', bm], ['encoder', cos], ['fused', fused], ['shipped', rankIndexProofs(index, bm, cos, fused) ?? fused]];
    for (const [m, s] of channels) {
      const r = goldRank(s, gold);
      acc[m][0] += 1 / r; acc[m][1] += r === 1 ? 1 : 0;
    }
  });
  const n = qs.length;
  rows.push({ task: `ProofWiki held-out statement→proof (all ${pb - pa} indexed proofs)`, metric: 'MRR', n, bm25: pct(acc.bm25[0] / n), encoder: pct(acc.encoder[0] / n), fused: pct(acc.fused[0] / n), shipped: pct(acc.shipped[0] / n), anchor: '73.7 (1-1 pools, MATcH)' });
  rows.push({ task: `ProofWiki held-out statement→proof (all ${pb - pa} indexed proofs)`, metric: 'acc@1', n, bm25: pct(acc.bm25[1] / n), encoder: pct(acc.encoder[1] / n), fused: pct(acc.fused[1] / n), shipped: pct(acc.shipped[1] / n), anchor: '67.1' });
}

// ---- PS-ProofWiki test: reference retrieval over every indexed statement
{
  const ps = loadPsProofWiki(dataDir);
  const [sa, sb] = h.kinds.statement;
  const byKey = new Map<string, number>();
  for (let id = sa; id < sb; id++) { const e = index.entry(id); if (h.sources[e.source].id === 'proofwiki') { const k = textKey(e.text); if (k.length >= 20 && !byKey.has(k)) byKey.set(k, id); } }
  const map = mapPsStatements(ps.texts, byKey);
  const all = ps.test.map((q) => ({ ...q, gold: q.premises.map((p) => map.get(p)).filter((x): x is number => x !== undefined) })).filter((q) => q.gold.length > 0);
  const qs = cut(all);
  const vecs = await embed(qs.map((q) => qtext(q.text)));
  const acc = { bm25: [0, 0], encoder: [0, 0], fused: [0, 0], shipped: [0, 0], untitled: [0, 0] };
  qs.forEach((q, i) => {
    const qIds = ids(qtext(q.text));
    const bm = index.bm25Range(qIds, 'statement', sa, sb);
    const cos = index.cosineRange(vecs[i], sa, sb);
    const self = map.get(q.id);
    const gold = new Set<number>(q.gold.map((g) => g - sa));
    const fused = fuseZ(bm, cos);
    // the statement's own page title is its name (what an author's label and title give at run time)
    const names = { tok, name: self === undefined ? undefined : index.entry(self).title };
    const query = { ids: qIds, vec: vecs[i] };
    const similarity = statementSimilarity(index, bm, cos);
    const exclude = new Set(self === undefined ? [] : [self]);
    const shipped = withCitationVotes(index, exclude, query, names)(fused, sa, similarity);
    const untitled = withCitationVotes(index, exclude, query)(fused, sa, similarity);
    const channels: Array<[keyof typeof acc, Float32Array]> = [['bm25', bm], ['encoder', cos], ['fused', fused], ['shipped', shipped], ['untitled', untitled]];
    for (const [m, s] of channels) {
      if (self !== undefined) s[self - sa] = -Infinity;
      acc[m][0] += averagePrecision(s, gold); acc[m][1] += recallAt(s, gold, 10);
    }
  });
  const n = qs.length;
  const task = `PS-ProofWiki test references (${sb - sa} indexed statements; ${all.length}/${ps.test.length} queries with a mapped premise)`;
  rows.push({ task, metric: 'mAP', n, bm25: pct(acc.bm25[0] / n), encoder: pct(acc.encoder[0] / n), fused: pct(acc.fused[0] / n), shipped: pct(acc.shipped[0] / n), anchor: 'BERT joint 36.75 / TF-IDF 6.19' });
  rows.push({ task, metric: 'R@10', n, bm25: pct(acc.bm25[1] / n), encoder: pct(acc.encoder[1] / n), fused: pct(acc.fused[1] / n), shipped: pct(acc.shipped[1] / n), anchor: '42.45' });
  rows.push({ task: `${task}, statement texts only (no titles)`, metric: 'mAP', n, shipped: pct(acc.untitled[0] / n), anchor: 'BERT joint 36.75 / TF-IDF 6.19' });
  rows.push({ task: `${task}, statement texts only (no titles)`, metric: 'R@10', n, shipped: pct(acc.untitled[1] / n) });
  const st = stats.psProofWiki;
  if (st) rows.push({ task: 'PS-ProofWiki statements mapped onto ProofWiki pages (by text)', metric: 'match rate %', n: st.statements, fused: st.rate, anchor: '' });
}

// ---- MathD2 test splits: disambiguation through the index (titles only). Candidates are every
// indexed definition of the term (train-split titles included), so this is harder than the
// model evaluation's per-split candidate sets. BM25: titles alone; MathSense: the term ranker
// fitted at build time (header.termRanker), with the definition's cosine to the title vectors.
for (const split of ['test_new_candi', 'test_new_term'] as const) {
  const data = cut(loadMathD2(dataDir, split));
  const correct = { bm25: 0, shipped: 0 };
  let n = 0, missing = 0;
  const vecs = await embed(data.map((r) => r.definition));
  for (const [i, r] of data.entries()) {
    const q = { ids: ids(r.definition), vec: vecs[i], text: r.definition };
    const res = disambiguate(index, tok, r.term, q, { titleOnly: true });
    if (!res.some((x) => x.entry.title === r.title)) { missing++; continue; }
    n++;
    if (res[0].entry.title === r.title) correct.shipped++;
    if (disambiguate(index, tok, r.term, { ids: q.ids }, { titleOnly: true })[0].entry.title === r.title) correct.bm25++;
  }
  rows.push({ task: `MathD2 ${split} disambiguation via the index${missing ? ` (${missing} rows without their title in the index)` : ''}`, metric: 'accuracy', n, bm25: pct(correct.bm25 / Math.max(n, 1)), shipped: pct(correct.shipped / Math.max(n, 1)), anchor: '93.8' });
}
await enc.release();

// ---- hover latency over stdio with the full index
{
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-eval-hover-'));
  const [sa, sb] = h.kinds.statement;
  const sts = [];
  for (let id = sa; id < sb && sts.length < 40; id += 97) sts.push(index.entry(id).text.replace(/\n+/g, ' ').slice(0, 600));
  const text = ['\\documentclass{article}', '\\newtheorem{theorem}{Theorem}', '\\begin{document}',
    ...sts.flatMap((s, i) => [`\\begin{theorem}\\label{t${i}}`, s, '\\end{theorem}', '\\begin{proof}', `By \\ref{t${Math.max(0, i - 1)}}.`, '\\end{proof}', '']), '\\end{document}', ''].join('\n');
  const file = path.join(tmp, 'main.tex');
  fs.writeFileSync(file, text);
  const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = createRequire(path.join(root, 'server', 'package.json'))('vscode-languageserver-protocol/node');
  const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'mathsense.cjs'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const settings = { index: { path: indexDir } };
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  const uri = pathToFileURL(file).href;
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(tmp).href, capabilities: { workspace: { configuration: true } }, initializationOptions: { settings } });
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'latex', version: 1, text } });
  let s: ServerStatus;
  for (let i = 0; i < 600; i++) { s = await conn.sendRequest('mathsense/status'); if (s.index.state !== 'loading' && s.index.state !== 'idle') break; await new Promise((r) => setTimeout(r, 100)); }
  const lines = text.split('\n');
  const thmLines = lines.flatMap((l, i) => (l.startsWith('\\begin{theorem}') ? [i + 1] : []));
  const measure = async (rounds: number) => {
    const t: number[] = [];
    for (let r = 0; r < rounds; r++) for (const line of thmLines) {
      const t0 = performance.now();
      await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 3 } });
      t.push(performance.now() - t0);
    }
    t.sort((a, b) => a - b);
    return { p50: t[Math.floor(t.length / 2)], p95: t[Math.floor(t.length * 0.95)], n: t.length };
  };
  const cold = await measure(1); // first hovers: BM25 only while the worker embeds
  await new Promise((r) => setTimeout(r, 8000)); // let the prefetch finish
  const warm = await measure(5);
  s = await conn.sendRequest('mathsense/status');
  rows.push({ task: `hover on a theorem, full index (${h.count} entries), first hover per statement`, metric: 'p50 / p95 ms', n: cold.n, fused: `${cold.p50.toFixed(1)} / ${cold.p95.toFixed(1)}`, anchor: '≤ 50 p95' });
  rows.push({ task: `hover on a theorem, full index, hybrid (semantic=${s.index.semantic})`, metric: 'p50 / p95 ms', n: warm.n, fused: `${warm.p50.toFixed(1)} / ${warm.p95.toFixed(1)}`, anchor: '≤ 50 p95' });
  try { await conn.sendRequest('shutdown'); await conn.sendNotification('exit'); } catch { /* gone */ }
  setTimeout(() => child.kill('SIGKILL'), 1000).unref();
  fs.rmSync(tmp, { recursive: true, force: true });
}

rows.push({ task: 'index build (npm run index:build, from ../shared/data)', metric: 'seconds', n: h.count, fused: (h.buildMs / 1000).toFixed(1), anchor: '' });
rows.push({ task: 'index size on disk', metric: 'MB', n: h.count, fused: (index.bytes / 1e6).toFixed(1), anchor: '' });
rows.push({ task: 'index load time (cold, synchronous)', metric: 'ms', n: h.count, fused: loadMsCold.toFixed(0), anchor: '< 1000' });

const f = (x: number | string | undefined) => (x === undefined ? '—' : typeof x === 'number' ? x.toFixed(1) : x);
const head = ['task', 'metric', 'n', 'BM25', 'encoder', 'BM25+enc', 'MathSense', 'anchor'];
console.log(`Index ${indexDir}: ${h.count} entries (${Object.entries(stats.perKind).map(([k, n]) => `${n} ${k}`).join(', ')}), model ${h.modelVersion}; held-out/test data only.`);
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${[r.task, r.metric, String(r.n), f(r.bm25), f(r.encoder), f(r.fused), f(r.shipped ?? r.fused), r.anchor ?? ''].join(' | ')} |`);
process.exit(0);
