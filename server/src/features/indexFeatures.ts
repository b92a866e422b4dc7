// Features on the bundled index (server/src/index): candidate proofs on hover over a
// theorem-like environment (workspace proofs first, then indexed ones), term disambiguation on
// hover over a defined or ambiguous term, the "Suggest results to cite" code action, and the
// relevance ranking of `\ref{`/`\cref{` completions inside a proof. Every index entry shown
// carries its source URL and licence (ProofWiki and PlanetMath are CC BY-SA 3.0).
import { CodeActionKind, type CodeAction, type CompletionItem, type Range } from 'vscode-languageserver';
import * as path from 'node:path';
import { Bm25Index } from '../embeddings/bm25.js';
import type { DocEnv } from '../model/documentView.js';
import type { Doc, Workspace } from '../project/workspace.js';
import type { DocLabel } from '../model/documentView.js';
import { uriToPath } from '../project/files.js';
import { labelTarget, proofTarget, statements, statementsAt, type Statement } from '../analysis/structure.js';
import { bodyText, labelledResults, proofCitations, timesReferenced } from '../index/workspaceResults.js';
import { expandProofWikiMacros } from '../index/proofwikiMacros.js';
import { latexToMarkdown, latexToPlain } from '../analysis/render.js';
import { disambiguate, search, suggestCitations, termCandidates, type Result } from '../index/retrieval.js';
import { isPhrase } from '../index/termPhrases.js';
import { clauseAround, namesCompound, readingEvidence, sentenceAround, sentenceReadings, termAt, titleNames, wordStem } from './termAt.js';
import { HOVER_PROOFS, TOKEN_CACHE_TEXTS, type ServerIndex } from '../index/serverIndex.js';
import { nameKey } from '../index/namedResults.js';
import type { LoadedIndex } from '../index/store.js';
import { macroWriter } from '../math/blocks.js';
import type { IndexEntry } from '../index/format.js';
import { labelItemTarget, type RefContext } from './completion.js';
import { positionFeatures, referenceRow, referenceScore, usableRankers } from '../index/referenceRanker.js';
import { refsIn, resultName } from '../index/resultNames.js';
import { unitVotes, votesFromSimilarity } from '../index/citationVotes.js';
import { CiterProfiles, citerSourceOf } from '../index/citerProfiles.js';
import { nameSignals, textSignals } from '../index/referenceSignals.js';
import { fuseZ, zScores } from '../util/zScores.js';
import { lowerBound } from '../util/lowerBound.js';
import { SLICE_MS } from '../util/turns.js';
import { SHOW_CANDIDATE_PROOFS_COMMAND, SHOW_RESULTS_COMMAND, type ShowResultsArgs } from '../ext/protocol.js';

export const CITE_ACTION_TITLE = 'Suggest results to cite';
export const PROOFS_ACTION_TITLE = 'Find candidate proofs';

/** A theorem-like statement and the text it says (body without labels). */
interface Found { doc: Doc; st?: Statement; env: DocEnv; text: string }

/** The innermost theorem-like environment containing `offset` (its `\begin` line included). */
export function statementAt(ws: Workspace, doc: Doc, offset: number): Found | undefined {
  // the innermost
  const best = statementsAt(ws, doc, offset).at(-1);
  return best ? { doc, st: best, env: best.env, text: bodyText(doc, best.env) } : undefined;
}

/** Inside a proof: the statement it proves (or, inside a statement, that statement). */
export function enclosingStatement(ws: Workspace, doc: Doc, offset: number): Found | undefined {
  const envs = doc.envs();
  for (let i = envs.length - 1; i >= 0; i--) {
    const e = envs[i];
    if (e.name !== 'proof' || e.start > offset || offset > e.end) continue;
    const link = proofTarget(ws, doc, i);
    if (link.statement) return { doc: link.statement.doc, env: link.statement.env, text: bodyText(link.statement.doc, link.statement.env) };
  }
  return statementAt(ws, doc, offset);
}

/** The statement's name for the results-to-cite rankers (resultNames.ts: its first label's words and its title), or ''. */
function statementName(ws: Workspace, f: Found): string {
  const own = statementOf(ws, f);
  return resultName(own?.labels[0]?.name, own?.title);
}

/** The statement `f` is (found through a proof, it carries none of its own). */
const statementOf = (ws: Workspace, f: Found): Statement | undefined => f.st ?? statements(ws, f.doc).find((st) => st.env.start === f.env.start);

