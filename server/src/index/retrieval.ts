// Retrieval on top of a loaded index: candidate proofs for a statement, results to cite, and
// term disambiguation. Shared by the server features, the CLI and the evaluation.
import { Bm25Index } from '../embeddings/bm25.js';
import { titleText } from '../embeddings/data/mathd2.js';
import type { MathTokenizer } from '../embeddings/tokenizer.js';
import type { EntryKind, IndexEntry } from './format.js';
import { type Hit, type LoadedIndex, type Query, type SearchOptions } from './store.js';
import { neighbourVotes, VOTE_NEIGHBOURS, withVotes } from './citationVotes.js';
import { topK } from '../util/topK.js';
import { contextWords, dot, termFeatures, TERM_FEATURES } from './termRanker.js';

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
 * Results to cite for a statement: indexed statements by direct match plus the votes of the
 * nearest statements whose citations are known (citationVotes.ts). Statements in `exclude`
 * (the query's own entry) are neither results nor neighbours.
 */
export function suggestCitations(index: LoadedIndex, q: Query, opts: SearchOptions = {}): Result[] {
  return withEntries(index, index.search(q, 'statement', { ...opts, adjust: withCitationVotes(index, opts.exclude) }));
}

/** The statement scores of a direct match (dense, from id `a`) with the neighbours' votes added. */
export function withCitationVotes(index: LoadedIndex, exclude?: ReadonlySet<number>): (fused: Float32Array, a: number) => Float32Array {
  return (fused, a) => {
    let min = Infinity;
    for (let i = 0; i < fused.length; i++) if (fused[i] < min) min = fused[i];
    const neighbours: Array<{ score: number; cites: number[] }> = [];
    for (const i of topK(fused, 40)) {
      if (exclude?.has(a + i)) continue;
      const cites = citationsOf(index, a + i).map((c) => c - a);
      if (cites.length) neighbours.push({ score: fused[i] - min, cites });
      if (neighbours.length === VOTE_NEIGHBOURS) break;
    }
    return withVotes(fused, neighbourVotes(neighbours, fused.length));
  };
}

/** The definition ids of an ambiguous term (case-insensitive), or []. */
export function termCandidates(index: LoadedIndex, term: string): number[] {
  return index.header.terms[term.trim().toLowerCase().replace(/\s+/g, ' ')] ?? [];
}

const titleIndexes = new WeakMap<LoadedIndex, { bm: Bm25Index; at: Map<number, number> }>();

/**
 * Builds the title BM25 of the term definitions in the background (reading ~5k entries takes
 * ~150 ms: in slices of 200, yielding between them, so requests are never held up by it).
 */
export async function prepareDisambiguation(index: LoadedIndex, tok: MathTokenizer): Promise<void> {
  const [a, b] = index.header.kinds.definition;
  const bm = new Bm25Index();
  const at = new Map<number, number>();
  for (let id = a; id < b; id++) {
    if ((id - a) % 200 === 199) await new Promise((r) => setImmediate(r));
    if (titleIndexes.has(index)) return; // a request built it meanwhile
    addTitle(index, tok, id, bm, at);
  }
  titleIndexes.set(index, { bm, at });
}

function addTitle(index: LoadedIndex, tok: MathTokenizer, id: number, bm: Bm25Index, at: Map<number, number>): void {
  const e = index.entry(id);
  if (e.term) at.set(id, bm.add(tok.encode(`${e.term}: ${titleText(e.title)}`)));
}

function titleIndex(index: LoadedIndex, tok: MathTokenizer): { bm: Bm25Index; at: Map<number, number> } {
  let t = titleIndexes.get(index);
  if (!t) {
    const [a, b] = index.header.kinds.definition;
    const bm = new Bm25Index();
    const at = new Map<number, number>();
    for (let id = a; id < b; id++) addTitle(index, tok, id, bm, at);
    titleIndexes.set(index, t = { bm, at });
  }
  return t;
}

/** BM25 of a context against every definition's "term: title" string. */
function titleScores(index: LoadedIndex, tok: MathTokenizer, ids: readonly number[], q: Query): number[] {
  const t = titleIndex(index, tok);
  const all = t.bm.scores(q.text !== undefined ? tok.encode(q.text) : q.ids);
  return ids.map((id) => all[t.at.get(id) ?? -1] ?? 0);
}

const standardise = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length || 1)) || 1;
  return xs.map((x) => (x - m) / sd);
};

/**
 * The term's candidate definitions ranked for a context. The fitted term ranker
 * (termRanker.ts, header.termRanker) scores each candidate's title; without it, title BM25.
 * Unless `titleOnly` (the MathD2 protocol: the definition being classified is never evidence),
 * the similarity of the context to each candidate's definition text is added, both
 * standardised over the candidates and weighted equally (no weight is tuned: MathD2 cannot
 * measure this path, the gold definition's text is the query itself).
 */
export function disambiguate(index: LoadedIndex, tok: MathTokenizer, term: string, q: Query, opts: { titleOnly?: boolean; limit?: number } = {}): Result[] {
  const ids = termCandidates(index, term);
  if (ids.length === 0) return [];
  const bm = titleScores(index, tok, ids, q);
  const model = index.header.termRanker;
  let title = bm;
  if (model && q.text !== undefined && model.features.join() === TERM_FEATURES.join()) {
    const top = Math.max(...bm, 0) || 1;
    const ctx = contextWords(q.text);
    title = ids.map((id, i) => dot(model.weights, termFeatures(ctx, index.entry(id).term ?? term, index.entry(id).title, bm[i] / top)));
  }
  let score = title;
  let byText: Hit[] = [];
  if (!opts.titleOnly) {
    byText = index.search(q, 'definition', { only: ids, limit: ids.length });
    const at = new Map(byText.map((h) => [h.id, h.score]));
    const text = standardise(ids.map((id) => at.get(id) ?? 0));
    score = standardise(title).map((x, i) => x + text[i]);
  }
  const textHit = new Map(byText.map((h) => [h.id, h]));
  const hits: Hit[] = ids.map((id, i) => ({
    id, score: Math.round(score[i] * 1000) / 1000, bm25: Math.round((textHit.get(id)?.bm25 ?? bm[i]) * 1000) / 1000, cosine: textHit.get(id)?.cosine,
  })).sort((a, b) => b.score - a.score || a.id - b.id);
  return withEntries(index, hits.slice(0, opts.limit ?? hits.length));
}
