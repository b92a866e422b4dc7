// `npm run eval` rows for related equations (issue 6). Every figure goes through the real
// feature path (Workspace → WorkspaceEquations → findRelatedEquations) unless the row names a
// single channel (encoder cosine alone; fingerprint keys alone).
//
// E-Gen (../shared/data/egen-equiv-exprs, EVALUATION ONLY, CC BY-NC-SA 4.0): a fixed-seed
// sample of clusters (seed line + random members), prefix → Expr → LaTeX (toLatex) → one
// display equation per virtual document:
//   * K-means cluster accuracy: trials of K clusters x M members, spherical k-means on the
//     formula-encoder vectors (Hungarian-matched accuracy); fingerprint classes as a partition;
//   * retrieval accuracy@1/5/10: some member of the query's cluster among the top k of the whole
//     sample (query excluded) — encoder alone, and the fused search;
//   * 7-way "same meaning, different form": the anchor, one other member of its cluster written
//     differently, and the 6 expressions of other clusters that look most like the anchor
//     (token-bigram overlap, i.e. hard negatives); correct when the member ranks first.
// Stacks + HoTT held-out equations (isHeldOut(textKey(canonical)), never trained on): each is
// searched for with its variables renamed (a random permutation of the letters it uses) over
// every display equation of both projects; "twin at rank 1" when the original is the first hit.
// The renaming permutes letters within each case, as an author renaming variables would.
// Also: the same with the sides of its `=` swapped, and with one side rewritten by the rewrite
// engine (parseable equations only).
// Speed: search p50/p95 in that workspace (in-process; the LSP round trip is `npm run bench`).
//
// Options: --clusters N (E-Gen clusters sampled, default 300), --members M (default 10),
//          --twins N (default 300), --models DIR
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from '../lib/table.js';
import { repoRoot } from '../lib/repo.js';
import { parsePrefix, toLatex, readEgenClusters, egenDir, analyseEquation, macroTable, structuralSimilarity } from 'mathsense-server/api/math';
import { formulaEncoderInput, shapeOf, sharedDataDir, fingerprintMatch, W_FINGERPRINT, W_ENCODER, W_STRUCTURE } from 'mathsense-server/api/index';
import { Workspace, findDocumentFiles } from 'mathsense-server/api/project';
import { EquationAnalyses, WorkspaceEquations, findRelatedEquations, documentEquations } from 'mathsense-server/api/features';
import { EncoderSession, FORMULA_ENCODER_DIR, findModelsDir } from 'mathsense-server/api/embeddings';
import { applyRenaming, mathVariables } from '../training/symbolRenaming.js';
import { kmeans, clusterAccuracy } from '../eval/clustering.js';
import { isHeldOut, textKey } from '../data/splits.js';
import { seededRandom } from 'mathsense-server/api/util';
import { rewrite } from '../rewrite/engine.js';
import { parseSides } from '../rewrite/latexFormula.js';
import type { Doc, MacroDef } from '../lib/serverTypes.js';

const root = repoRoot;

