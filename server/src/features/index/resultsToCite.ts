// Results to cite for the statement at the cursor (inside it or its proof): the workspace's own
// labelled results, ranked as the \ref{ completion ranks them, and indexed results; in the
// results panel, or as code actions that insert a \ref.
import { CodeActionKind, type CodeAction, type Range } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { enclosingStatement, labelTarget } from '../../analysis/structure.js';
import { expandProofWikiMacros } from '../../syntax/proofwikiMacros.js';
import { latexToPlain } from '../../analysis/render.js';
import { suggestCitations } from '../../index/retrieval.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import { macroWriter } from '../../math/blocks.js';
import { where } from './excerpts.js';
import { rankWorkspaceStatements, statementName } from './refRanking.js';
import { SHOW_RESULTS_TO_CITE_COMMAND, type ShowResultsArgs } from '../../ext/protocol.js';
import { shownSuggestion, statementPlaceAction } from './candidateProofs.js';
import { libraryItem, libraryResults, type LibraryScope } from './libraryResults.js';


export const CITE_ACTION_TITLE = 'Suggest results to cite';

/**
 * Results to cite for the statement at `offset` (inside it or its proof): workspace results
 * (position ranker) and indexed ones (text ranker, titles as names), or undefined outside a
 * statement or without an index.
 */
export function citeResults(ws: Workspace, doc: Doc, offset: number, si: ServerIndex, library?: LibraryScope): ShowResultsArgs | undefined {
  const f = enclosingStatement(ws, doc, offset);
  const got = si.get();
  if (!f || f.text.length < 10 || (!got && !library?.lib.has(library.folders))) return undefined;
  const q = si.query(f.text);
  const items: ShowResultsArgs['items'] = [];
  const shown = macroWriter(ws);
  for (const w of rankWorkspaceStatements(ws, doc, f, si).slice(0, 5)) {
    const t = labelTarget(ws, w.doc, w.label);
    items.push({ title: shown(w.doc, `${t.displayName}${t.title ? ` (${t.title})` : ''}`), latex: shown(w.doc, w.text.slice(0, 600)), detail: `${where(w.doc, w.env.start, doc)} · \\ref{${w.ref}}`, uri: w.doc.uri, line: w.doc.positionAt(w.env.start).line, label: w.ref, score: w.score });
  }
  // the statement's name (label words, title) against the indexed statements' titles
  let withheld = 0;
  // the index's and the library's, ranked together by their probability of being relevant
  const suggested: Array<{ item: ShowResultsArgs['items'][number]; p?: number }> = [];
  if (got && q) {
    const names = { tok: got.tok, name: statementName(ws, f) || undefined };
    for (const r of si.withRelevance('cite', suggestCitations(got.index, q, { limit: 8, sources: got.sources, names }), q)) {
      if (!shownSuggestion(r)) { withheld++; continue; }
      const src = got.index.sourceOf(r.entry);
      suggested.push({ item: { title: r.entry.title, latex: expandProofWikiMacros(r.entry.text), detail: `${src.name} · ${r.entry.licence} · ${r.entry.url}`, url: r.entry.url, score: r.score }, p: r.named ? 1 : r.relevance });
    }
  }
  for (const r of libraryResults(si, library, f.text, 'cite', 8)) {
    if (!r.fits) { withheld++; continue; }
    suggested.push({ item: libraryItem(r, doc.uri, doc.positionAt(offset)), p: r.relevance });
  }
  if (suggested.every((x) => x.p !== undefined)) suggested.sort((a, b) => b.p! - a.p!);
  items.push(...suggested.map((x) => x.item));
  return items.length || withheld ? { heading: `Results to cite for: ${shown(doc, latexToPlain(f.text, 80))}`, items, ...(withheld ? { withheld } : {}) } : undefined;
}

/**
 * "Suggest results to cite" inside a statement or its proof. With a results panel (the VS Code
 * client says so at initialize) one action opens them there, ranked when it is chosen. Any
 * other editor gets an action per workspace result that inserts its `\ref` at the cursor
 * (indexed results have no label to insert: `mathsense.suggestCitations` returns them all).
 */
export function citeCodeActions(ws: Workspace, doc: Doc, range: Range, si: ServerIndex, panel: boolean): CodeAction[] {
  if (panel) return statementPlaceAction(ws, doc, range, si, CITE_ACTION_TITLE, SHOW_RESULTS_TO_CITE_COMMAND);
  const args = citeResults(ws, doc, doc.offsetAt(range.start), si);
  if (!args) return [];
  return args.items.flatMap((i) => (i.label ? [{
    title: `Cite \\ref{${i.label}}: ${latexToPlain(i.title, 60)}`,
    kind: CodeActionKind.Refactor,
    edit: { changes: { [doc.uri]: [{ range: { start: range.end, end: range.end }, newText: `\\ref{${i.label}}` }] } },
  }] : []));
}
