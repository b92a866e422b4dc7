// Candidate proofs of a statement: the project's own proofs (the one right after it, proofs
// elsewhere that name it), then the indexed ones grouped by the result they prove; on hover over
// a theorem's head, in the results panel, and as the "Find candidate proofs" code action.
import { CodeActionKind, type CodeAction, type Range } from 'vscode-languageserver-types';
import type { DocEnv } from '../../model/documentView.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import { bodyText, enclosingStatement, proofTarget, statementAt, statementOf, withoutLabels, type FoundStatement } from '../../analysis/structure.js';
import { expandProofWikiMacros } from '../../syntax/proofwikiMacros.js';
import { latexToPlain } from '../../analysis/render.js';
import type { Result } from '../../index/retrieval.js';
import { HOVER_PROOFS, type ServerIndex } from '../../index/serverIndex.js';
import { nameKey } from '../../index/namedResults.js';
import type { LoadedIndex } from '../../index/store.js';
import { macroWriter } from '../../math/blocks.js';
import { refsWrittenOut } from '../../project/userMacros.js';
import type { IndexEntry } from '../../index/format.js';
import { excerptMd, where } from './excerpts.js';
import { SHOW_CANDIDATE_PROOFS_COMMAND, type PlaceArgs, type ShowResultsArgs } from '../../ext/protocol.js';
import { citeArgs, libraryItem, libraryLine, libraryResults, type LibraryResult, type LibraryScope } from './libraryResults.js';


export const PROOFS_ACTION_TITLE = 'Find candidate proofs';

/**
 * Workspace proofs of the statement: the proof right after it (adjacency), and proofs elsewhere
 * whose optional argument references one of its labels (`\begin{proof}[Proof of \ref{…}]`).
 * String checks first, so a large project costs little per hover.
 */
