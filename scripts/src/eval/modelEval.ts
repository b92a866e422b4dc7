// The model evaluation behind `npm run eval` (scripts/src/bin/evalModels.ts): BM25 over the same
// tokenizer, the encoder, and their fusion, side by side on held-out data only, with the
// published anchor figures. `slice` runs a small subset (used by `npm test`).
import * as path from 'node:path';
import { Bm25Index } from 'mathsense-server/api/embeddings';
import { renameSharedSymbols } from '../training/symbolRenaming.js';
import { seededRandom, seededSample } from 'mathsense-server/api/util';
import { loadMathD2, type MathD2Split } from '../data/mathd2.js';
import { termTitle, loadReferenceRankers, referenceScore, withoutNames, type ReferenceRankers, termChoice, type TermRankerModel, HUB_BACKGROUND, loadProofRanker, proofScores, type ProofRankerModel } from 'mathsense-server/api/index';
import { loadProofWiki } from '../data/proofwiki.js';
import { loadStacks } from '../data/stacks.js';
import { rankGroups, titleBm25, trainTermRanker } from '../rankers/termFit.js';
import { accuracyMacroF1, assignTopK, averagePrecision, goldRank, recallAt } from './metrics.js';
import { psProofWikiTask, ReferenceSignals, stacksTask, type QuerySignals, type ReferenceQuery, type ReferenceTask } from './referenceTasks.js';
import { createContext, Scorer, type Ctx, type Item, type Method } from './scorer.js';
import { statementProofScores, type StatementProofPair } from './proofRankerTraining.js';

export interface EvalRow {
  task: string;
  metric: string;
  n: number;
  bm25?: number;
  encoder?: number;
  fused?: number;
  /** What MathSense ships for the task, when it is more than BM25+enc (a trained ranker, neighbour votes). */
  shipped?: number;
  anchor?: string;
}

export interface EvalOptions {
  dataDir: string;
  modelsDir: string;
  /** Queries per task in a quick run (npm test); undefined: the full held-out sets. */
  slice?: number;
  cacheDir?: string;
  log?: (msg: string) => void;
  /** Skip the encoder (zero vectors): checks the BM25 protocol quickly. */
  bm25Only?: boolean;
}

export interface EvalResult {
  rows: EvalRow[];
  perf: { loadMs: number; provider: string; batch1PerSec: number; batch64PerSec: number };
  modelVersion: string;
}

const TOP_K = 10;

const pct = (x: number) => Math.round(x * 1000) / 10;

/**
 * Statement -> proof matching (1-1 pools): local and global decoding, kept and renamed symbols.
 * MathSense: the proof ranker (index/proofRanker.ts), its hub scores against `background`
 * (train statements of the same source); without a ranker file, the column stays empty.
 */
async function statementProof(ctx: Ctx, name: string, pairs: StatementProofPair[], background: Item[], ranker: ProofRankerModel | undefined, rows: EvalRow[]): Promise<void> {
  for (const level of ['kept', 'renamed'] as const) {
    const { scores, columns } = await statementProofScores(ctx, pairs, background, level);
    const ranked: Partial<Record<Method | 'shipped', Float32Array[]>> = { ...scores };
    if (ranker && ctx.methods.includes('encoder')) ranked.shipped = columns.map((c) => proofScores(ranker.weights, c));
    const res: Record<string, Partial<Record<Method | 'shipped', number>>> = {};
    for (const m of [...ctx.methods, 'shipped'] as const) {
      const s = ranked[m];
      if (!s) continue;
      const ranks = s.map((x, i) => goldRank(x, new Set([i])));
      const assign = assignTopK(s, TOP_K);
      // global MRR: the assigned proof first, then the local order
      const gRanks = ranks.map((r, i) => (assign[i] === i ? 1 : r < goldRank(s[i], new Set([assign[i]])) ? r + 1 : r));
      const set = (k: string, v: number) => { (res[k] ??= {})[m] = v; };
      set('MRR local', pct(ranks.reduce((a, r) => a + 1 / r, 0) / ranks.length));
      set('acc@1 local', pct(ranks.filter((r) => r === 1).length / ranks.length));
      set('MRR global', pct(gRanks.reduce((a, r) => a + 1 / r, 0) / gRanks.length));
      set('acc@1 global', pct(assign.filter((a, i) => a === i).length / assign.length));
    }
    const anchor: Record<string, string> = { 'MRR local': level === 'kept' ? '73.7' : '60.7', 'acc@1 local': level === 'kept' ? '67.1' : '52.5' };
    for (const [metric, v] of Object.entries(res)) rows.push({ task: `${name} statement→proof (${level})`, metric, n: pairs.length, ...v, anchor: anchor[metric] });
  }
}

