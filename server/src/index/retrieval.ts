// Retrieval on top of a loaded index: candidate proofs for a statement, results to cite, and
// term disambiguation. Shared by the server features, the CLI and the evaluation.
import { Bm25Index } from '../embeddings/bm25.js';
import { termTitle } from './termTitles.js';
import type { MathTokenizer } from '../embeddings/tokenizer.js';
import type { EntryKind, IndexEntry } from './format.js';
import { type Hit, type LoadedIndex, type Query, type SearchOptions } from './store.js';
import { unitVotes, votesFromSimilarity, withVotes } from './citationVotes.js';
import { featureRows, termScores, usableTermRanker } from './termRanker.js';
import { fuseZ, zScores } from '../util/zScores.js';
import { referenceRow, referenceScore, usableRankers } from './referenceRanker.js';
import { rankIndexProofs, statementSimilarity } from './indexHubs.js';
import { perIndex, tick } from './perIndex.js';
import { drain } from '../util/turns.js';
import { nameSignals, textSignals } from './referenceSignals.js';
import { namedIds } from './namedResults.js';
import { CiterProfiles } from './citerProfiles.js';
import { resultName } from './resultNames.js';

export interface Result extends Hit {
  entry: IndexEntry;
  /** Its title names the query's result (namedResults.ts): ranked before text matches. */
  named?: boolean;
  /** Term readings: the term ranker's probability of this reading among the term's (softmax of its scores). */
  probability?: number;
  /** Candidate proofs and results to cite: the probability that it is relevant at all (relevance.ts), where a relevance model is loaded. */
  relevance?: number;
  /** Whether `relevance` passes the task's threshold: shown as a suggestion (absent: no model, shown as ranked). */
  fits?: boolean;
}

/** Candidates scored before the cut: a fixed pool, so a longer list only extends a shorter one. */
const POOL = 50;
/** The statements nearest a query among which what a name names must be (namedFirst). */
const WIDE_POOL = 1000;

export const QUERY_TOKENS = 512;

export function withEntries(index: LoadedIndex, hits: Hit[]): Result[] {
  return hits.map((h) => ({ ...h, entry: index.entry(h.id) }));
}

/**
 * Candidate proofs for a statement: proof entries ranked by the proof text (the proof ranker,
 * proofRanker.ts, when the index carries one; else BM25+encoder), merged with the proofs of the best matching indexed statements
 * (a statement that says the same thing is the strongest evidence); best score per proof.
 */
export function candidateProofs(index: LoadedIndex, q: Query, opts: SearchOptions & { viaStatements?: boolean; name?: string } = {}): Result[] {
  return drain(candidateProofSteps(index, q, opts));
}

/** `candidateProofs`, pausing (`yield`) between and within its searches (made in the background a slice at a time). */
export function* candidateProofSteps(index: LoadedIndex, q: Query, opts: SearchOptions & { viaStatements?: boolean; name?: string } = {}): Generator<void, Result[]> {
  const limit = opts.limit ?? 5;
  const best = new Map<number, Hit>();
  const put = (h: Hit) => { const cur = best.get(h.id); if (!cur || h.score > cur.score) best.set(h.id, h); };
  const combine = (bm: Float32Array, cos: Float32Array | undefined, fused: Float32Array) => rankIndexProofs(index, bm, cos, fused);
  // the two paths score on one scale (rankIndexProofs keeps the fusion's); the statement path's
  // pool is fixed and the proof path's never smaller than the list, so that a proof reached
  // later in either path never outranks one already listed: top 3 is the start of top 10
  for (const h of yield* index.searchSteps(q, 'proof', { ...opts, limit: Math.max(limit, POOL), combine })) put(h);
  if (opts.viaStatements !== false) {
    for (const h of yield* index.searchSteps(q, 'statement', { ...opts, limit: POOL })) {
      for (const p of index.entry(h.id).proofs ?? []) if (!opts.exclude?.has(p)) put({ ...h, id: p });
    }
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score || a.id - b.id);
  return (yield* namedFirstSteps(index, q, 'proof', ranked, opts, { combine })).slice(0, limit);
}

