// Retrieval on top of a loaded index: candidate proofs for a statement, results to cite, and
// term disambiguation. Shared by the server features, the CLI and the evaluation.
import { Bm25Index } from '../embeddings/bm25.js';
import { termTitle } from '../embeddings/data/mathd2.js';
import type { MathTokenizer } from '../embeddings/tokenizer.js';
import type { EntryKind, IndexEntry } from './format.js';
import { type Hit, type LoadedIndex, type Query, type SearchOptions } from './store.js';
import { votesFromSimilarity, withVotes } from './citationVotes.js';
import { featureRows, TERM_FEATURES } from './termRanker.js';
import { dot } from './softmaxRanker.js';
import { fuseZ, zScores } from '../util/zScores.js';
import { referenceRow, referenceScore, usableRankers } from './referenceRanker.js';

export interface Result extends Hit { entry: IndexEntry }

export const QUERY_TOKENS = 512;

export function withEntries(index: LoadedIndex, hits: Hit[]): Result[] {
  return hits.map((h) => ({ ...h, entry: index.entry(h.id) }));
}

/**
 * Candidate proofs for a statement: proof entries ranked by the proof text (the trained
 * statement↔proof direction), merged with the proofs of the best matching indexed statements
 * (a statement that says the same thing is the strongest evidence); best score per proof.
 */
export function candidateProofs(index: LoadedIndex, q: Query, opts: SearchOptions & { viaStatements?: boolean } = {}): Result[] {
  const limit = opts.limit ?? 5;
  const best = new Map<number, Hit>();
  const put = (h: Hit) => { const cur = best.get(h.id); if (!cur || h.score > cur.score) best.set(h.id, h); };
  for (const h of index.search(q, 'proof', { ...opts, limit: limit * 2 })) put(h);
  if (opts.viaStatements !== false) {
    for (const h of index.search(q, 'statement', { ...opts, limit })) {
      for (const p of index.entry(h.id).proofs ?? []) if (!opts.exclude?.has(p)) put({ ...h, id: p });
    }
  }
  return withEntries(index, [...best.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit));
}

export function search(index: LoadedIndex, q: Query, kind: EntryKind, opts: SearchOptions = {}): Result[] {
  return withEntries(index, index.search(q, kind, opts));
}

/** What an indexed statement is known to cite: its PS-ProofWiki premises and its proofs' named results. */
export function citationsOf(index: LoadedIndex, id: number): number[] {
  const e = index.entry(id);
  const out = new Set(e.premises ?? []);
  for (const p of e.proofs ?? []) for (const r of index.entry(p).refs ?? []) out.add(r);
  out.delete(id);
  return [...out];
}

/**
 * Results to cite for a statement: indexed statements by direct match, the votes of the
 * nearest statements whose citations are known (citationVotes.ts) and how often each is cited,
 * combined by the index's text ranker (referenceRanker.ts; without one, match plus votes).
 * Statements in `exclude` (the query's own entry) are neither results, neighbours nor counted.
 */
export function suggestCitations(index: LoadedIndex, q: Query, opts: SearchOptions = {}): Result[] {
  return withEntries(index, index.search(q, 'statement', { ...opts, adjust: withCitationVotes(index, opts.exclude) }));
}

/** The statement scores of a direct match (dense, from id `a`) with the neighbours' votes and citation counts. */
export function withCitationVotes(index: LoadedIndex, exclude?: ReadonlySet<number>): (fused: Float32Array, a: number) => Float32Array {
  return (fused, a) => {
    const votes = votesFromSimilarity(fused, (i) => (exclude?.has(a + i) ? undefined : citationsOf(index, a + i).map((c) => c - a)), fused.length);
    const model = usableRankers(index.header.referenceRankers)?.text;
    if (!model) return withVotes(fused, votes);
    const cited = timesCited(index).slice(a, a + fused.length);
    for (const e of exclude ?? []) for (const c of citationsOf(index, e)) if (c >= a && c - a < cited.length) cited[c - a]--;
    const direct = zScores(fused), v = zScores(votes);
    return direct.map((d, i) => referenceScore(model, referenceRow(d, v[i], cited[i])));
  };
}

const citedCounts = new WeakMap<LoadedIndex, Float32Array>();

/** Counting steps: yields every 200 statements (all ~18k statements and their proofs take ~350 ms). */
function* countCitations(index: LoadedIndex): Generator<void, Float32Array> {
  const out = new Float32Array(index.count);
  const [a, b] = index.header.kinds.statement;
  for (let id = a; id < b; id++) {
    if ((id - a) % 200 === 199) yield;
    for (const c of citationsOf(index, id)) out[c]++;
  }
  return out;
}

