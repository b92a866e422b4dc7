// Edits name the version they were made for: a client that takes versioned `documentChanges`
// refuses an edit made for a version of an open document it no longer holds, instead of applying
// it at offsets that moved. Rename and every code action that edits go through here.
import type { CodeAction, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from './context.js';

/** `changes` as versioned `documentChanges` when the client takes them (versions of open files, null for the rest). */
export function versioned(ctx: FeatureContext, edit: WorkspaceEdit): WorkspaceEdit {
  if (!ctx.versionedEdits || !edit.changes) return edit;
  return {
    documentChanges: Object.entries(edit.changes).map(([u, edits]) => {
      const doc = ctx.ws.get(u);
      const bib = ctx.ws.bibs.openPath(u);
      const version = doc && ctx.ws.isOpen(doc) ? doc.version : bib ? ctx.ws.bibs.openVersion(bib) ?? null : null;
      return { textDocument: { uri: u, version }, edits };
    }),
  };
}

/** Code actions with their edits versioned (see `versioned`). */
export function versionedActions(ctx: FeatureContext, actions: CodeAction[]): CodeAction[] {
  return actions.map((a) => (a.edit ? { ...a, edit: versioned(ctx, a.edit) } : a));
}