const argv = process.argv.slice(2);
const opt = (n: string, d?: string | number): any => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
const N_CLUSTERS = Number(opt('--clusters', 300));
const N_MEMBERS = Number(opt('--members', 10));
const N_TWINS = Number(opt('--twins', 300));
const dataDir = sharedDataDir();
const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);
const t0 = Date.now();
const log = (m: string) => console.error(`[eval-equations ${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);

// ---- the formula encoder (optional: rows that need it say so when it is missing)
let enc: EncoderSession | undefined;
try {
  enc = await EncoderSession.load(findModelsDir(opt('--models')), { model: FORMULA_ENCODER_DIR, accelerator: 'cpu', threads: 2 });
  log(`formula encoder ${enc.info.version} on ${enc.info.provider}`);
} catch (e) {
  log(`formula encoder unavailable (${(e as Error).message}): encoder rows are skipped`);
}
async function embedAll(texts: string[]): Promise<Map<string, Float32Array>> {
  const m = new Map<string, Float32Array>();
  const uniq = [...new Set(texts)];
  if (!enc) return m;
  for (let i = 0; i < uniq.length; i += 64) {
    const vs = await enc.embedTexts(uniq.slice(i, i + 64).map(formulaEncoderInput));
    vs.forEach((v, j) => m.set(uniq[i + j], v));
  }
  return m;
}
/** `queryVector` of a search context: a vector computed already, else one encoded now; none without the encoder. */
function queryVectors(vecs: Map<string, Float32Array>): { queryVector?: (t: string) => Promise<Float32Array | undefined> } {
  const e = enc;
  return e ? { queryVector: async (t) => vecs.get(t) ?? (await e.embedTexts([formulaEncoderInput(t)]))[0] } : {};
}
const cos = (a: Float32Array, b: Float32Array) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };

/** A workspace of virtual documents, one display equation each, searched like the server does. */
async function virtualWorkspace(latexes: string[], analyses = new EquationAnalyses()) {
  const ws = new Workspace();
  const docs = latexes.map((l, i) => ws.open(`file:///eval/${i}.tex`, 'latex', 1, `\\begin{equation*}\n${l}\n\\end{equation*}\n`));
  const byText = new Map<string, Float32Array>();
  const equations = new WorkspaceEquations(analyses, { generation: 0, get: (t) => byText.get(t) });
  equations.snapshot(ws);
  await analyses.whenIdle();
  const snap = equations.snapshot(ws);
  // each document's one display is analysed by now
  const vecs = await embedAll(snap.features.map((f) => f!.canonical));
  for (const [k, v] of vecs) byText.set(k, v);
  const ctx = { ws, equations, ...queryVectors(vecs) };
  const sites = docs.map((d) => documentEquations(d)[0]);
  return { ws, docs, sites, ctx, vecs, snap };
}

/** `a = b` → `b = a` for a one-row display with exactly one `=` outside braces; else undefined. */
function swapSides(latex: string): string | undefined {
  const t = latex.trim().replace(/[.,]$/, '');
  if (/&|\\\\/.test(t)) return undefined;
  let depth = 0;
  const at: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\') { i++; continue; }
    if (c === '{') depth++; else if (c === '}') depth--; else if (c === '=' && depth === 0) at.push(i);
  }
  if (at.length !== 1) return undefined;
  const [l, r] = [t.slice(0, at[0]).trim(), t.slice(at[0] + 1).trim()];
  return l && r && /[<>]|\\(le|ge|neq|to|subset)/.test(l + r) === false ? `${r} = ${l}` : undefined;
}

const rows = [['Task', 'Metric', 'MathSense', 'Anchor', 'Notes']];

// ================= E-Gen
const rnd = seededRandom(6);
const files = fs.readdirSync(egenDir(dataDir)).filter((f) => f.endsWith('.txt')).sort();
const pool: Array<{ f: string; c: string[][] extends Array<infer C> ? C : never }> = [];
for (const f of files) for (const c of readEgenClusters(path.join(egenDir(dataDir), f))) if (c.length >= N_MEMBERS) pool.push({ f, c });
const picked: typeof pool = [];
while (picked.length < N_CLUSTERS && pool.length) picked.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]);
/** An E-Gen expression: its cluster, its LaTeX and its fingerprint key (none when it has no fingerprint). */
const items: Array<{ cluster: number; latex: string; fp: string | undefined }> = [];
picked.forEach(({ c }, ci) => {
  const members = [c[0], ...c.slice(1).map((x): [number, string] => [rnd(), x]).sort((a, b) => a[0] - b[0]).map((x) => x[1])];
  let n = 0;
  for (const line of members) {
    if (n >= N_MEMBERS) break;
    let latex: string;
    try { latex = toLatex(parsePrefix(line)); } catch { continue; }
    items.push({ cluster: ci, latex, fp: analyseEquation(latex).fingerprints.sides[0]?.key });
    n++;
  }
});
log(`E-Gen: ${picked.length} clusters from ${new Set(picked.map((p) => p.f)).size} files, ${items.length} expressions`);
const vw = await virtualWorkspace(items.map((x) => x.latex));
log('E-Gen workspace analysed');
/** An item's encoder vector (asked for only with the encoder, which gave every item one). */
const vecOf = (i: number): Float32Array => { const f = vw.snap.features[i]; return (f && vw.vecs.get(f.canonical))!; };
/** The item of a search result: every result is one of the workspace's `file:///eval/<item>.tex`. */
const itemOf = (uri: string | undefined) => Number(/\/(\d+)\.tex$/.exec(uri!)![1]);
// note: sites are in document order = item order (one per document)

