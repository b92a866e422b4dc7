// Document sync, watched files, workspace folders and configuration: converted and handed to
// the session, which owns what follows (diagnostics, loading, prefetching).
import { FileChangeType, type Connection } from 'vscode-languageserver/node';
import { uriToPath } from '../../project/files.js';
import type { Session } from '../../session/session.js';

export function registerDocuments(c: Connection, s: Session): void {
  c.onDidOpenTextDocument((p) => s.guard('didOpen', undefined, () => s.opened(p.textDocument.uri, p.textDocument.languageId, p.textDocument.version, p.textDocument.text)));
  c.onDidChangeTextDocument((p) => s.guard('didChange', undefined, () => s.changed(p.textDocument.uri, p.contentChanges, p.textDocument.version)));
  c.onDidCloseTextDocument((p) => s.guard('didClose', undefined, () => s.closed(p.textDocument.uri)));
  c.onDidChangeWatchedFiles((p) => s.guard('watchedFiles', undefined, () => s.filesChanged(p.changes.map((ch) => ({ uri: ch.uri, deleted: ch.type === FileChangeType.Deleted })))));
}

/** Registered after `initialized` (folder events only when the client sends them). */
export function registerWorkspace(c: Connection, s: Session, folderEvents: boolean): void {
  c.onDidChangeConfiguration((p) => s.guardAsync('configuration', undefined, () => s.configurationChanged((p.settings as { mathsense?: unknown } | undefined)?.mathsense)));
  if (!folderEvents) return;
  const paths = (fs: ReadonlyArray<{ uri: string }>) => fs.map((f) => uriToPath(f.uri)).filter((x): x is string => !!x);
  c.workspace.onDidChangeWorkspaceFolders((e) => s.guard('workspaceFolders', undefined, () => s.foldersChanged(paths(e.added), paths(e.removed))));
}
