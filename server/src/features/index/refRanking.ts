// The relevance ranking of the workspace's labelled results for a statement: `\ref{` completion
// inside a proof and the workspace part of "results to cite". What it builds over the candidates
// alone is kept while they stay the same, and is warmed in the background before the first
// request (warmRefRanking).
import type { CompletionItem } from 'vscode-languageserver-types';
import { Bm25Index } from '../../embeddings/bm25.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import type { DocEnv, DocLabel } from '../../model/documentView.js';
import { bodyText, enclosingStatement, statementOf, statements, type FoundStatement } from '../../analysis/structure.js';
import { labelledResults, proofCitations, timesReferenced } from '../../index/workspaceResults.js';
import { TOKEN_CACHE_TEXTS, type ServerIndex } from '../../index/serverIndex.js';
import { labelItemTarget, type RefContext } from '../labels/labelCompletion.js';
import { positionFeatures, referenceRow, referenceScore, usableRankers } from '../../index/referenceRanker.js';
import { refsIn, resultName } from '../../index/resultNames.js';
import { unitVotes, votesFromSimilarity } from '../../index/citationVotes.js';
import { CiterProfiles, citerSourceOf } from '../../index/citerProfiles.js';
import { nameSignals, textSignals } from '../../index/referenceSignals.js';
import { fuseZ, zScores } from '../../util/zScores.js';
import { lowerBound } from '../../util/lowerBound.js';
import { SLICE_MS } from '../../util/turns.js';


/** The statement's name for the results-to-cite rankers (resultNames.ts: its first label's words and its title), or ''. */
export function statementName(ws: Workspace, f: FoundStatement): string {
  const own = statementOf(ws, f);
  return resultName(own?.labels[0]?.name, own?.title);
}

/** A labelled workspace result as the rankings read it. */
interface Candidate { doc: Doc; label: DocLabel; ref: string; env: DocEnv; start: number; name: string; text: string; key: string; score: number }

/**
 * The labelled results visible from `doc` that the rankings score, in one order for every caller
 * (completion, results to cite, the background warm-up), so that what is built over them is
 * shared: each label name once, as completion offers it, theorem labels only.
 */
function refCandidates(ws: Workspace, doc: Doc, cap = 3000): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const perDoc = new Map<Doc, ReturnType<typeof labelledResults>>();
  for (const loc of ws.visibleLabels(doc)) {
    if (out.length >= cap) break;
    const key = loc.prefix + loc.label.name;
    if (seen.has(key)) continue;
    seen.add(key);
    let results = perDoc.get(loc.doc);
    if (!results) perDoc.set(loc.doc, (results = labelledResults(ws, loc.doc)));
    const r = results(loc.label);
    if (r) out.push({ doc: loc.doc, label: loc.label, ref: key, env: r.env, start: r.env.start, name: r.name, text: r.text, key: r.key, score: 0 });
  }
  return out;
}

/** Labelled workspace statements other than `f`, by relevance to `f` (BM25 + cached vectors). */
export function rankWorkspaceStatements(ws: Workspace, from: Doc, f: FoundStatement, si: ServerIndex): Candidate[] {
  if (!si.get()) return [];
  return scoreTexts(refCandidates(ws, from), f, ws, si).sort((a, b) => b.score - a.score);
}

/**
 * Scores labelled workspace results for the statement `f`, leaving out `f`'s own labels (the
 * result is `cands` without them). With the index's position ranker
 * (index/referenceRanker.ts, fitted on the Stacks project): the direct match (BM25 + cached
 * vectors, z-scored), the votes of the five workspace results most like `f` for what their
 * proofs \ref (citationVotes.ts, as on Stacks, where the ranker was fitted with them), and of
 * the five whose names are nearest `f`'s name, how
 * often the label is \ref'd in the workspace, the names (label words and titles) against
 * `f`'s name and text, whether `f` already \ref's it, and where the result sits relative to
 * `f` (same file, earlier, results in between). Without it: BM25 over its maximum plus the
 * cosine.
 *
 * What depends on the candidates alone (BM25 over their texts and names, their citer profiles)
 * is built over all of them, `f` included, and kept while they stay the same; `f` is left out of
 * each score exactly (bm25.ts, citerProfiles.ts), so moving to another statement's proof reuses
 * it.
 */
