// "Insert citation" of a library result: `\cite[Theorem~3.2]{key}`, where `key` is the entry of
// the project's bibliography that is the paper (index/library/citeLibraryResult.ts). From a hover
// on a statement it goes into the statement's optional argument (braced, so the brackets of
// `\cite[…]` do not end it); from a panel or search, at the cursor. When no entry is the paper, a
// BibTeX entry made from its metadata is appended to the project's first .bib file, or, without
// one, returned for the author to add. Only ever run as the author's explicit action.
import * as fs from 'node:fs';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Workspace } from '../../project/workspace.js';
import { pathToUri } from '../../project/files.js';
import type { ServerLibrary } from '../../index/library/serverLibrary.js';
import { bibtexFor, citation, matchingBibEntry, newKey } from '../../index/library/citeLibraryResult.js';
import { enclosingStatement } from '../../analysis/structure.js';
import type { InsertCitationArgs, InsertCitationResponse } from '../../ext/protocol.js';
import { citationSources } from './citations.js';

/** `{uri, position, at, folder, paper, file, line}` as sent, or why not. */
export function parseInsertCitationArgs(args: readonly unknown[] | undefined): InsertCitationArgs | { error: string } {
  const a = (args?.[0] ?? {}) as Partial<InsertCitationArgs>;
  const pos = a.position as { line?: unknown; character?: unknown } | undefined;
  if (typeof a.uri !== 'string' || !pos || !Number.isInteger(pos.line) || !Number.isInteger(pos.character)) return { error: 'expected {uri, position, at, folder, paper, file, line}' };
  if (typeof a.folder !== 'string' || typeof a.paper !== 'string' || typeof a.file !== 'string' || !Number.isInteger(a.line)) return { error: 'expected the library result: {folder, paper, file, line}' };
  return { uri: a.uri, position: { line: pos.line as number, character: pos.character as number }, at: a.at === 'statement' ? 'statement' : 'cursor', folder: a.folder, paper: a.paper, file: a.file, line: a.line! };
}

/** Where text ends: the position after its last character. */
function endOf(text: string): { line: number; character: number } {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

/** The edit that cites the library result, and what it does; no edit when the result or the document is gone. */
export function citationEdit(ws: Workspace, lib: ServerLibrary, a: InsertCitationArgs): { edit?: WorkspaceEdit; response: InsertCitationResponse } {
  const doc = ws.get(a.uri);
  if (!doc) return { response: { applied: false, message: `${a.uri} is not open` } };
  const found = lib.entryAt(a.folder, a.paper, a.file, a.line);
  if (!found) return { response: { applied: false, message: 'the library result is no longer in the library (indexed again since?): search again' } };
  const src = citationSources(ws, doc);
  const entries = src.files.flatMap((f) => f.file.entries);
  const match = matchingBibEntry(found.paper.meta, entries);
  const key = match?.entry.key ?? newKey(found.paper.meta, new Set(entries.map((e) => e.key)));
  const cite = citation(found.entry, key);
  const changes: Record<string, TextEdit[]> = {};
  const offset = doc.offsetAt(a.position);
  const st = a.at === 'statement' ? enclosingStatement(ws, doc, offset) : undefined;
  if (st && st.doc === doc) {
    // inside an existing optional argument after its text, else a new one after `\begin{name}`
    const env = st.env;
    changes[doc.uri] = env.opt
      ? [{ range: doc.range(env.opt.end, env.opt.end), newText: `~{${cite}}` }]
      : [{ range: doc.range(env.bodyStart, env.bodyStart), newText: `[{${cite}}]` }];
  } else {
    changes[doc.uri] = [{ range: { start: a.position, end: a.position }, newText: cite }];
  }
  const response: InsertCitationResponse = { applied: false, citation: cite };
  if (!match) {
    const bibtex = bibtexFor(found.paper.meta, key);
    response.bibtex = bibtex;
    const bib = src.files[0]?.path;
    let text: string | undefined;
    try { text = bib ? fs.readFileSync(bib, 'utf8') : undefined; } catch { text = undefined; }
    if (bib && text !== undefined) {
      const end = endOf(text);
      changes[pathToUri(bib)] = [{ range: { start: end, end }, newText: `${text.endsWith('\n') || text === '' ? '' : '\n'}\n${bibtex}` }];
      response.bibFile = bib;
      response.message = `added @misc{${key}} to ${bib} from the paper's own metadata`;
    } else {
      response.message = `no bibliography file in this project: add this entry for ${key}`;
    }
  }
  return { edit: { changes }, response };
}