/** `nameOnly`: the query is the name and nothing else (a search box), so every entry it names is meant. */
export function search(index: LoadedIndex, q: Query, kind: EntryKind, opts: SearchOptions & { name?: string; nameOnly?: boolean } = {}): Result[] {
  const limit = opts.limit ?? 10;
  return drain(namedFirstSteps(index, q, kind, index.search(q, kind, { ...opts, limit }), opts)).slice(0, limit);
}

/**
 * The entries whose titles name `opts.name` (namedResults.ts) first, best named first and then
 * by score, followed by `hits` without them; `hits` alone without a name or a match. A name is
 * trusted only where what it names says something like the query: the named statement (a
 * proof's own) must be among the WIDE_POOL statements nearest the query's text. A name means
 * different results in different fields: "Chain rule" in a paper on divergences is not the
 * chain rule of calculus, "Cantor" in a chapter on the reals not Cantor's theorem on power sets.
 * Pauses (`yield`) within its searches.
 */
function* namedFirstSteps(index: LoadedIndex, q: Query, kind: EntryKind, hits: Hit[], opts: SearchOptions & { name?: string; nameOnly?: boolean }, extra: Pick<SearchOptions, 'combine'> = {}): Generator<void, Result[]> {
  const named = opts.name ? namedIds(index, opts.name, kind) : undefined;
  for (const id of opts.exclude ?? []) named?.delete(id);
  if (!named || named.size === 0) return withEntries(index, hits);
  const trusted = opts.nameOnly ? () => true : yield* trustedNames(index, q, kind, named, opts, extra);
  const scored = (yield* index.searchSteps(q, kind, { ...opts, ...extra, only: [...named.keys()], limit: named.size })).filter((h) => trusted(h.id));
  const first = scored.sort((a, b) => named.get(b.id)! - named.get(a.id)! || b.score - a.score || a.id - b.id);
  const seen = new Set(first.map((h) => h.id));
  return [...first.map((h) => ({ ...h, entry: index.entry(h.id), named: true })), ...withEntries(index, hits.filter((h) => !seen.has(h.id)))];
}

/**
 * Which named entries of `kind` say something like the query (see namedFirst): among the
 * WIDE_POOL nearest, or the POOL nearest for a person's name alone (strength 1: a person has
 * several results).
 */
function* trustedNames(index: LoadedIndex, q: Query, kind: EntryKind, named: ReadonlyMap<number, number>, opts: SearchOptions & { name?: string }, extra: Pick<SearchOptions, 'combine'>): Generator<void, (id: number) => boolean> {
  const ranks = function* (k: EntryKind, o: SearchOptions): Generator<void, Map<number, number> | undefined> {
    const ids = (yield* index.searchSteps(q, k, { ...o, limit: WIDE_POOL })).map((h) => h.id);
    return ids.length < WIDE_POOL ? undefined : new Map(ids.map((id, i) => [id, i])); // undefined: every entry is near
  };
  const within = (r: Map<number, number> | undefined, id: number, strength: number) => !r || (r.get(id) ?? Infinity) < (strength === 1 ? POOL : WIDE_POOL);
  const { exclude: _exclude, ...plain } = opts;
  if (kind !== 'proof') {
    const near = yield* ranks(kind, plain);
    return (id) => within(near, id, named.get(id)!);
  }
  const statementsNear = yield* ranks('statement', plain);
  const namedStatements = namedIds(index, opts.name!, 'statement');
  let proofsNear: Map<number, number> | undefined | null = null; // read only for a proof of no statement, of no named one
  return (id) => {
    const strength = named.get(id)!;
    const st = index.entry(id).statement;
    if (st !== undefined) return within(statementsNear, st, strength);
    if (namedStatements.size) return [...namedStatements.keys()].some((s) => within(statementsNear, s, strength));
    if (proofsNear === null) proofsNear = drain(ranks('proof', { ...plain, ...extra }));
    return within(proofsNear, id, strength);
  };
}