/** How often each entry is cited by an indexed statement (premises and proofs' named results); computed once per index. */
export function timesCited(index: LoadedIndex): Float32Array {
  let out = citedCounts.get(index);
  if (!out) {
    const steps = countCitations(index);
    let r = steps.next();
    while (!r.done) r = steps.next();
    citedCounts.set(index, (out = r.value));
  }
  return out;
}

/** Counts citations in the background after a load, in slices, so the first "results to cite" does not wait. */
export async function prepareCitations(index: LoadedIndex): Promise<void> {
  const steps = countCitations(index);
  for (let r = steps.next(); ; r = steps.next()) {
    if (citedCounts.has(index)) return; // a request counted them meanwhile
    if (r.done) { citedCounts.set(index, r.value); return; }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The definition ids of an ambiguous term (case-insensitive), or []. */
export function termCandidates(index: LoadedIndex, term: string): number[] {
  return index.header.terms[term.trim().toLowerCase().replace(/\s+/g, ' ')] ?? [];
}

type TitleIndex = { bm: Bm25Index; at: Map<number, number> };
const titleIndexes = new WeakMap<LoadedIndex, TitleIndex>();

/** Builds the title BM25 of the term definitions, pausing (yield) after every 200 entries. */
function* buildTitleIndex(index: LoadedIndex, tok: MathTokenizer): Generator<void, TitleIndex> {
  const [a, b] = index.header.kinds.definition;
  const t: TitleIndex = { bm: new Bm25Index(), at: new Map() };
  for (let id = a; id < b; id++) {
    if ((id - a) % 200 === 199) yield;
    const e = index.entry(id);
    if (e.term) t.at.set(id, t.bm.add(tok.encode(termTitle(e.term, e.title))));
  }
  return t;
}

/**
 * Builds it in the background (reading ~5k entries takes ~150 ms: in slices, yielding to the
 * event loop between them, so requests are never held up by it).
 */
export async function prepareDisambiguation(index: LoadedIndex, tok: MathTokenizer): Promise<void> {
  const steps = buildTitleIndex(index, tok);
  for (let r = steps.next(); ; r = steps.next()) {
    if (titleIndexes.has(index)) return; // a request built it meanwhile
    if (r.done) { titleIndexes.set(index, r.value); return; }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function titleIndex(index: LoadedIndex, tok: MathTokenizer): TitleIndex {
  let t = titleIndexes.get(index);
  if (!t) {
    const steps = buildTitleIndex(index, tok);
    let r = steps.next();
    while (!r.done) r = steps.next();
    titleIndexes.set(index, t = r.value);
  }
  return t;
}

/** BM25 of a context against every definition's "term: title" string. */
function titleScores(index: LoadedIndex, tok: MathTokenizer, ids: readonly number[], q: Query): number[] {
  const t = titleIndex(index, tok);
  const all = t.bm.scores(q.text !== undefined ? tok.encode(q.text) : q.ids);
  return ids.map((id) => all[t.at.get(id) ?? -1] ?? 0);
}

/**
 * The term's candidate definitions ranked for a context. The fitted term ranker
 * (termRanker.ts, header.termRanker) scores each candidate's title; without it, title BM25.
 * Unless `titleOnly` (the MathD2 protocol: the definition being classified is never evidence),
 * the hybrid match of the context with each candidate's entry (BM25 over its title and
 * definition text, cosine with its "term: title" vector) is added, both standardised over
 * the candidates and weighted equally (no weight is tuned: MathD2 cannot measure this path,
 * the gold definition's text is the query itself).
 */
export function disambiguate(index: LoadedIndex, tok: MathTokenizer, term: string, q: Query, opts: { titleOnly?: boolean; limit?: number } = {}): Result[] {
  const ids = termCandidates(index, term);
  if (ids.length === 0) return [];
  const bm = titleScores(index, tok, ids, q);
  const model = index.header.termRanker;
  let title = bm;
  if (model && q.text !== undefined && model.features.join() === TERM_FEATURES.join()) {
    const rows = featureRows(q.text, ids.map((id) => { const e = index.entry(id); return { term: e.term ?? term, title: e.title }; }), bm);
    title = rows.map((x) => dot(model.weights, x));
  }
  let score: ArrayLike<number> = title;
  let byText: Hit[] = [];
  if (!opts.titleOnly) {
    byText = index.search(q, 'definition', { only: ids, limit: ids.length });
    const at = new Map(byText.map((h) => [h.id, h.score]));
    score = fuseZ(title, ids.map((id) => at.get(id) ?? 0));
  }
  const textHit = new Map(byText.map((h) => [h.id, h]));
  const hits: Hit[] = ids.map((id, i) => ({
    id, score: Math.round(score[i] * 1000) / 1000, bm25: Math.round((textHit.get(id)?.bm25 ?? bm[i]) * 1000) / 1000, cosine: textHit.get(id)?.cosine,
  })).sort((a, b) => b.score - a.score || a.id - b.id);
  return withEntries(index, hits.slice(0, opts.limit ?? hits.length));
}