const where = (d: Doc, offset: number, from: Doc) => {
  const file = uriToPath(d.uri) ?? d.uri;
  const rel = d === from ? path.basename(file) : (uriToPath(from.uri) ? path.relative(path.dirname(uriToPath(from.uri)!), file) : file);
  return `${rel}:${d.positionAt(offset).line + 1}`;
};

function excerptMd(text: string, max = 280): string {
  return latexToMarkdown(text, { maxLength: max }).replace(/\n+/g, ' ');
}

function entryLine(r: Result, src: string): string {
  const why = r.named ? 'the theorem\'s title names it' : `score ${r.score.toFixed(2)}`;
  return `**[${r.entry.title.replace(/[[\]]/g, '')}](${r.entry.url})** · ${why} · ${src}, ${r.entry.licence.split(',')[0]}\n\n> ${excerptMd(expandProofWikiMacros(r.entry.text))}`;
}

/**
 * Workspace proofs of the statement: the proof right after it (adjacency), and proofs elsewhere
 * whose optional argument references one of its labels (`\begin{proof}[Proof of \ref{…}]`).
 * String checks first, so a large project costs little per hover.
 */
function workspaceProofs(ws: Workspace, f: Found): Array<{ doc: Doc; env: DocEnv }> {
  const out: Array<{ doc: Doc; env: DocEnv }> = [];
  const names = (f.st?.labels ?? []).map((l) => l.name);
  const same = (d: Doc, i: number) => {
    const link = proofTarget(ws, d, i);
    return !!link.statement && link.statement.doc === f.doc && link.statement.env.start === f.env.start;
  };
  const envs = f.doc.envs();
  const at = envs.findIndex((e) => e.start === f.env.start);
  for (let i = at + 1; at >= 0 && i < envs.length && i <= at + 50; i++) {
    if (envs[i].name !== 'proof') continue;
    if (same(f.doc, i)) out.push({ doc: f.doc, env: envs[i] });
    break;
  }
  if (names.length === 0) return out;
  for (const d of ws.all()) {
    if (!names.some((n) => d.text.includes(n))) continue;
    d.envs().forEach((e, i) => {
      if (out.length >= 5 || e.name !== 'proof' || !e.opt || out.some((o) => o.env === e)) return;
      const opt = d.latexText.slice(e.opt.start, e.opt.end);
      if (names.some((n) => opt.includes(n)) && same(d, i)) out.push({ doc: d, env: e });
    });
  }
  return out;
}

/** Candidate proofs of a statement: the project's own proofs, then the indexed ones grouped by result. */
interface CandidateProofs { own: Array<{ doc: Doc; env: DocEnv }>; groups: ResultGroup[]; index?: LoadedIndex; semantic: boolean }

function candidateProofsOf(ws: Workspace, f: Found, si: ServerIndex, limit: number): CandidateProofs {
  const got = si.get();
  const c = got && si.candidateProofs(f.text, HOVER_PROOFS, false, statementOf(ws, f)?.title);
  return { own: workspaceProofs(ws, f), groups: got && c ? byResult(got.index, c.results).slice(0, limit) : [], index: got?.index, semantic: !c || c.semantic };
}

const LEXICAL_NOTE = 'lexical match; semantic ranking is being computed';

export function candidateProofsMarkdown(ws: Workspace, doc: Doc, offset: number, si: ServerIndex, limit = 3): string | undefined {
  const f = statementAt(ws, doc, offset);
  if (!f || f.text.length < 10) return undefined;
  const c = candidateProofsOf(ws, f, si, limit);
  const parts = c.own.map((p) => `**Proof in this project** · ${where(p.doc, p.env.start, doc)}\n\n> ${excerptMd(bodyText(p.doc, p.env))}`);
  for (const g of c.groups) parts.push(resultLine(c.index!, g));
  if (parts.length === 0) return undefined;
  return `**Candidate proofs**${c.semantic ? '' : ` *(${LEXICAL_NOTE})*`}\n\n${parts.join('\n\n')}`;
}

/**
 * Candidate proofs asked for (a command or the code action, not a hover): of any theorem-like
 * environment around `offset`, exercises, examples and remarks included, or of the statement
 * a proof proves; the project's own proofs first, then one item per indexed result.
 */
