// Reference retrieval data for the evaluation and the rankers' trainer: PS-ProofWiki
// (statement -> premises) and the Stacks project (result -> the results its proof \ref's).
// For each query it computes the signals the reference ranker reads (index/referenceRanker.ts)
// over every candidate. A query that is itself a citing statement (a train query in the fit)
// is left out of its own signals: it neither votes for nor counts towards what it cites.
import { loadPsProofWiki, psTitles } from '../data/psProofwiki.js';
import type { ProofWikiTheorem } from '../data/proofwiki.js';
import { loadStacks, type StacksResult } from '../data/stacks.js';
import { nameSignals, textSignals, unitVotes, votesFromSimilarity, positionFeatures, referenceRow, type ResultPosition, resultName, rankWithHubs, type Hubs, type ProofRankerModel, CiterProfiles, citerSourceOf } from 'mathsense-server/api/index';
import type { ReferenceGroup } from '../rankers/referenceFit.js';
import { Bm25Index } from 'mathsense-server/api/embeddings';
import { topK, zScores, seededRandom, seededSample } from 'mathsense-server/api/util';
import { Scorer, type Ctx, type Item, type Method } from './scorer.js';

export interface ReferenceQuery {
  item: Item; self: number; gold: number[];
  /** The statement's own name (label words, title) and the candidates its text \ref's, where known. */
  name?: string; referred?: number[];
}

export interface ReferenceTask {
  name: string;
  candidates: Item[];
  /** Candidate index -> where it sits in its project (Stacks: chapter file and order). */
  positions?: ResultPosition[];
  /** Candidate index -> its name (resultNames.ts), where the source names its results. */
  names?: string[];
  /** Statements with known references; `self` is the candidate index of the statement. */
  citing: Array<{ item: Item; self: number; cites: number[] }>;
  /** Queries of each split: test (evaluation), fit and dev (the trainer). */
  splits: Record<'test' | 'fit' | 'dev', ReferenceQuery[]>;
}

/** Per-query signals over all candidates: each method's scores, the ranker's columns. */
export interface QuerySignals {
  scores: Record<Method, Float32Array>;
  /** z-scored direct match (fused, or BM25 when the encoder is off); neighbour votes, over their norm and z-scored. */
  direct: Float32Array;
  votes: Float32Array;
  votesZ: Float32Array;
  /** Times each candidate is cited by the citing statements (the query's own citations removed). */
  cited: Float32Array;
  /** z-scored name match and statement-words-in-name (zeros without names), and the \ref'd candidates. */
  name: Float32Array;
  /** Votes (over their norm) of the citing statements nearest by name (zeros without names). */
  nameVotes: Float32Array;
  textInName: Float32Array;
  referred: Set<number>;
  /** z-scored BM25 of the query against each result's citer profile, and its vector's cosine with the citers' mean (citerProfiles.ts). */
  profile: Float32Array;
  centroid: Float32Array;
}

export class ReferenceSignals {
  private constructor(private readonly ctx: Ctx, readonly task: ReferenceTask, private readonly pool: Scorer, private readonly near: Scorer, private readonly cited: Float32Array, private readonly citingOf: Map<number, number>, private readonly names: Bm25Index | undefined, private readonly neighbours: { model: ProofRankerModel; hubs: Hubs } | undefined, private readonly profiles: CiterProfiles) {}

  /**
   * With `similarity` (the proof ranker), neighbours are found by its score: BM25 and cosine,
   * each also against the citing statement's hub score (its best matches among a seeded sample
   * of the citing statements, itself left out), as the index does; else by BM25+encoder.
   */
  static async create(ctx: Ctx, task: ReferenceTask, similarity?: ProofRankerModel): Promise<ReferenceSignals> {
    const pool = new Scorer(ctx);
    await pool.index(task.candidates);
    const near = new Scorer(ctx);
    await near.index(task.citing.map((c) => c.item));
    const cited = new Float32Array(task.candidates.length);
    for (const c of task.citing) for (const k of c.cites) cited[k]++;
    let names: Bm25Index | undefined;
    if (task.names) { names = new Bm25Index(); for (const n of task.names) names.add(ctx.tok.encode(n)); }
    let neighbours: { model: ProofRankerModel; hubs: Hubs } | undefined;
    if (similarity && ctx.methods.includes('encoder')) {
      const background = seededSample(task.citing.map((_, j) => j), similarity.background);
      neighbours = { model: similarity, hubs: await near.hubs(background.map((j) => task.citing[j].item), (b, j) => background[b] === j) };
    }
    // without the encoder the vectors are zeros, and so is every centroid cosine
    const profiles = new CiterProfiles(task.candidates.length, citerSourceOf(task.citing.map((c, j) => ({ ids: ctx.tok.encode(c.item.text, { macros: c.item.macros }), cites: c.cites, vec: near.vectors[j] }))));
    return new ReferenceSignals(ctx, task, pool, near, cited, new Map(task.citing.map((c, j) => [c.self, j])), names, neighbours, profiles);
  }