/** What an indexed statement is known to cite: its PS-ProofWiki premises and its proofs' named results (`bulk`: a pass over all of them, entries not cached). */
export function citationsOf(index: LoadedIndex, id: number, bulk = false): number[] {
  const digested = index.digestCitations(id);
  if (digested) return [...digested];
  const read = (i: number) => (bulk ? index.peek(i) : index.entry(i));
  const e = read(id);
  const out = new Set(e.premises ?? []);
  for (const p of e.proofs ?? []) for (const r of read(p).refs ?? []) out.add(r);
  out.delete(id);
  return [...out];
}

/** The query statement's name (resultNames.ts: label words and title) and the tokenizer to read titles with. */
export interface CiteName { tok: MathTokenizer; name?: string }

/**
 * Results to cite for a statement: indexed statements by direct match, the votes of the
 * nearest statements whose citations are known (citationVotes.ts) and how often each is cited,
 * combined by the index's text ranker (referenceRanker.ts; without one, match plus votes).
 * With `names`, the ranker also reads the indexed statements' titles as their names (as
 * PS-ProofWiki page titles were in the fit): against the query's name and text, and the votes
 * of the statements whose titles are nearest its name.
 * Statements in `exclude` (the query's own entry) are neither results, neighbours nor counted.
 */
export function suggestCitations(index: LoadedIndex, q: Query, opts: SearchOptions & { names?: CiteName } = {}): Result[] {
  const ranked = withCitationVotes(index, opts.exclude, q, opts.names);
  const combine = (bm: Float32Array, cos: Float32Array | undefined, fused: Float32Array, a: number) => ranked(fused, a, statementSimilarity(index, bm, cos));
  return withEntries(index, index.search(q, 'statement', { ...opts, combine }));
}

/**
 * The statement scores of a direct match (dense, from id `a`) with the neighbours' votes,
 * citation counts and, given the query `q`, its match with each statement's citers
 * (citerProfiles.ts); the neighbours are the statements nearest by `similarity` (the proof
 * ranker's, indexHubs.ts#statementSimilarity), else by the direct match. With `names`, the
 * ranker's name signals too (titleSignals).
 */
export function withCitationVotes(index: LoadedIndex, exclude?: ReadonlySet<number>, q?: Query, names?: CiteName): (fused: Float32Array, a: number, similarity?: Float32Array) => Float32Array {
  return (fused, a, similarity) => {
    const citesOf = (i: number) => (exclude?.has(a + i) ? undefined : citationsOf(index, a + i).map((c) => c - a));
    const votes = votesFromSimilarity(similarity ?? fused, citesOf, fused.length);
    const model = usableRankers(index.header.referenceRankers)?.text;
    if (!model) return withVotes(fused, votes);
    const cited = timesCited(index).slice(a, a + fused.length);
    for (const e of exclude ?? []) for (const c of citationsOf(index, e)) if (c >= a && c - a < cited.length) cited[c - a]--;
    const direct = zScores(fused), v = unitVotes(votes);
    // the query's own signals (citers, names) are computed over every indexed statement: only
    // when the scores are those (not a filtered range)
    const [sa, sb] = index.header.kinds.statement;
    const whole = a === sa && fused.length === sb - sa ? q : undefined;
    const n = whole && names && titleSignals(index, citesOf, whole, names);
    const p = whole && citerMatch(index, whole, exclude);
    const profile = p && zScores(p.bm25);
    const columns = { direct, votes: v, profile, centroid: p?.centroid, ...(n || {}) };
    return direct.map((_, i) => referenceScore(model, referenceRow(textSignals(columns, i, cited[i]))));
  };
}

/**
 * `q` against every indexed statement's citers (citerProfiles.ts; dense over the statements):
 * BM25 against their texts and the cosine with their mean vector (zeros without vectors), the
 * excluded entries left out of every profile.
 */
