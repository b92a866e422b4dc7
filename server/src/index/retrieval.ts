// Retrieval on top of a loaded index: candidate proofs for a statement, results to cite, and
// term disambiguation. Shared by the server features, the CLI and the evaluation.
import { Bm25Index } from '../embeddings/bm25.js';
import { titleText } from '../embeddings/data/mathd2.js';
import type { MathTokenizer } from '../embeddings/tokenizer.js';
import type { EntryKind, IndexEntry } from './format.js';
import { fuse, type Hit, type LoadedIndex, type Query, type SearchOptions } from './store.js';

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

/** The definition ids of an ambiguous term (case-insensitive), or []. */
export function termCandidates(index: LoadedIndex, term: string): number[] {
  return index.header.terms[term.trim().toLowerCase().replace(/\s+/g, ' ')] ?? [];
}

const titleBm25 = new WeakMap<LoadedIndex, { bm: Bm25Index; ids: number[] }>();

/**
 * The term's candidate definitions ranked for a context. `titleOnly` scores candidates by their
 * titles alone (the MathD2 protocol: the definition being classified is never the evidence).
 */
export function disambiguate(index: LoadedIndex, tok: MathTokenizer, term: string, q: Query, opts: { titleOnly?: boolean; limit?: number } = {}): Result[] {
  const ids = termCandidates(index, term);
  if (ids.length === 0) return [];
  if (!opts.titleOnly) return withEntries(index, index.search(q, 'definition', { only: ids, limit: opts.limit ?? ids.length }));
  let t = titleBm25.get(index);
  if (!t) {
    const [a, b] = index.header.kinds.definition;
    const bm = new Bm25Index();
    const all: number[] = [];
    for (let id = a; id < b; id++) { const e = index.entry(id); if (!e.term) continue; bm.add(tok.encode(`${e.term}: ${titleText(e.title)}`)); all.push(id); }
    titleBm25.set(index, t = { bm, ids: all });
  }
  const bmAll = t.bm.scores(q.ids);
  const [a, b] = index.header.kinds.definition;
  const cos = q.vec && index.header.modelVersion ? index.cosineRange(q.vec, a, b) : undefined;
  const cosAll = cos ? Float32Array.from(t.ids, (id) => cos[id - a]) : undefined;
  const fused = cosAll ? fuse(bmAll, cosAll) : bmAll;
  const pos = new Map(t.ids.map((id, i) => [id, i]));
  const hits: Hit[] = ids.filter((id) => pos.has(id)).map((id) => {
    const i = pos.get(id)!;
    return { id, score: Math.round(fused[i] * 1000) / 1000, bm25: Math.round(bmAll[i] * 1000) / 1000, cosine: cosAll ? Math.round(cosAll[i] * 1000) / 1000 : undefined };
  }).sort((a, b) => b.score - a.score || a.id - b.id);
  return withEntries(index, hits.slice(0, opts.limit ?? hits.length));
}