  /** Calls `each` for every query (in chunks, so the score arrays of a split never all coexist). */
  async forEach(queries: ReferenceQuery[], each: (s: QuerySignals, q: ReferenceQuery, i: number) => void): Promise<void> {
    const best: Method = this.ctx.methods.includes('fused') ? 'fused' : 'bm25';
    for (let a = 0; a < queries.length; a += 200) {
      const part = queries.slice(a, a + 200);
      // each query tokenized and embedded once for both pools and the citer profiles
      const items = part.map((q) => q.item);
      const given = { ids: items.map((it) => this.ctx.tok.encode(it.text, { macros: it.macros })), vecs: await this.ctx.embed(items) };
      const direct = await this.pool.score(items, given);
      const byText = await this.near.score(items, given);
      const nb = this.neighbours;
      const near = nb ? byText.bm25.map((b, i) => rankWithHubs(nb.model.weights, b, byText.encoder[i], nb.hubs)) : byText[best];
      part.forEach((q, i) => {
        const own = q.self >= 0 ? this.citingOf.get(q.self) : undefined;
        const cites = (j: number) => (j === own ? undefined : this.task.citing[j].cites);
        const votes = votesFromSimilarity(near[i], cites, this.task.candidates.length);
        let cited = this.cited;
        if (own !== undefined) { cited = cited.slice(); for (const k of this.task.citing[own].cites) cited[k]--; }
        const scores = { bm25: direct.bm25[i], encoder: direct.encoder[i], fused: direct.fused[i] };
        const n = this.task.candidates.length;
        const byName = this.names && q.name ? this.names.scores(this.ctx.tok.encode(q.name)) : undefined;
        // citing statements are candidates: the nearest by name vote for what they cite
        const named = this.names ? nameSignals(byName, this.names.scores(given.ids[i]), (c) => { const j = this.citingOf.get(c); return j === undefined || j === own ? undefined : this.task.citing[j].cites; }, n) : { name: new Float32Array(n), textInName: new Float32Array(n), nameVotes: new Float32Array(n) };
        // the query, when it is a citing statement, is left out of the profiles it is in
        const without = own !== undefined ? [own] : [];
        const profile = zScores(this.profiles.bm25(given.ids[i], without));
        const centroid = this.profiles.centroid(given.vecs[i], without);
        each({ scores, direct: zScores(scores[best]), votes: unitVotes(votes), votesZ: zScores(votes), cited, ...named, referred: new Set(q.referred), profile, centroid }, q, a + i);
      });
    }
  }

  /** The feature row of candidate `c` for query `q` (with position features when `withPosition`). */
  row(s: QuerySignals, q: ReferenceQuery, c: number, withPosition: boolean): number[] {
    const p = this.task.positions;
    return referenceRow(textSignals(s, c, s.cited[c], s.referred.has(c)), withPosition ? positionFeatures(q.self >= 0 ? p?.[q.self] : undefined, p?.[c]) : undefined);
  }

  /**
   * A fit group: the candidates worth ranking (the best by direct match plus votes, the best by
   * direct match, by name, the \ref'd ones, with positions the 60 results just before the
   * query in its file, and 20 at random).
   */
  group(s: QuerySignals, q: ReferenceQuery, withPosition: boolean): ReferenceGroup & { total: number } {
    const n = this.task.candidates.length;
    const both = new Float32Array(n);
    for (let j = 0; j < n; j++) both[j] = s.direct[j] + s.votesZ[j];
    const cands = new Set([...topK(both, 150), ...topK(s.direct, 50), ...topK(s.profile, 30), ...s.referred]);
    if (this.names) for (const j of [...topK(s.name, 30), ...topK(s.textInName, 30), ...topK(s.nameVotes, 30)]) cands.add(j);
    const p = this.task.positions;
    if (withPosition && p && q.self >= 0) {
      const me = p[q.self];
      for (let j = q.self - 1, k = 0; j >= 0 && k < 60 && p[j].file === me.file; j--, k++) cands.add(j);
    }
    // and some results drawn at random, so a fitted network also sees the far end of the
    // ranking it is applied to (every candidate of a pool is scored at run time)
    const rnd = seededRandom(q.self + 2 + q.gold.length * 7919);
    for (let k = 0; k < 20 && n > 1; k++) cands.add(Math.floor(rnd() * n));
    cands.delete(q.self);
    const list = [...cands];
    const gold = new Set(q.gold);
    return { x: list.map((c) => this.row(s, q, c, withPosition)), gold: list.flatMap((c, i) => (gold.has(c) ? [i] : [])), total: q.gold.length };
  }
}