function scoreTexts<T extends Candidate>(all: T[], f: FoundStatement, ws: Workspace, si: ServerIndex): T[] {
  const got = si.get();
  const own: number[] = [];
  all.forEach((c, i) => { if (c.doc === f.doc && c.start === f.env.start) own.push(i); });
  const cands = dropAt(all, own);
  if (!got || cands.length === 0) return cands;
  // a score over all the candidates, as one over those without f's own
  const keep = (xs: Float32Array) => (own.length ? Float32Array.from(dropAt(Array.from(xs), own)) : xs);
  const { texts, vecs, cites: allCites, profiles } = rankingMemos(all, ws, si);
  const q = si.query(f.text)!;
  const s = keep(texts.bm.scores(q.ids, own));
  const candVecs = own.length ? dropAt(vecs, own) : vecs;
  const cos = new Float32Array(cands.length);
  let vectors = 0;
  candVecs.forEach((v, i) => {
    if (!v || !q.vec) return;
    vectors++;
    for (let j = 0; j < v.length; j++) cos[i] += v[j] * q.vec[j];
  });
  si.want(cands.slice(0, 200).map((c) => c.text));
  const model = usableRankers(got.index.header.referenceRankers)?.position;
  if (!model) {
    const max = Math.max(...s) || 1;
    cands.forEach((c, i) => { c.score = Math.round((s[i] / max + cos[i]) * 1000) / 1000; });
    return cands;
  }
  const similarity = vectors ? fuseZ(s, cos) : Float32Array.from(s);
  const direct = zScores(similarity);
  // neighbours are the candidates themselves (f is not one), voting with their proofs' \ref's
  const cites = own.length ? withoutCandidates(allCites, own) : allCites;
  const citesOf = (i: number) => cites[i];
  const votes = unitVotes(votesFromSimilarity(similarity, citesOf, cands.length));
  const profile = zScores(keep(profiles.bm25(q.ids, own, own)));
  const centroid = q.vec ? keep(profiles.centroid(q.vec, own)) : new Float32Array(cands.length);
  const cited = timesReferenced(ws);
  const names = texts.names;
  const ownName = statementName(ws, f);
  const byName = ownName ? keep(names.scores(si.tokens(ownName), own)) : undefined;
  const columns = { direct, votes, profile, centroid, ...nameSignals(byName, keep(names.scores(q.ids, own)), citesOf, cands.length) };
  const referred = new Set(refsIn(f.text));
  // a result's order in f's file: its rank among the labelled results found there
  const starts = cands.filter((c) => c.doc === f.doc).map((c) => c.start).sort((x, y) => x - y);
  const order = (x: number) => lowerBound(starts.length, (i) => starts[i] < x);
  const here = { file: f.doc.uri, order: order(f.env.start) };
  cands.forEach((c, i) => {
    const pos = positionFeatures(here, c.doc === f.doc ? { file: f.doc.uri, order: order(c.start) } : undefined);
    c.score = Math.round(referenceScore(model, referenceRow(textSignals(columns, i, cited(c.ref), referred.has(c.ref)), pos)) * 1000) / 1000;
  });
  return cands;
}

/**
 * What the ranking builds over the candidates alone, kept while they stay the same: BM25 over
 * their texts and names, and their citer profiles (the candidates are the citers too: each
 * result's match with who \ref's it). Token ids are cached by text, so a keystroke elsewhere
 * keeps the same arrays, and these.
 */