export function citerMatch(index: LoadedIndex, q: Query, exclude?: ReadonlySet<number>): { bm25: Float32Array; centroid: Float32Array } {
  const [sa, sb] = index.header.kinds.statement;
  const profiles = statementCiters.get(index);
  const without = [...exclude ?? []].filter((id) => id >= sa && id < sb).map((id) => id - sa);
  const useVec = !!q.vec && index.header.modelVersion !== '' && q.vec.length === index.header.dim;
  return { bm25: profiles.bm25(q.ids, without), centroid: useVec ? profiles.centroid(q.vec!, without) : new Float32Array(sb - sa) };
}

/** The name signals of every indexed statement, with their titles as names. */
function titleSignals(index: LoadedIndex, citesOf: (i: number) => number[] | undefined, q: Query, names: CiteName) {
  const [sa, sb] = index.header.kinds.statement;
  const count = sb - sa;
  const titles = statementTitles.get(index, names.tok);
  const byName = names.name ? titles.scores(names.tok.encode(names.name)) : undefined;
  // the statements whose titles are nearest the query's name vote for what they cite
  return nameSignals(byName, titles.scores(q.ids), citesOf, count);
}

/** BM25 over the indexed statements' titles, in statement id order (~18k titles). */
const statementTitles = perIndex(function* (index: LoadedIndex, tok: MathTokenizer): Generator<void, Bm25Index> {
  const bm = new Bm25Index();
  const [a, b] = index.header.kinds.statement;
  for (let id = a; id < b; id++) {
    if ((id - a) % 500 === 499) yield;
    bm.add(tok.encode(resultName(undefined, index.title(id))));
  }
  return bm;
});

/**
 * What each indexed statement cites (citationsOf) and how often each entry is cited by one;
 * ~18k statements and their proofs take ~350 ms, 200 per slice.
 */
const citationTable = perIndex(function* (index: LoadedIndex): Generator<void, { lists: number[][]; counts: Float32Array }> {
  const counts = new Float32Array(index.count);
  const lists: number[][] = [];
  const [a, b] = index.header.kinds.statement;
  for (let id = a; id < b; id++) {
    if ((id - a) % 200 === 199) yield;
    const cs = citationsOf(index, id, true);
    lists.push(cs);
    for (const c of cs) counts[c]++;
  }
  return { lists, counts };
});

/** How often each entry is cited by an indexed statement (premises and proofs' named results). */
export const timesCited = (index: LoadedIndex): Float32Array => citationTable.get(index).counts;

/**
 * The indexed statements' citer profiles (citerProfiles.ts), over the index's own postings and
 * vectors: statement ids relative to the first statement.
 */
const statementCiters = perIndex(function* (index: LoadedIndex): Generator<void, CiterProfiles> {
  const [a, b] = index.header.kinds.statement;
  const lists = citationTable.get(index).lists.map((cs) => cs.filter((c) => c >= a && c < b).map((c) => c - a));
  yield;
  const vectors = index.header.modelVersion !== '';
  return yield* CiterProfiles.built(b - a, {
    citers: b - a,
    postings: (term, each) => index.postings(term, a, b, (id, tf) => each(id - a, tf)),
    cites: (j) => lists[j],
    length: (j) => index.lengths[a + j],
    vector: vectors ? (j) => index.vector(a + j) : undefined,
  });
});

/** Counts citations in the background after a load, so the first "results to cite" does not wait. */
export const prepareCitations = async (index: LoadedIndex, tok: MathTokenizer, pause = tick): Promise<void> => {
  await citationTable.prepare(pause, index);
  await statementCiters.prepare(pause, index);
  await statementTitles.prepare(pause, index, tok);
};

/** The definition ids of an ambiguous term (case-insensitive), or []. */
export function termCandidates(index: LoadedIndex, term: string): number[] {
  return index.header.terms[termKeyOf(term)] ?? [];
}