export function proofResults(ws: Workspace, doc: Doc, offset: number, si: ServerIndex, limit = 8): ShowResultsArgs | undefined {
  const f = enclosingStatement(ws, doc, offset);
  if (!f || f.text.length < 10) return undefined;
  const c = candidateProofsOf(ws, f, si, limit);
  // shown by a typesetter that knows none of the project's macros: written out
  const shown = macroWriter(ws);
  const items: ShowResultsArgs['items'] = c.own.map((p) => ({ title: 'Proof in this project', latex: shown(p.doc, bodyText(p.doc, p.env).slice(0, 600)), detail: where(p.doc, p.env.start, doc), uri: p.doc.uri, line: p.doc.positionAt(p.env.start).line, score: 1 }));
  for (const g of c.groups) {
    const best = g.proofs[0];
    const all = proofCount(g);
    items.push({
      title: resultTitle(g),
      latex: expandProofWikiMacros(best.entry.text),
      detail: [c.index!.sourceOf(best.entry).name, best.entry.licence, best.named ? 'the statement\'s title names it' : undefined, all > 1 ? `${all} proofs` : undefined].filter(Boolean).join(' · '),
      url: best.entry.url,
      score: best.score,
    });
  }
  if (items.length === 0) return undefined;
  return { heading: `Candidate proofs for: ${shown(doc, latexToPlain(f.text, 80))}${c.semantic ? '' : ` (${LEXICAL_NOTE})`}`, items };
}

/**
 * "Find candidate proofs" inside any theorem-like environment or proof, where a results panel
 * can show them (VS Code); the proofs are computed when the action runs, not on every cursor
 * move. Not without a loaded index. Other editors ask CANDIDATE_PROOFS_COMMAND.
 */
export function proofCodeActions(ws: Workspace, doc: Doc, range: Range, si: ServerIndex, panel: boolean): CodeAction[] {
  if (!panel || !si.get()) return [];
  const f = enclosingStatement(ws, doc, doc.offsetAt(range.start));
  if (!f || f.text.length < 10) return [];
  const args = { uri: doc.uri, position: range.start };
  return [{ title: PROOFS_ACTION_TITLE, kind: CodeActionKind.Refactor, command: { title: PROOFS_ACTION_TITLE, command: SHOW_CANDIDATE_PROOFS_COMMAND, arguments: [args] } }];
}

/** Candidate proofs of one result: its statement (when the index links it) and its proofs, best first. */
export interface ResultGroup { statement?: IndexEntry; proofs: Result[] }

/**
 * Candidate proofs grouped by the result they prove, in the order of each result's best proof:
 * one entry per result however many of its proofs ranked. Proofs the index does not link to a
 * statement (PlanetMath's "proof of …") join the result their title names.
 */
export function byResult(index: LoadedIndex, results: readonly Result[]): ResultGroup[] {
  const groups = new Map<string, ResultGroup>();
  for (const r of results) {
    const st = r.entry.statement !== undefined ? index.entry(r.entry.statement) : undefined;
    const key = st ? `s${st.id}` : `t${nameKey(r.entry.title)}`;
    const g = groups.get(key);
    if (g) g.proofs.push(r); else groups.set(key, { statement: st, proofs: [r] });
  }
  return [...groups.values()];
}

/** "Proof 2" of "X (Proof 2)": where a proof sits on its page. */
const proofNumber = (title: string) => /\(Proof (\d+)\)\s*$/.exec(title)?.[1];

/** A result's title: its statement's, else its best proof's without "(Proof 2)". */
const resultTitle = (g: ResultGroup) => (g.statement?.title ?? g.proofs[0].entry.title.replace(/\s*\(Proof \d+\)\s*$/, '')).replace(/[[\]]/g, '');
/** How many proofs the result has in the index (those ranked when the index links none). */
const proofCount = (g: ResultGroup) => g.statement?.proofs?.length ?? g.proofs.length;

/** One result of the candidate proofs: its title and page, how many proofs it has (each linked), the best one's excerpt. */
function resultLine(index: LoadedIndex, g: ResultGroup): string {
  const best = g.proofs[0];
  const title = resultTitle(g);
  const url = g.statement?.url ?? best.entry.url;
  const why = best.named ? 'the theorem\'s title names it' : `score ${best.score.toFixed(2)}`;
  const all = proofCount(g);
  const numbered = g.proofs.map((p) => proofNumber(p.entry.title)).filter((n): n is string => !!n);
  const which = all > 1
    ? ` · ${all} proofs${numbered.length ? ` (closest: ${numbered.map((n) => `[Proof ${n}](${best.entry.url}#Proof_${n})`).join(', ')})` : ''}`
    : '';
  return `**[${title}](${url})** · ${why} · ${index.sourceOf(best.entry).name}, ${best.entry.licence.split(',')[0]}${which}\n\n> ${excerptMd(expandProofWikiMacros(best.entry.text))}`;
}