function rankingMemos(all: readonly Candidate[], ws: Workspace, si: ServerIndex): { texts: CandidateTexts; vecs: Array<Float32Array | undefined>; cites: ReadonlyArray<readonly number[] | undefined>; profiles: CiterProfiles } {
  const tokens = all.map((c) => si.tokens(c.text));
  const nameIds = all.map((c) => si.tokens(c.name));
  const texts = si.memo<CandidateTexts>('ref-candidates', (p) => sameItems(p.tokens, tokens) && sameItems(p.nameIds, nameIds), () => {
    const bm = new Bm25Index();
    for (const t of tokens) bm.add(t);
    const names = new Bm25Index();
    for (const t of nameIds) names.add(t);
    return { tokens, nameIds, bm, names };
  });
  const vecs = all.map((c) => si.vector(c.text));
  const cites = citesIn(all, proofCitations(ws));
  const citers = si.memo<CandidateCiters>('ref-citers', (p) => p.texts === texts && sameCites(p.cites, cites), () => ({
    texts, cites,
    profiles: new CiterProfiles(all.length, citerSourceOf(all.map((_, i) => ({ ids: tokens[i], cites: cites[i] ?? [], vec: vecs[i] })))),
  }));
  // vectors arrive from the encoder after the profiles are built: each is added (a vector the
  // profiles already hold is no change), not rebuilt for
  for (let j = 0; j < vecs.length; j++) citers.profiles.setVector(j, vecs[j]);
  return { texts, vecs, cites: citers.cites, profiles: citers.profiles };
}

/** For each candidate, the candidates its proof \ref's (by index in `list`). */
function citesIn(list: readonly Candidate[], proved: ReadonlyMap<string, readonly string[]>): Array<number[] | undefined> {
  const at = new Map(list.map((c, i) => [c.ref, i]));
  return list.map((c) => proved.get(c.key)?.flatMap((l) => (at.has(l) ? [at.get(l)!] : [])));
}

/** Cites by index with the candidates at the (ascending) indices `own` taken out of the list. */
function withoutCandidates(cites: ReadonlyArray<readonly number[] | undefined>, own: readonly number[]): Array<number[] | undefined> {
  const shift = (i: number) => i - lowerBound(own.length, (k) => own[k] < i);
  return dropAt(cites, own).map((cs) => cs?.filter((i) => !own.includes(i)).map(shift));
}

/** `xs` without the items at the (ascending) indices `at`. */
function dropAt<T>(xs: readonly T[], at: readonly number[]): T[] {
  const out: T[] = [];
  let k = 0;
  for (let i = 0; i < xs.length; i++) {
    if (k < at.length && at[k] === i) { k++; continue; }
    out.push(xs[i]);
  }
  return out;
}

/** BM25 over the \ref candidates' texts and over their names. */
interface CandidateTexts { tokens: readonly number[][]; nameIds: readonly number[][]; bm: Bm25Index; names: Bm25Index }
/** The candidates as citers of each other, by their proofs' \ref's. */
interface CandidateCiters { texts: CandidateTexts; cites: ReadonlyArray<readonly number[] | undefined>; profiles: CiterProfiles }

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameCites(a: ReadonlyArray<readonly number[] | undefined>, b: ReadonlyArray<readonly number[] | undefined>): boolean {
  return a.length === b.length && a.every((x, i) => (x === undefined || b[i] === undefined ? x === b[i] : sameItems(x, b[i]!)));
}

/**
 * Builds, in the background, what the first `\ref{` ranking in `doc` would build on the spot
 * (most of its time on a big chapter): the labelled results visible from it with their token
 * ids, the proofs' citations, the times each label is referenced, and BM25 and citer profiles
 * over the results, and runs one ranking. All are kept per document version (index/workspaceResults.ts) or while the
 * results stay the same (`ServerIndex#memo`), so after an edit only the edited document is
 * redone. It runs in pauses between requests and keystrokes (`ServerIndex#whenIdle`).
 */