function workspaceProofs(ws: Workspace, f: FoundStatement): Array<{ doc: Doc; env: DocEnv }> {
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

/**
 * Candidate proofs of a statement: the project's own proofs, then the indexed ones grouped by
 * result; `withheld`: indexed results ranked but not shown, as unlikely to be relevant.
 */
interface CandidateProofs { own: Array<{ doc: Doc; env: DocEnv }>; ranked: Suggestion[]; index?: LoadedIndex; semantic: boolean; withheld: number }

/** An index result or a library statement, ranked together by their probability of being relevant. */
type Suggestion = { group: ResultGroup; library?: undefined; p?: number } | { library: LibraryResult; group?: undefined; p?: number };

/**
 * Whether an indexed candidate is shown: when the relevance model judges it likely relevant
 * (index/relevance.ts; without a model every ranked one is), or when the statement's title
 * names its result (a name is trusted only where the result is near the statement's text).
 */
export const shownSuggestion = (r: Result): boolean => r.named === true || r.fits !== false;

function candidateProofsOf(ws: Workspace, f: FoundStatement, si: ServerIndex, limit: number, library?: LibraryScope): CandidateProofs {
  const got = si.get();
  const c = got && si.candidateProofs(f.text, HOVER_PROOFS, false, statementOf(ws, f)?.title);
  // the first `limit` results, those the relevance model doubts taken out (never replaced by later ones)
  const ranked = got && c ? byResult(got.index, c.results).slice(0, limit) : [];
  const groups = ranked.filter((g) => g.proofs.some(shownSuggestion));
  const lib = libraryResults(si, library, f.text, 'proof', limit);
  const shownLib = lib.filter((r) => r.fits);
  const withheld = ranked.length - groups.length + lib.length - shownLib.length;
  return { own: workspaceProofs(ws, f), ranked: rankTogether(groups, shownLib).slice(0, limit), index: got?.index, semantic: !c || c.semantic, withheld };
}

/**
 * Index results and library statements in one list: results the statement's title names first,
 * then by probability of being relevant; without a relevance model (no probabilities), the
 * index's first, each list in its own order.
 */
function rankTogether(groups: ResultGroup[], lib: LibraryResult[]): Suggestion[] {
  const best = (g: ResultGroup) => g.proofs.find(shownSuggestion) ?? g.proofs[0];
  const all: Suggestion[] = [...groups.map((group) => ({ group, p: best(group).relevance })), ...lib.map((library) => ({ library, p: library.relevance }))];
  if (all.some((x) => x.p === undefined)) return all;
  const named = (x: Suggestion) => (x.group && best(x.group).named ? 1 : 0);
  return all.map((x, i) => ({ x, i })).sort((a, b) => named(b.x) - named(a.x) || b.x.p! - a.x.p! || a.i - b.i).map((o) => o.x);
}

const LEXICAL_NOTE = 'lexical match; semantic ranking is being computed';

export function candidateProofsMarkdown(ws: Workspace, doc: Doc, offset: number, si: ServerIndex, limit = 3, library?: LibraryScope): string | undefined {
  const f = statementAt(ws, doc, offset);
  if (!f || f.text.length < 10) return undefined;
  const c = candidateProofsOf(ws, f, si, limit, library);
  // the project's reference macros written as the references they make (`\olref[a][b]{x}` is no "[a][b]x")
  const written = (p: { doc: Doc; env: DocEnv }) => withoutLabels(refsWrittenOut(ws, p.doc, p.env.bodyStart, p.env.bodyEnd));
  const parts = c.own.map((p) => `**Proof in this project** · ${where(p.doc, p.env.start, doc)}\n\n> ${excerptMd(written(p))}`);
  for (const x of c.ranked) parts.push(x.group ? resultLine(c.index!, x.group) : libraryLine(x.library, citeArgs(x.library, doc.uri, doc.positionAt(f.env.start), 'statement')));
  if (parts.length === 0) return undefined;
  return `**Candidate proofs**${c.semantic ? '' : ` *(${LEXICAL_NOTE})*`}\n\n${parts.join('\n\n')}`;
}

/**
 * Candidate proofs asked for (a command or the code action, not a hover): of any theorem-like
 * environment around `offset`, exercises, examples and remarks included, or of the statement
 * a proof proves; the project's own proofs first, then one item per indexed result.
 */
export function proofResults(ws: Workspace, doc: Doc, offset: number, si: ServerIndex, limit = 8, library?: LibraryScope): ShowResultsArgs | undefined {
  const f = enclosingStatement(ws, doc, offset);
  if (!f || f.text.length < 10) return undefined;
  const c = candidateProofsOf(ws, f, si, limit, library);
  // shown by a typesetter that knows none of the project's macros: written out
  const shown = macroWriter(ws);
  const items: ShowResultsArgs['items'] = c.own.map((p) => ({ title: 'Proof in this project', latex: shown(p.doc, bodyText(p.doc, p.env).slice(0, 600)), detail: where(p.doc, p.env.start, doc), uri: p.doc.uri, line: p.doc.positionAt(p.env.start).line, score: 1 }));
  for (const x of c.ranked) {
    if (x.library) {
      items.push(libraryItem(x.library, doc.uri, doc.positionAt(offset)));
      continue;
    }
    const g = x.group;
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
  if (items.length === 0 && c.withheld === 0) return undefined;
  return { heading: `Candidate proofs for: ${shown(doc, latexToPlain(f.text, 80))}${c.semantic ? '' : ` (${LEXICAL_NOTE})`}`, items, ...(c.withheld ? { withheld: c.withheld } : {}) };
}

/**
 * "Find candidate proofs" inside any theorem-like environment or proof, where a results panel
 * can show them (VS Code). Other editors ask CANDIDATE_PROOFS_COMMAND.
 */
export function proofCodeActions(ws: Workspace, doc: Doc, range: Range, si: ServerIndex, panel: boolean): CodeAction[] {
  return panel ? statementPlaceAction(ws, doc, range, si, PROOFS_ACTION_TITLE, SHOW_CANDIDATE_PROOFS_COMMAND) : [];
}

/**
 * One action in the statement (or proof) at `range` that runs the client's `command` with its
 * place: what it shows is ranked when it is chosen, not at every move of the cursor (an editor
 * asks for code actions at each). None outside a statement or without a loaded index.
 */
export function statementPlaceAction(ws: Workspace, doc: Doc, range: Range, si: ServerIndex, title: string, command: string): CodeAction[] {
  if (!si.get()) return [];
  const f = enclosingStatement(ws, doc, doc.offsetAt(range.start));
  if (!f || f.text.length < 10) return [];
  const place: PlaceArgs = { uri: doc.uri, position: range.start };
  return [{ title, kind: CodeActionKind.Refactor, command: { title, command, arguments: [place] } }];
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