/**
 * Reference retrieval: mAP and R@10 of the gold references among all candidates (query
 * excluded). MathSense ranks with the fitted text ranker (index/referenceRanker.ts: direct
 * match, neighbour votes, times cited); without a rankers file, the direct match plus votes.
 * With `positionRow`, one more row: the position ranker, which also reads each result's file
 * and order (what workspace `\ref` completion uses; not comparable with text-only anchors).
 */
async function references(ctx: Ctx, task: ReferenceTask, rankers: ReferenceRankers | undefined, neighbours: ProofRankerModel | undefined, anchors: { map: string; r10?: string }, rows: EvalRow[], positionRow?: string): Promise<void> {
  const signals = await ReferenceSignals.create(ctx, task, neighbours);
  const queries = task.splits.test;
  // where results are named (Stacks labels, PS-ProofWiki page titles), the same ranker without the name features: the
  // statement texts alone, as the published models read them
  const text = rankers?.text;
  const unnamed = task.names && text ? withoutNames(text) : undefined;
  type Col = Method | 'shipped' | 'position' | 'unnamed';
  const ap: Partial<Record<Col, number>> = {}, r10: Partial<Record<Col, number>> = {};
  const add = (m: Col, s: Float32Array, q: ReferenceQuery) => {
    if (q.self >= 0) s[q.self] = -Infinity; // a query never retrieves itself
    const gold = new Set(q.gold);
    ap[m] = (ap[m] ?? 0) + averagePrecision(s, gold);
    r10[m] = (r10[m] ?? 0) + recallAt(s, gold, 10);
  };
  const ranked = (model: Parameters<typeof referenceScore>[0] | undefined, sig: QuerySignals, q: ReferenceQuery, position: boolean) => {
    const n = sig.direct.length;
    const out = new Float32Array(n);
    for (let c = 0; c < n; c++) out[c] = model ? referenceScore(model, signals.row(sig, q, c, position)) : sig.direct[c] + sig.votesZ[c];
    return out;
  };
  await signals.forEach(queries, (sig, q) => {
    for (const m of ctx.methods) add(m, sig.scores[m], q);
    add('shipped', ranked(rankers?.text, sig, q, false), q);
    if (positionRow && rankers) add('position', ranked(rankers.position, sig, q, true), q);
    if (unnamed) add('unnamed', ranked(unnamed, sig, q, false), q);
  });
  const pick = (acc: Partial<Record<Col, number>>, m: Col) => (acc[m] === undefined ? undefined : pct(acc[m]! / queries.length));
  const row = (acc: Partial<Record<Col, number>>, metric: string, anchor?: string) =>
    rows.push({ task: `${task.name} test references`, metric, n: queries.length, bm25: pick(acc, 'bm25'), encoder: pick(acc, 'encoder'), fused: pick(acc, 'fused'), shipped: pick(acc, 'shipped'), anchor });
  row(ap, 'mAP', anchors.map);
  row(r10, 'R@10', anchors.r10);
  if (ap.unnamed !== undefined) {
    rows.push({ task: `${task.name} test references, statement texts only (no result names)`, metric: 'mAP', n: queries.length, shipped: pick(ap, 'unnamed'), anchor: anchors.map });
    rows.push({ task: `${task.name} test references, statement texts only (no result names)`, metric: 'R@10', n: queries.length, shipped: pick(r10, 'unnamed') });
  }
  if (positionRow && ap.position !== undefined) {
    rows.push({ task: `${task.name} test references, ${positionRow}`, metric: 'mAP', n: queries.length, shipped: pick(ap, 'position'), anchor: 'uses positions: not comparable' });
    rows.push({ task: `${task.name} test references, ${positionRow}`, metric: 'R@10', n: queries.length, shipped: pick(r10, 'position') });
  }
}