/** The context a term is read in: the enclosing theorem-like environment, else its paragraph. */
function contextAround(ws: Workspace, doc: Doc, offset: number): string {
  const f = statementAt(ws, doc, offset);
  if (f) return f.text.slice(0, 2000);
  const t = doc.text;
  let a = t.lastIndexOf('\n\n', offset);
  let b = t.indexOf('\n\n', offset);
  if (a < 0 || offset - a > 1500) a = Math.max(0, offset - 1000);
  if (b < 0 || b - offset > 1500) b = Math.min(t.length, offset + 1000);
  return t.slice(a, b).trim();
}

/** Words of a text, plurals aside, for telling whether a context says them. */
const contextWords = (text: string) => text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2).map(wordStem);

/**
 * The least probability the term ranker must give a reading of an unmarked term for the hover
 * to show it, read off the hand-judged term hovers of latex-wild (test/real-world/
 * hover-judgements.json): below it the ranker's stated probability is right far less often
 * than it says (about two readings in three however sure it claims to be).
 */
export const TERM_CONFIDENCE = 0.97;
/** The same for a term the author marked (`\emph{…}`): the mark says it is a term, not which one. */
export const MARKED_TERM_CONFIDENCE = 0.6;


/**
 * Which indexed definition a term under the cursor means here, or nothing: a term only in prose
 * and as a whole phrase (termAt.ts); readings restricted to those naming the phrase around it;
 * shown only when the best reading is likely enough (TERM_CONFIDENCE), so an everyday word or
 * a context that says nothing about the term gets no hover.
 */
export function disambiguationMarkdown(ws: Workspace, doc: Doc, offset: number, si: ServerIndex): { md: string; range: Range } | undefined {
  const got = si.get();
  if (!got) return undefined;
  const index = got.index;
  const hit = termAt(doc, offset, {
    isTerm: (t) => termCandidates(index, t).length > 0,
    isPhrase: (a, b) => isPhrase(index, a, b),
    titles: (t) => termCandidates(index, t).map((id) => index.peek(id).title),
  });
  if (!hit) return undefined;
  const context = contextAround(ws, doc, offset);
  const q = si.query(context);
  if (!q) return undefined;
  // which sense a context means is read from its meaning: until the context's vector has come
  // (asked for just now, ahead of the queue) the words alone say too little, so nothing yet
  if (!q.vec && si.expectsVectors) return undefined;
  let ranked = disambiguate(index, got.tok, hit.term, q);
  let heading = `**Which “${hit.term}”?**`;
  const phraseText = doc.text.slice(hit.phraseStart, hit.phraseEnd).replace(/\s+/g, ' ');
  if (hit.phrase.length) {
    // "measure space": only the readings that name the phrase (their domain is checked below)
    ranked = ranked.filter((r) => titleNames(r.entry.title, hit.phrase));
    const sum = ranked.reduce((x, r) => x + (r.probability ?? 0), 0);
    if (sum > 0) ranked = ranked.map((r) => ({ ...r, probability: (r.probability ?? 0) / sum }));
    heading = `**Which “${phraseText}”?**`;
  }
  // the term alone: not a reading whose title makes it a modifier of another noun ("the mean"
  // is no "Mean Deviation"); the others keep their probability, so the threshold still says how sure
  else ranked = ranked.filter((r) => !namesCompound(hit.term, r.entry.title) && (hit.marked || readingEvidence(r.entry.title, hit.term, context, 'some')));
  // the reading the ranker prefers must fit every object its title names and the sentence's own
  // objects ("closed subset" in a topology text is no "Multiplicatively Closed Subset of Ring";
  // "the Sylow 5-subgroup is normal" no "Normal Number"); where it does not, nothing: another
  // reading the ranker liked less is not promoted on that evidence
  if (ranked.length) {
    const fits = sentenceReadings(ranked.filter((r) => hit.marked || readingEvidence(r.entry.title, phraseText, context)).map((r) => ({ ...r, title: r.entry.title })), phraseText, clauseAround(doc.text, offset), sentenceAround(doc.text, offset));
    if (!fits.some((r) => r.id === ranked[0].id)) return undefined;
    ranked = fits;
  }
  if (ranked.length === 0) {
    // a term marked as defined here (\emph in a definition) with no disambiguation group:
    // the indexed definitions whose title names it
    if (!hit.marked || hit.phrase.length || !statementAt(ws, doc, offset)) return undefined;
    const tq = si.query(`${hit.term}: ${context}`)!;
    // a title that names more than the term names it only where the context says the rest
    // ("finite" in a definition of finite sets is no "finite morphism")
    const said = new Set(contextWords(context));
    const termWords = contextWords(hit.term);
    const namesOnlyTerm = (title: string) => contextWords(title).every((w) => said.has(w) || termWords.includes(w));
    // by its words: "uncountable" does not name "countable"
    ranked = search(index, tq, 'definition', { limit: 30, sources: got.sources }).filter((r) => titleNames(r.entry.title, termWords) && namesOnlyTerm(r.entry.title.replace(/^Definition:/, ''))).slice(0, 4);
    if (ranked.length === 0) return undefined;
    heading = `**Definitions of “${hit.term}” elsewhere**`;
  } else {
    const p = ranked[0].probability;
    // without the ranker's probability (no term ranker in the index) nothing says how sure: silent
    if (p === undefined || p < (hit.marked ? MARKED_TERM_CONFIDENCE : TERM_CONFIDENCE)) return undefined;
  }
  const [best, ...rest] = ranked.slice(0, 6);
  const sure = best.probability !== undefined ? ` (${Math.round(best.probability * 100)}%)` : '';
  const lines = [
    heading, '',
    `Best match for this context${sure}: ${entryLine(best, index.sourceOf(best.entry).name)}`,
  ];
  if (rest.length) {
    lines.push('', 'Alternatives:', '');
    for (const r of rest) lines.push(`* [${r.entry.title}](${r.entry.url})${r.probability !== undefined ? ` · ${Math.round(r.probability * 100)}%` : ''}`);
  }
  if (!q.vec) lines.push('', '*(lexical match only: no encoder for this index)*');
  return { md: lines.join('\n'), range: doc.range(hit.phraseStart, hit.phraseEnd) };
}

