// The navigation requests (definition, references, highlights, rename) decide between the two
// kinds of names a place can hold: a citation key (its bibliography entries and citations; in an
// open .bib file, the entry under the cursor) first, else a label and its references.
import type { DocumentHighlight, Location, Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Doc } from '../project/workspace.js';
import { uriBaseName, uriToPath } from '../project/files.js';
import type { FeatureContext } from './context.js';
import { bibReferences, citeDefinition, citeHighlights, citeReferences } from './citations/citations.js';
import { bibRename, citeRename, prepareBibRename, prepareCiteRename } from './citations/citationRename.js';
import { definition, findReferences, labelHighlights, prepareRename, rename, RenameError } from './labels/labelNavigation.js';
import { versioned } from './versionedEdits.js';

export { RenameError };

/** Where the place's document is, and the offset there; undefined for a document the workspace does not hold. */
function place(ctx: FeatureContext, uri: string, position: Position): { doc: Doc; offset: number } | undefined {
  const doc = ctx.ws.get(uri);
  return doc && { doc, offset: doc.offsetAt(position) };
}

export function definitionAt(ctx: FeatureContext, uri: string, position: Position): Location[] {
  const at = place(ctx, uri, position);
  if (!at) return [];
  return ctx.guard('definition (citation)', undefined, () => citeDefinition(ctx.ws, at.doc, at.offset)) ?? definition(ctx.ws, at.doc, at.offset);
}

export function referencesAt(ctx: FeatureContext, uri: string, position: Position, includeDeclaration: boolean): Location[] {
  const bib = ctx.ws.bibs.openPath(uri);
  if (bib) return bibReferences(ctx.ws, bib, position, includeDeclaration);
  const at = place(ctx, uri, position);
  if (!at) return [];
  return ctx.guard('references (citation)', undefined, () => citeReferences(ctx.ws, at.doc, at.offset, includeDeclaration))
    ?? findReferences(ctx.ws, at.doc, at.offset, includeDeclaration);
}

export function highlightsAt(ctx: FeatureContext, uri: string, position: Position): DocumentHighlight[] {
  const at = place(ctx, uri, position);
  if (!at) return [];
  return citeHighlights(at.doc, at.offset) ?? labelHighlights(ctx.ws, at.doc, at.offset);
}

export function prepareRenameAt(ctx: FeatureContext, uri: string, position: Position): { range: Range; placeholder: string } | null {
  const bib = ctx.ws.bibs.openPath(uri);
  if (bib) return prepareBibRename(ctx.ws, bib, position);
  const at = place(ctx, uri, position);
  if (!at) return null;
  return ctx.guard('prepareRename (citation)', undefined, () => prepareCiteRename(ctx.ws, at.doc, at.offset)) ?? prepareRename(ctx.ws, at.doc, at.offset);
}

/**
 * Throws RenameError when the new name cannot be used, or when a file it edits changed on disk
 * and cannot be read again. Edits are made against each file as it is now: a file the editor has
 * not opened is compared with the disk and read again when it changed (a `git pull`, another
 * editor), and the edit is computed again. With a client that takes versioned edits, each file's
 * edit names the version it was computed for (`null` for files not open), so an editor that has
 * moved on refuses it instead of applying it at stale offsets.
 */
export function renameAt(ctx: FeatureContext, uri: string, position: Position, newName: string): WorkspaceEdit | null {
  const compute = (): WorkspaceEdit | null => {
    const bib = ctx.ws.bibs.openPath(uri);
    if (bib) return bibRename(ctx.ws, bib, position, newName);
    const at = place(ctx, uri, position);
    if (!at) return null;
    return citeRename(ctx.ws, at.doc, at.offset, newName) ?? rename(ctx.ws, at.doc, at.offset, newName);
  };
  // each file an edit touches, compared with the disk (a .bib as well as a document)
  const fresh = (u: string): 'same' | 'reloaded' | 'unreadable' => {
    const doc = ctx.ws.get(u);
    if (doc) return ctx.ws.refreshFromDisk(doc);
    const p = uriToPath(u);
    return p && ctx.ws.bibs.has(p) ? ctx.ws.bibs.refreshFromDisk(p) : 'same';
  };
  let edit = compute();
  for (let attempt = 0; edit?.changes && attempt < 2; attempt++) {
    const states = Object.keys(edit.changes).map((u) => ({ u, state: fresh(u) }));
    const unreadable = states.find((x) => x.state === 'unreadable');
    if (unreadable) throw new RenameError(`${uriBaseName(unreadable.u)} changed on disk and cannot be read again: nothing was renamed`);
    if (states.every((x) => x.state === 'same')) return versioned(ctx, edit);
    edit = compute();
  }
  if (edit?.changes) throw new RenameError('files of the project keep changing on disk: nothing was renamed, try again');
  return edit;
}