// ---- K-means cluster accuracy (trials of K=10 clusters)
{
  const trials = 30, K = 10;
  const r2 = seededRandom(7);
  const accEnc: number[] = [], accFp: number[] = [];
  for (let t = 0; t < trials; t++) {
    const cl = new Set<number>();
    while (cl.size < Math.min(K, picked.length)) cl.add(Math.floor(r2() * picked.length));
    const idx = items.map((x, i) => i).filter((i) => cl.has(items[i].cluster));
    const gold = idx.map((i) => items[i].cluster);
    if (enc) accEnc.push(clusterAccuracy(kmeans(idx.map(vecOf), cl.size, seededRandom(t + 1)), gold));
    // fingerprint classes: equal keys form a group, no key: a group of its own
    accFp.push(clusterAccuracy(idx.map((i) => items[i].fp ?? `none${i}`), gold));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  if (enc) rows.push(['E-Gen clustering', `K-means accuracy (K=${K}, ${trials} trials), encoder`, pct(mean(accEnc)), '97.6', 'formula encoder vectors']);
  rows.push(['E-Gen clustering', `cluster accuracy (K=${K}, ${trials} trials), fingerprint classes`, pct(mean(accFp)), '97.6', 'no k-means: equal keys group']);
}

// ---- retrieval accuracy@k
{
  const hitAt = { enc: [0, 0, 0], fused: [0, 0, 0] };
  const ks = [1, 5, 10];
  let nq = 0;
  for (let i = 0; i < items.length; i++) {
    nq++;
    if (enc) {
      const q = vecOf(i);
      const scored = items.map((_, j) => (j === i ? -Infinity : cos(q, vecOf(j))));
      const order = scored.map((s, j): [number, number] => [s, j]).sort((a, b) => b[0] - a[0]).slice(0, 10).map((x) => x[1]);
      ks.forEach((k, n) => { if (order.slice(0, k).some((j) => items[j].cluster === items[i].cluster)) hitAt.enc[n]++; });
    }
    const r = await findRelatedEquations(vw.ctx, { doc: vw.docs[i], site: vw.sites[i] }, { limit: 10 });
    const ids = r.results.map((x) => itemOf(x.uri));
    ks.forEach((k, n) => { if (ids.slice(0, k).some((j) => items[j].cluster === items[i].cluster)) hitAt.fused[n]++; });
  }
  if (enc) rows.push(['E-Gen retrieval', 'accuracy@1 / @5 / @10, encoder alone', hitAt.enc.map((h) => pct(h / nq)).join(' / '), '— / 99.9 / 99.9', `${nq} queries over ${items.length}`]);
  rows.push(['E-Gen retrieval', 'accuracy@1 / @5 / @10, fused search', hitAt.fused.map((h) => pct(h / nq)).join(' / '), '— / 99.9 / 99.9', enc ? 'fingerprint + encoder + structure' : 'fingerprint + structure (no encoder)']);
}

// ---- 7-way "same meaning, different form"
{
  const r3 = seededRandom(8);
  const analyses = new EquationAnalyses();
  let nEnc = 0, nFused = 0, n = 0;
  const bigrams = (i: number) => { const t = vw.snap.features[i]?.tokens ?? []; return new Set(t.slice(1).map((x, k) => `${t[k]} ${x}`)); };
  const bg = items.map((_, i) => bigrams(i));
  const sim = (a: Set<string>, b: Set<string>) => { let c = 0; for (const x of a) if (b.has(x)) c++; return c / Math.sqrt((a.size || 1) * (b.size || 1)); };
  for (let ci = 0; ci < picked.length; ci++) {
    const members = items.map((x, i) => i).filter((i) => items[i].cluster === ci);
    const anchor = members[0];
    const others = members.filter((i) => i !== anchor && vw.snap.features[i]?.canonical !== vw.snap.features[anchor]?.canonical);
    if (!others.length) continue;
    const pos = others[Math.floor(r3() * others.length)];
    const negs = items.map((x, i) => i).filter((i) => items[i].cluster !== ci).map((i): [number, number] => [sim(bg[anchor], bg[i]), i]).sort((a, b) => b[0] - a[0]).slice(0, 6).map((x) => x[1]);
    const cands = [pos, ...negs];
    n++;
    if (enc) {
      const q = vecOf(anchor);
      const s = cands.map((j) => cos(q, vecOf(j)));
      if (s.slice(1).every((x) => x < s[0])) nEnc++;
    }
    const w = await virtualWorkspace([items[anchor].latex, ...cands.map((j) => items[j].latex)], analyses);
    const r = await findRelatedEquations(w.ctx, { doc: w.docs[0], site: w.sites[0] }, { limit: 7 });
    const top = r.results[0] && itemOf(r.results[0].uri);
    if (top === 1 && !(r.results[1] && r.results[1].score === r.results[0].score)) nFused++;
  }
  if (enc) rows.push(['E-Gen 7-way', 'same meaning, different form: accuracy, encoder alone', pct(nEnc / n), '76.4', `${n} anchors, 6 look-alike distractors each`]);
  rows.push(['E-Gen 7-way', 'same meaning, different form: accuracy, fused', pct(nFused / n), '76.4', 'ties count as wrong']);
}
log('E-Gen done');

// ================= Stacks + HoTT held-out twins
{
  const ws = new Workspace();
  const dirs = ['stacks-project', 'hott-book'].map((d) => path.join(dataDir, 'latex', d));
  for (const d of dirs) for (const f of findDocumentFiles(d)) ws.loadFile(f);
  const analyses = new EquationAnalyses();
  const byText = new Map<string, Float32Array>();
  const equations = new WorkspaceEquations(analyses, { generation: 0, get: (t) => byText.get(t) });
  equations.snapshot(ws);
  await analyses.whenIdle();
  let snap = equations.snapshot(ws);
  log(`Stacks + HoTT: ${snap.sites.length} equation sites`);
  const vecs = await embedAll(snap.features.map((f) => f?.canonical ?? ''));
  for (const [k, v] of vecs) byText.set(k, v);
  snap = equations.snapshot(ws);
  const ctx = { ws, equations, ...queryVectors(vecs) };
  const count = new Map<string, number>();
  for (const f of snap.features) if (f) count.set(f.canonical, (count.get(f.canonical) ?? 0) + 1);
  const r4 = seededRandom(9);
  // held out, unique in the corpus (otherwise "the twin" is ambiguous), and saying something
  const held = snap.sites.map((s, i) => i).filter((i) => {
    const f = snap.features[i];
    return f && count.get(f.canonical) === 1 && f.tokens.length >= 8 && isHeldOut(textKey(f.canonical)) && mathVariables(`$ ${snap.sites[i].latex} $`).size >= 1;
  });
  const sample: number[] = [];
  while (sample.length < N_TWINS && held.length) sample.push(held.splice(Math.floor(r4() * held.length), 1)[0]);
  const LETTERS = [...'abcdefghjklmnpqrstuvwxyz'];
  const times: number[] = [];
  // baseline: the same three channels scored exactly for every equation (features, shapes and
  // vectors precomputed, untimed) — what the candidate pruning of rankEquations saves
  const shapes = snap.features.map((f) => (f ? shapeOf(f) : []));
  const baseTimes: number[] = [];
  const exhaustive = (latex: string, macros: MacroDef[]) => {
    const tq = performance.now();
    const f = equations.analyses.now(latex, `q:${JSON.stringify(macros)}`, macros);
    const qs = shapeOf(f);
    const qv = vecs.get(f.canonical);
    const scores = new Float32Array(snap.features.length);
    snap.features.forEach((c, id) => {
      if (!c) return;
      const v = byText.get(c.canonical);
      const st = structuralSimilarity(qs, shapes[id]);
      scores[id] = W_FINGERPRINT * fingerprintMatch(f, c).strength + (qv && v ? W_ENCODER * Math.max(0, cos(qv, v)) + W_STRUCTURE * st : (W_ENCODER + W_STRUCTURE) * st);
    });
    return performance.now() - tq;
  };
  let ok = 0, nT = 0, okRw = 0, nRw = 0, okSw = 0, nSw = 0;
  const firstIs = (r: Awaited<ReturnType<typeof findRelatedEquations>>, i: number) => r.results[0] && r.results[0].uri === snap.sites[i].doc.uri && r.results[0].line === snap.sites[i].line + 1;
  for (const i of sample) {
    const s = snap.sites[i];
    const used = [...mathVariables(`$ ${s.latex} $`)]; // letters in math mode
    // a permutation within each case (upper and lower case letters are different kinds of objects)
    const pick = (alphabet: string[]) => alphabet.filter((l) => !used.includes(l)).map((l): [number, string] => [r4(), l]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const lower = pick(LETTERS), upper = pick(LETTERS.map((l) => l.toUpperCase()));
    let nl = 0, nu = 0;
    const mapping = new Map(used.map((v) => [v, v === v.toLowerCase() ? lower[nl++ % lower.length] : upper[nu++ % upper.length]]));
    const twin = applyRenaming(`$ ${s.latex.replace(/\\label\{[^{}]*\}/g, '')} $`, mapping).slice(2, -2);
    const macros = equations.macros.of(ws, s.doc).defs;
    const tq = performance.now();
    const r = await findRelatedEquations(ctx, { latex: twin, macros }, { limit: 10 });
    times.push(performance.now() - tq);
    if (baseTimes.length < 40) baseTimes.push(exhaustive(twin, macros));
    nT++;
    if (firstIs(r, i)) ok++;
    // renamed and the sides of its one `=` swapped (any notation: the encoder and structure carry it)
    const swapped = swapSides(twin);
    if (swapped) {
      nSw++;
      if (firstIs(await findRelatedEquations(ctx, { latex: swapped, macros }, { limit: 10 }), i)) okSw++;
    }
    // renamed and rewritten: one side through the rewrite engine (equations whose sides parse)
    const info = analyseEquation(s.latex, macroTable(macros));
    if (info.sides.length === 2 && info.relations.every((x) => x === '=') && info.fingerprints.difference) {
      const rw = rewrite(info.sides[1], 2, r4);
      if (rw.rules.length) {
        nRw++;
        const r2 = await findRelatedEquations(ctx, { latex: `${toLatex(info.sides[0])} = ${toLatex(rw.expr)}`, macros }, { limit: 10 });
        if (firstIs(r2, i)) okRw++;
      }
    }
  }
  rows.push(['Stacks/HoTT twins', 'held-out equation, variables renamed: twin at rank 1', pct(ok / nT), '—', `${nT} queries over ${snap.sites.length} equations`]);
  rows.push(['Stacks/HoTT twins', 'renamed + sides of `=` swapped: twin at rank 1', pct(okSw / Math.max(1, nSw)), '—', `${nSw} single-\`=\` equations`]);
  if (nRw) rows.push(['Stacks/HoTT twins', 'renamed + one side rewritten: twin at rank 1', pct(okRw / nRw), '—', `${nRw} parseable equations`]);
  const q = (p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(p * times.length))];
  rows.push(['Speed', 'search p50 / p95 (in-process, ms)', `${q(0.5).toFixed(1)} / ${q(0.95).toFixed(1)}`, '—', `${snap.sites.length} workspace equations${enc ? ', encoder query vector included' : ''}`]);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const first = times.slice(0, baseTimes.length);
  rows.push(['Speed', 'mean search vs exhaustive exact scoring (ms, ratio)', `${mean(first).toFixed(1)} vs ${mean(baseTimes).toFixed(1)} (${(mean(baseTimes) / mean(first)).toFixed(1)}x)`, '—', `same ${baseTimes.length} queries, same run; query vector from cache in both`]);
}

console.log(table(rows));
console.log('\nE-Gen data: CC BY-NC-SA 4.0, evaluation only (never trained on). Anchors: E-Gen paper figures (see ../shared/data/README.md).');
await enc?.release();