/**
 * Results to cite for the statement at `offset` (inside it or its proof): workspace results
 * (position ranker) and indexed ones (text ranker, titles as names), or undefined outside a
 * statement or without an index.
 */
export function citeResults(ws: Workspace, doc: Doc, offset: number, si: ServerIndex): ShowResultsArgs | undefined {
  const f = enclosingStatement(ws, doc, offset);
  const got = si.get();
  if (!f || !got || f.text.length < 10) return undefined;
  const q = si.query(f.text);
  if (!q) return undefined;
  const items: ShowResultsArgs['items'] = [];
  const shown = macroWriter(ws);
  for (const w of rankWorkspaceStatements(ws, doc, f, si).slice(0, 5)) {
    const t = labelTarget(ws, w.doc, w.label);
    items.push({ title: shown(w.doc, `${t.displayName}${t.title ? ` (${t.title})` : ''}`), latex: shown(w.doc, w.text.slice(0, 600)), detail: `${where(w.doc, w.env.start, doc)} · \\ref{${w.ref}}`, uri: w.doc.uri, line: w.doc.positionAt(w.env.start).line, label: w.ref, score: w.score });
  }
  // the statement's name (label words, title) against the indexed statements' titles
  const names = { tok: got.tok, name: statementName(ws, f) || undefined };
  for (const r of suggestCitations(got.index, q, { limit: 8, sources: got.sources, names })) {
    const src = got.index.sourceOf(r.entry);
    items.push({ title: r.entry.title, latex: expandProofWikiMacros(r.entry.text), detail: `${src.name} · ${r.entry.licence} · ${r.entry.url}`, url: r.entry.url, score: r.score });
  }
  return items.length ? { heading: `Results to cite for: ${shown(doc, latexToPlain(f.text, 80))}`, items } : undefined;
}

/**
 * "Suggest results to cite" inside a statement or its proof. With a results panel (the VS Code
 * client says so at initialize) one action opens every result there; any other editor gets an
 * action per workspace result that inserts its `\ref` at the cursor (indexed results have no
 * label to insert: `mathsense.suggestCitations` returns them all).
 */
export function citeCodeActions(ws: Workspace, doc: Doc, range: Range, si: ServerIndex, panel: boolean): CodeAction[] {
  const args = citeResults(ws, doc, doc.offsetAt(range.start), si);
  if (!args) return [];
  if (panel) return [{ title: CITE_ACTION_TITLE, kind: CodeActionKind.Refactor, command: { title: CITE_ACTION_TITLE, command: SHOW_RESULTS_COMMAND, arguments: [args] } }];
  return args.items.flatMap((i) => (i.label ? [{
    title: `Cite \\ref{${i.label}}: ${latexToPlain(i.title, 60)}`,
    kind: CodeActionKind.Refactor,
    edit: { changes: { [doc.uri]: [{ range: { start: range.end, end: range.end }, newText: `\\ref{${i.label}}` }] } },
  }] : []));
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
function rankWorkspaceStatements(ws: Workspace, from: Doc, f: Found, si: ServerIndex): Candidate[] {
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
function scoreTexts<T extends Candidate>(all: T[], f: Found, ws: Workspace, si: ServerIndex): T[] {
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
