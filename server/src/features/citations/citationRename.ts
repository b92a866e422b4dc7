// Rename of a citation key, from a `\cite{key}` in a document or from the key of its entry in
// an open .bib file: the entry's key (every entry of the project's bibliographies with that
// key, or the `\bibitem`) and every citation that resolves to the same entry, in every project
// of the workspace that reads it (a shared refs.bib renames the citations of all of them), and
// the `crossref`/`xref`/`xdata`/`related`/`set` fields of entries that name it.
// Refused when the new key is not a valid BibTeX key or already names an entry of a project
// concerned (renaming would merge two entries).
import type { Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { pathToUri } from '../../project/files.js';
import { bibEntryAt, bibKeyRange, bibPathsOf, citationSources, citeAt, citeOccurrences, findCitation, keyFieldMentions, type CiteDefinition } from './citations.js';
import { RenameError } from '../labels/labelNavigation.js';

// BibTeX ends a key at these; biber is stricter still about quotes and parentheses
const BIB_KEY = /^[^\s{}%#,\\"'()=~]+$/;

/** The key under the cursor of a document and its definitions, when it has any. */
function keyInDocument(ws: Workspace, doc: Doc, offset: number): { key: string; range: Range; defs: CiteDefinition[] } | undefined {
  const c = citeAt(doc, offset);
  if (!c || c.key === '*') return undefined;
  const defs = findCitation(citationSources(ws, doc), c.key);
  return defs.length ? { key: c.key, range: doc.range(c.start, c.end), defs } : undefined;
}

export function prepareCiteRename(ws: Workspace, doc: Doc, offset: number): { range: Range; placeholder: string } | undefined {
  const k = keyInDocument(ws, doc, offset);
  return k && { range: k.range, placeholder: k.key };
}

export function prepareBibRename(ws: Workspace, bibPath: string, pos: Position): { range: Range; placeholder: string } | null {
  const e = bibEntryAt(ws, bibPath, pos);
  return e ? { range: bibKeyRange(e), placeholder: e.key } : null;
}

/** The edits renaming a `\cite` key of `doc`; undefined when the cursor is on no defined key. */
export function citeRename(ws: Workspace, doc: Doc, offset: number, newName: string): WorkspaceEdit | undefined {
  const k = keyInDocument(ws, doc, offset);
  return k && renameEdits(ws, k.key, k.defs, newName);
}

/** The edits renaming the entry key under `pos` in the .bib file `bibPath`, or null. */
export function bibRename(ws: Workspace, bibPath: string, pos: Position, newName: string): WorkspaceEdit | null {
  const e = bibEntryAt(ws, bibPath, pos);
  return e ? renameEdits(ws, e.key, [{ kind: 'bib', path: bibPath, entry: e }], newName) : null;
}

function renameEdits(ws: Workspace, key: string, defs: CiteDefinition[], newName: string): WorkspaceEdit {
  if (!BIB_KEY.test(newName)) throw new RenameError(`'${newName}' is not a valid citation key (no spaces, braces, commas, quotes, parentheses, =, ~, % or #)`);
  const cites = citeOccurrences(ws, key, defs);
  if (newName !== key) {
    const clash = existingEntry(ws, defs, cites.map((c) => c.doc), newName);
    if (clash) throw new RenameError(`an entry '${newName}' already exists (${clash}): renaming would merge two entries`);
  }
  const changes: Record<string, TextEdit[]> = {};
  const put = (uri: string, range: Range) => {
    const list = (changes[uri] ??= []);
    // one edit per range: an entry found through two projects is listed once
    if (!list.some((t) => t.range.start.line === range.start.line && t.range.start.character === range.start.character)) list.push({ range, newText: newName });
  };
  for (const d of defs) {
    if (d.kind === 'bib') put(pathToUri(d.path), bibKeyRange(d.entry));
    else put(d.doc.uri, d.doc.range(d.item.start, d.item.end));
  }
  for (const c of cites) put(c.doc.uri, c.doc.range(c.start, c.end));
  // entries that inherit from or point to the renamed one (`crossref = {key}`, `xdata`, `related`, …)
  for (const m of keyFieldMentions(ws, key, bibPathsOf(ws, defs, cites.map((c) => c.doc)))) put(m.uri, m.range);
  return { changes };
}

/** Where `name` is already an entry, as seen from the renamed entry's files and the citing documents: `file:line`, or undefined. */
function existingEntry(ws: Workspace, defs: CiteDefinition[], citing: Doc[], name: string): string | undefined {
  for (const d of defs) {
    const other = d.kind === 'bib' ? ws.bibs.get(d.path)?.file?.byKey.get(name)?.[0] : undefined;
    if (other && d.kind === 'bib') return `${baseName(d.path)}:${other.line + 1}`;
  }
  const seen = new Set<Doc>();
  for (const doc of [...defs.flatMap((d) => (d.kind === 'item' ? [d.doc] : [])), ...citing]) {
    if (seen.has(doc)) continue;
    seen.add(doc);
    const hit = findCitation(citationSources(ws, doc), name)[0];
    if (hit) return hit.kind === 'bib' ? `${baseName(hit.path)}:${hit.entry.line + 1}` : `${baseName(hit.doc.uri)}:${hit.doc.positionAt(hit.item.start).line + 1}`;
  }
  return undefined;
}

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