export async function warmRefRanking(ws: Workspace, doc: Doc, si: ServerIndex): Promise<void> {
  if (!si.get()) return;
  await si.whenIdle();
  proofCitations(ws);
  timesReferenced(ws);
  await si.whenIdle();
  const all = refCandidates(ws, doc);
  if (all.length * 2 > TOKEN_CACHE_TEXTS) return; // more would only evict what it just filled
  let turn = performance.now();
  for (const c of all) {
    if (performance.now() - turn > SLICE_MS) {
      await si.whenIdle(); // a pause, then a turn through the event loop's poll
      turn = performance.now();
    }
    si.tokens(c.text);
    si.tokens(c.name);
  }
  // the candidates read again after each pause: the document may have been edited meanwhile
  await si.whenIdle();
  rankingMemos(refCandidates(ws, doc), ws, si);
  // and one ranking compiles its scoring loops, so that the user's first is not the one that
  // waits for the JIT (as the index's first search does at load)
  await si.whenIdle();
  const st = statements(ws, doc).find((s) => s.labels.length);
  if (st) scoreTexts(refCandidates(ws, doc), { doc, st, env: st.env, text: bodyText(doc, st.env) }, ws, si);
}

/**
 * Completion ranking hook: inside a proof (or statement), theorem labels are ordered by the
 * relevance of what they label to the statement being proved; others keep their order after.
 */
export function rankRefCompletions(ws: Workspace, doc: Doc, ctx: RefContext, items: CompletionItem[], si: ServerIndex): void {
  const f = enclosingStatement(ws, doc, ctx.start);
  if (!f || !si.get()) return;
  // the items in the shared order of refCandidates (what the memos are built over), then those
  // it does not list: labels of xr external documents, offered once their prefix is typed
  const byKey = new Map<string, { item: CompletionItem; target: NonNullable<ReturnType<typeof labelItemTarget>> }>();
  const key = (d: Doc, start: number) => `${ws.idOf(d)}:${start}`;
  for (const item of items.slice(0, 3000)) {
    const target = labelItemTarget(ws, item);
    if (target) byKey.set(key(target.doc, target.start), { item, target });
  }
  const ranked: Array<Candidate & { item: CompletionItem }> = [];
  for (const c of refCandidates(ws, doc)) {
    const k = key(c.doc, c.label.start);
    const hit = byKey.get(k);
    if (!hit) continue;
    ranked.push({ ...c, item: hit.item });
    byKey.delete(k);
  }
  addExternal(ws, byKey.values(), ranked);
  const scored = scoreTexts(ranked, f, ws, si).sort((a, b) => b.score - a.score);
  scored.forEach((r, i) => {
    r.item.sortText = `0${String(i).padStart(5, '0')}${r.item.label}`;
    r.item.detail = `${r.item.detail ?? ''} · relevance ${r.score.toFixed(2)}`;
  });
  const done = new Set(scored.map((r) => r.item));
  for (const item of items) if (!done.has(item)) item.sortText = `1${item.sortText ?? item.label}`;
}

/** The theorem labels of xr external documents among `rest` (items refCandidates does not list), after the others. */
function addExternal(ws: Workspace, rest: Iterable<{ item: CompletionItem; target: NonNullable<ReturnType<typeof labelItemTarget>> }>, ranked: Array<Candidate & { item: CompletionItem }>): void {
  const perDoc = new Map<Doc, { results: ReturnType<typeof labelledResults>; at: Map<number, DocLabel> }>();
  for (const { item, target: t } of rest) {
    if (!t.prefix) continue; // this project's equations, sections, items: no results
    let d = perDoc.get(t.doc);
    if (!d) perDoc.set(t.doc, (d = { results: labelledResults(ws, t.doc), at: new Map(t.doc.labels().map((l) => [l.start, l])) }));
    const label = d.at.get(t.start);
    const r = label && d.results(label);
    if (label && r) ranked.push({ doc: t.doc, label, ref: t.prefix + label.name, env: r.env, start: r.env.start, name: r.name, text: r.text, key: r.key, score: 0, item });
  }
}