/** MathD2: pick the right title among the titles sharing the definition's term. */
async function mathD2(ctx: Ctx, dataDir: string, split: MathD2Split, slice: number | undefined, rows: EvalRow[]): Promise<void> {
  let data = loadMathD2(dataDir, split);
  if (slice) { const terms = new Set(data.slice(0, slice).map((r) => r.term)); data = data.filter((r) => terms.has(r.term)).slice(0, slice * 2); }
  const titles = [...new Set(data.map((r) => `${r.term}\u0000${r.title}`))];
  const titleIndex = new Map(titles.map((t, i) => [t, i]));
  const scorer = new Scorer(ctx);
  // candidates are titles only: the definition being disambiguated is never among them
  await scorer.index(titles.map((t) => { const [term, title] = t.split('\u0000'); return { text: termTitle(term, title) }; }));
  const scores = await scorer.score(data.map((r) => ({ text: r.definition })));
  const gold = data.map((r) => r.title);
  for (const m of ctx.methods) {
    const pred = data.map((r, i) => {
      let best = -Infinity, title = '';
      for (const [t, j] of titleIndex) if (t.startsWith(`${r.term}\u0000`) && scores[m][i][j] > best) { best = scores[m][i][j]; title = t.slice(r.term.length + 1); }
      return title;
    });
    const { accuracy, macroF1 } = accuracyMacroF1(gold, pred);
    const find = (metric: string) => rows.find((x) => x.task === `MathD2 ${split}` && x.metric === metric);
    for (const [metric, v, anchor] of [['accuracy', accuracy, '93.8'], ['macro-F1', macroF1, '92.1']] as const) {
      const row = find(metric) ?? (rows.push({ task: `MathD2 ${split}`, metric, n: data.length, anchor }), find(metric)!);
      row[m] = pct(v);
    }
  }
  // the shipped ranker: fitted on the train split, title features and the encoder's cosine with
  // each "term: title" (its weight fitted on train terms the encoder never saw; index/termRanker.ts)
  const version = ctx.enc.info.version;
  const withEncoder = ctx.methods.includes('encoder');
  ranker ??= await trainTermRanker(dataDir, ctx.tok, withEncoder ? { embed: (texts) => ctx.embed(texts.map((text) => ({ text }))), version } : undefined);
  const ds = data.map((r) => ({ term: r.term, title: r.title, context: r.definition }));
  const pred = rankGroups(ds, titleBm25(ctx.tok, ds)).map((g, i) => {
    const cos = withEncoder ? g.titles.map((t) => scores.encoder[i][titleIndex.get(`${ds[i].term}\u0000${t}`)!]) : undefined;
    return g.titles[termChoice(ranker!, g.x, cos, version)];
  });
  const { accuracy, macroF1 } = accuracyMacroF1(gold, pred);
  for (const r of rows) if (r.task === `MathD2 ${split}`) r.shipped = pct(r.metric === 'accuracy' ? accuracy : macroF1);
}
let ranker: TermRankerModel | undefined;

/** The orientation figure of the issue: BM25, 2,000 sampled ProofWiki theorems vs every proof section. */
function bm25SanityProofWiki(ctx: Ctx, theorems: ReturnType<typeof loadProofWiki>, rows: EvalRow[]): void {
  const idx = new Bm25Index();
  const owner: number[] = [];
  theorems.forEach((t, i) => t.proofs.forEach((p) => { idx.add(ctx.tok.encode(p)); owner.push(i); }));
  const rnd = seededRandom(11);
  const sample = new Set<number>();
  while (sample.size < Math.min(2000, theorems.length)) sample.add(Math.floor(rnd() * theorems.length));
  for (const level of ['kept', 'renamed'] as const) {
    let rr = 0;
    const r2 = seededRandom(7);
    for (const i of sample) {
      const t = theorems[i];
      const q = level === 'kept' ? t.statement : renameSharedSymbols(t.statement, t.proofs.join('\n'), r2);
      const s = idx.scores(ctx.tok.encode(q));
      const gold = new Set(owner.flatMap((o, j) => (o === i ? [j] : [])));
      rr += 1 / goldRank(s, gold);
    }
    rows.push({ task: `ProofWiki all proofs, 2000 sampled (${level})`, metric: 'MRR local', n: sample.size, bm25: pct(rr / sample.size), anchor: level === 'kept' ? 'BM25 40.8' : 'BM25 21.9' });
  }
}

