// Results from the author's library (index/library/) where the bundled index's are used: beside
// candidate proofs on a statement's hover and in the panel, among results to cite, in the search.
// A library result is a statement of a paper in one of the folders the document's settings name
// (or the user's recorded list), shown with the paper and the statement's own number, and cited
// through INSERT_CITATION_COMMAND. The same relevance model as the index's judges it, so a
// library that holds nothing like the statement says nothing.
import * as path from 'node:path';
import type { Query } from '../../index/store.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import type { FolderHit, ServerLibrary } from '../../index/library/serverLibrary.js';
import type { LibraryEntry } from '../../index/library/papers.js';
import { pathToUri } from '../../project/files.js';
import { INSERT_CITATION_COMMAND, type InsertCitationArgs, type ShowResultsArgs } from '../../ext/protocol.js';
import { entryPlace, resultName } from '../../index/library/citeLibraryResult.js';
import { excerptMd } from './excerpts.js';
import type { Position } from 'vscode-languageserver-types';

/** The library a document reads: the service, and the folders its settings name (absent: every folder served). */
export interface LibraryScope { lib: ServerLibrary; folders?: readonly string[] }

/** One library result: the statement (a proof hit stands for the statement it proves) and its relevance. */
export interface LibraryResult { folder: string; hit: FolderHit; statement: LibraryEntry; relevance?: number; fits: boolean }

/** Library hits read per query, before grouping by statement. */
const LIBRARY_POOL = 12;

/** The query for the library: the index's (tokens and, once embedded, its vector), else tokens alone. */
export function queryOf(si: ServerIndex, scope: LibraryScope, text: string): Query | undefined {
  return si.query(text) ?? scope.lib.lexicalQuery(text);
}

/**
 * The library's results for a statement's text: for candidate proofs (`proof`: statements and
 * proofs, a proof standing for its statement) or results to cite (`cite`: statements and
 * definitions), one per statement, each with its probability of being relevant.
 */
export function libraryResults(si: ServerIndex, scope: LibraryScope | undefined, text: string, task: 'proof' | 'cite', limit: number): LibraryResult[] {
  if (!scope || !scope.lib.has(scope.folders)) return [];
  const q = queryOf(si, scope, text);
  if (!q) return [];
  const kinds = task === 'proof' ? ['statement', 'proof'] as const : ['statement', 'definition'] as const;
  const hits = scope.lib.search(q, { kinds: [...kinds], limit: LIBRARY_POOL, folders: scope.folders }).map((h, id) => ({ ...h, id }));
  // the library's own relevance model (its lists are not the index's)
  const judged = si.withRelevance('library', hits, q);
  const out: LibraryResult[] = [];
  const seen = new Set<string>();
  for (const h of judged) {
    const statement = h.entry.kind === 'proof' ? scope.lib.statementOf(h) : h.entry;
    if (!statement) continue;
    const key = `${h.folder}\0${statement.file}\0${statement.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ folder: h.folder, hit: h, statement, ...(h.relevance !== undefined ? { relevance: h.relevance } : {}), fits: h.fits !== false });
    if (out.length >= limit) break;
  }
  return out;
}

/** The paper as named in a line: its title, else its root file. */
function paperName(r: LibraryResult): string {
  const m = r.hit.paper.meta;
  return `${m.title ?? r.hit.paper.id}${m.arxiv ? ` (arXiv:${m.arxiv})` : ''}`;
}

export function citeArgs(r: LibraryResult, uri: string, position: Position, at: InsertCitationArgs['at']): InsertCitationArgs {
  return { uri, position, at, folder: r.folder, paper: r.hit.paper.id, file: r.statement.file, line: r.statement.line };
}

/** The URI of the file an entry of a library folder is in. */
export const entryUri = (folder: string, e: LibraryEntry) => pathToUri(path.join(folder, e.file));

/** The statement's file and line as a link the editor opens (a PDF's page, for a PDF viewer). */
export function sourceLink(r: LibraryResult): string {
  return `${entryUri(r.folder, r.statement)}#${r.statement.page ? `page=${r.statement.page}` : `L${r.statement.line}`}`;
}

/** A hover line: the result, its paper, where it is, Insert citation; the statement's excerpt. */
export function libraryLine(r: LibraryResult, cite: InsertCitationArgs): string {
  const link = `command:${INSERT_CITATION_COMMAND}?${encodeURIComponent(JSON.stringify([cite]))}`;
  const why = r.relevance !== undefined ? `relevance ${r.relevance.toFixed(2)}` : `score ${r.hit.score.toFixed(2)}`;
  return `**[${resultName(r.statement)}](${sourceLink(r)})** in *${paperName(r)}* · your library · ${why} · [Insert citation](${link} "Cite it in this statement's optional argument")\n\n> ${excerptMd(r.statement.text)}`;
}

/** A results-panel item of a library result, cited at `position` of `uri` when asked. */
export function libraryItem(r: LibraryResult, uri: string, position: Position): ShowResultsArgs['items'][number] {
  return { title: resultName(r.statement), latex: r.statement.text.slice(0, 1500), detail: libraryDetail(r), uri: entryUri(r.folder, r.statement), line: r.statement.line - 1, score: r.relevance ?? r.hit.score, cite: citeArgs(r, uri, position, 'cursor') };
}

/** The detail line of a panel or search item. */
export function libraryDetail(r: LibraryResult): string {
  return `${paperName(r)} · ${entryPlace(r.statement)} · your library${r.statement.numberFrom === 'counted' ? ' · number counted from the source' : ''}`;
}