function softmax(xs: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < xs.length; i++) max = Math.max(max, xs[i]);
  const e = Array.from(xs, (x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** How header.terms spells a term. */
const termKeyOf = (term: string) => term.trim().toLowerCase().replace(/\s+/g, ' ');

type TitleIndex = { bm: Bm25Index; at: Map<string, number> };

/** Where a (term, definition) pair sits in the title index: a definition listed under several terms has a string per term. */
const titleKey = (termKey: string, id: number) => `${termKey}\u0000${id}`;

/**
 * The title BM25 of the term definitions, one "term: title" string per term a definition is
 * listed under (as the term ranker was fitted: "Loop: Loop (Topology)", not the entry's first
 * term "Closed: Loop (Topology)"); ~5k entry reads, ~150 ms, 200 strings per slice.
 */
const titleIndexes = perIndex(function* (index: LoadedIndex, tok: MathTokenizer): Generator<void, TitleIndex> {
  const t: TitleIndex = { bm: new Bm25Index(), at: new Map() };
  let n = 0;
  for (const [termKey, ids] of Object.entries(index.header.terms)) {
    for (const id of ids) {
      if (++n % 200 === 0) yield;
      t.at.set(titleKey(termKey, id), t.bm.add(tok.encode(termTitle(termKey, index.title(id)))));
    }
  }
  return t;
});

/** Builds the title index in the background after a load, so the first term hover does not wait. */
export const prepareDisambiguation = (index: LoadedIndex, tok: MathTokenizer, pause = tick): Promise<void> => titleIndexes.prepare(pause, index, tok);

/** BM25 of a context against the "term: title" strings of a term's definitions. */
function titleScores(index: LoadedIndex, tok: MathTokenizer, termKey: string, ids: readonly number[], q: Query): number[] {
  const t = titleIndexes.get(index, tok);
  const all = t.bm.scores(q.text !== undefined ? tok.encode(q.text) : q.ids);
  return ids.map((id) => all[t.at.get(titleKey(termKey, id)) ?? -1] ?? 0);
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
  const bm = titleScores(index, tok, termKeyOf(term), ids, q);
  const model = usableTermRanker(index.header.termRanker);
  let title = bm;
  if (model && q.text !== undefined) {
    // the features read the title against the term being disambiguated (as words, so its case
    // and spacing do not matter), not the entry's: a definition listed under several terms keeps
    // only the first as its entry's term ("Closed" for "Loop (Topology)")
    const rows = featureRows(q.text, ids.map((id) => ({ term, title: index.entry(id).title })), bm);
    // the context's cosine with each candidate's "term: title" vector (the index's, so the same encoder)
    const cos = q.vec ? ids.map((id) => index.cosineRange(q.vec!, id, id + 1)[0]) : undefined;
    title = termScores(model, rows, cos, index.header.modelVersion);
  }
  let score: ArrayLike<number> = title;
  let byText: Hit[] = [];
  if (!opts.titleOnly) {
    byText = index.search(q, 'definition', { only: ids, limit: ids.length });
    const at = new Map(byText.map((h) => [h.id, h.score]));
    score = fuseZ(title, ids.map((id) => at.get(id) ?? 0));
  }
  const textHit = new Map(byText.map((h) => [h.id, h]));
  // the ranker was fitted as a softmax over each term's readings: its probabilities say how sure it is
  const p = model && q.text !== undefined ? softmax(title) : undefined;
  const hits: Array<Hit & { probability?: number }> = ids.map((id, i) => ({
    id, score: Math.round(score[i] * 1000) / 1000, bm25: Math.round((textHit.get(id)?.bm25 ?? bm[i]) * 1000) / 1000, cosine: textHit.get(id)?.cosine,
    ...(p ? { probability: p[i] } : {}),
  })).sort((a, b) => b.score - a.score || a.id - b.id);
  return withEntries(index, hits.slice(0, opts.limit ?? hits.length));
}