export async function runModelEval(o: EvalOptions): Promise<EvalResult> {
  const log = o.log ?? (() => {});
  const ctx = await createContext({ modelsDir: o.modelsDir, cacheDir: o.cacheDir, bm25Only: o.bm25Only, log });
  const enc = ctx.enc;
  const { rankers, problem } = loadReferenceRankers(o.modelsDir);
  if (problem) log(`reference ranker not used: ${problem}`);
  const rows: EvalRow[] = [];
  const n = o.slice;
  const cut = <T>(xs: T[]) => (n ? xs.slice(0, n) : xs);

  log('statement→proof: ProofWiki and Stacks held-out');
  const pwAll = loadProofWiki(o.dataDir);
  const { ranker: proofRanker, problem: proofProblem } = loadProofRanker(o.modelsDir);
  if (proofProblem) log(`proof ranker not used: ${proofProblem}`);
  const bgSize = n ? 200 : HUB_BACKGROUND;
  const pwBackground = seededSample(pwAll.filter((t) => !t.heldOut), bgSize).map((t) => ({ text: t.statement }));
  await statementProof(ctx, 'ProofWiki test', cut(pwAll.filter((t) => t.heldOut)).map((t) => ({ statement: t.statement, proof: t.proofs[0] })), pwBackground, proofRanker, rows);
  const stacks = loadStacks(o.dataDir);
  const stBackground = seededSample(stacks.results.filter((r) => !r.heldOut), bgSize).map((r) => ({ text: r.statement, macros: stacks.macros }));
  await statementProof(ctx, 'Stacks test', cut(stacks.results.filter((r) => r.heldOut && r.proof)).map((r) => ({ statement: r.statement, proof: r.proof!, macros: stacks.macros })), stBackground, proofRanker, rows);

  log('reference retrieval: PS-ProofWiki test, Stacks held-out');
  await references(ctx, psProofWikiTask(o.dataDir, n, pwAll), rankers, proofRanker, { map: 'BERT joint 36.75 / TF-IDF 6.19', r10: '42.45' }, rows);
  await references(ctx, stacksTask(o.dataDir, n), rankers, proofRanker, { map: 'BERT joint 28.32 / TF-IDF 13.64' }, rows, 'with file position (workspace \\ref completion)');

  log('MathD2 test splits');
  await mathD2(ctx, o.dataDir, 'test_new_candi', n, rows);
  await mathD2(ctx, o.dataDir, 'test_new_term', n, rows);

  if (!n) { log('BM25 orientation figure (2,000 ProofWiki theorems vs all proofs)'); bm25SanityProofWiki(ctx, pwAll, rows); }

  log('throughput');
  const sample = pwAll.slice(0, n ? 16 : 256).map((t) => enc.encode(t.proofs[0]));
  let t0 = performance.now();
  for (const ids of sample.slice(0, n ? 8 : 64)) await enc.embedIds([ids]);
  const batch1PerSec = (n ? 8 : 64) / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let s = 0; s < sample.length; s += 64) await enc.embedIds(sample.slice(s, s + 64));
  const batch64PerSec = sample.length / ((performance.now() - t0) / 1000);
  await enc.release();
  return { rows, perf: { loadMs: enc.info.loadMs, provider: enc.info.provider, batch1PerSec, batch64PerSec }, modelVersion: enc.info.version };
}

/** The one table `npm run eval` prints. */
export function formatEvalTable(r: EvalResult): string {
  const f = (x?: number) => (x === undefined ? '—' : x.toFixed(1));
  const head = ['task', 'metric', 'n', 'BM25', 'encoder', 'BM25+enc', 'MathSense', 'published anchor'];
  const body = r.rows.map((x) => [x.task, x.metric, String(x.n), f(x.bm25), f(x.encoder), f(x.fused), f(x.shipped ?? x.fused), x.anchor ?? '']);
  body.push(['encoder throughput (CPU, batch 1)', 'items/s', '', '', r.perf.batch1PerSec.toFixed(1), '', '', '']);
  body.push(['encoder throughput (CPU, batch 64)', 'items/s', '', '', r.perf.batch64PerSec.toFixed(1), '', '', '']);
  body.push(['model load time', 'ms', '', '', r.perf.loadMs.toFixed(0), '', '', '']);
  const lines = [head, ...body].map((row) => `| ${row.join(' | ')} |`);
  lines.splice(1, 0, `|${head.map(() => '---').join('|')}|`);
  return `Model ${r.modelVersion} (provider ${r.perf.provider}); all figures on held-out/test data, %.\n${lines.join('\n')}`;
}

export const defaultDataDir = (root: string) => path.join(root, '..', 'shared', 'data');