/**
 * PS-ProofWiki: every statement is a candidate, named by its ProofWiki page title
 * (psProofwiki.ts#psTitles); train statements cite their premises.
 */
export function psProofWikiTask(dataDir: string, slice?: number, pages?: ProofWikiTheorem[]): ReferenceTask {
  const ps = loadPsProofWiki(dataDir);
  const cut = <T>(xs: T[]) => (slice ? xs.slice(0, slice) : xs);
  const test = cut(ps.test), dev = cut(ps.dev), fit = cut(ps.train);
  let ids = [...ps.texts.keys()];
  if (slice) { const keep = new Set([...test, ...dev, ...fit].flatMap((q) => [q.id, ...q.premises]).concat(ids.slice(0, 150))); ids = ids.filter((x) => keep.has(x)); }
  const at = new Map(ids.map((x, i) => [x, i]));
  const titles = psTitles(dataDir, ps, pages);
  const query = (q: { id: string; text: string; premises: string[] }): ReferenceQuery => ({ item: { text: q.text }, self: at.get(q.id) ?? -1, gold: q.premises.flatMap((p) => (at.has(p) ? [at.get(p)!] : [])), name: titles.get(q.id) ?? '' });
  return {
    name: 'PS-ProofWiki',
    candidates: ids.map((x) => ({ text: ps.texts.get(x)! })),
    names: ids.map((x) => titles.get(x) ?? ''),
    citing: fit.map((t) => ({ item: { text: t.text }, self: at.get(t.id) ?? -1, cites: t.premises.flatMap((p) => (at.has(p) ? [at.get(p)!] : [])) })),
    splits: { test: test.map(query), dev: dev.map(query), fit: fit.map(query) },
  };
}

/**
 * Stacks: every labelled result is a candidate, named by its label's words; results outside
 * the held-out split cite what their proofs \ref. A third of them are dev queries, a third fit queries.
 */
export function stacksTask(dataDir: string, slice?: number): ReferenceTask {
  const stacks = loadStacks(dataDir);
  const cut = <T>(xs: T[]) => (slice ? xs.slice(0, slice) : xs);
  const test = cut(stacks.results.filter((r) => r.heldOut && r.refs.length > 0));
  const train = cut(stacks.results.filter((r) => !r.heldOut && r.refs.length > 0));
  let cands = stacks.results;
  if (slice) { const keep = new Set([...test, ...train].flatMap((q) => [q.label, ...q.refs]).concat(cands.slice(0, 150).map((c) => c.label))); cands = cands.filter((c) => keep.has(c.label)); }
  const at = new Map(cands.map((c, i) => [c.label, i]));
  const order = new Map<string, number>();
  const positions = cands.map((c) => { const k = order.get(c.chapter) ?? 0; order.set(c.chapter, k + 1); return { file: c.chapter, order: k }; });
  const item = (text: string): Item => ({ text, macros: stacks.macros });
  const known = (labels: string[]) => labels.flatMap((r) => (at.has(r) ? [at.get(r)!] : []));
  const query = (q: StacksResult): ReferenceQuery => ({ item: item(q.statement), self: at.get(q.label) ?? -1, gold: known(q.refs), name: resultName(q.localLabel), referred: known(q.statementRefs) });
  return {
    name: 'Stacks',
    candidates: cands.map((c) => item(c.statement)),
    positions,
    names: cands.map((c) => resultName(c.localLabel)),
    citing: train.map((t) => ({ item: item(t.statement), self: at.get(t.label) ?? -1, cites: known(t.refs) })),
    // every third train result is dev, of the rest every other one is fitted on (spread over all chapters)
    splits: { test: test.map(query), fit: train.filter((_, i) => i % 6 === 1 || i % 6 === 2).map(query), dev: train.filter((_, i) => i % 3 === 0).map(query) },
  };
}
