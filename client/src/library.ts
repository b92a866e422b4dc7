// The author's library in VS Code: "Insert citation" of a library result (from the results panel,
// the search, or a hover's link, which runs the server command directly), and the palette
// commands that add a folder of papers to the library or index it again. Indexing shows the
// server's `$/progress`; what was done is told in a message.
import * as vscode from 'vscode';
import type { ServerStatus } from './status.js';
import {
  INSERT_CITATION_COMMAND, LIBRARY_ADD_COMMAND, LIBRARY_INDEX_COMMAND,
  type InsertCitationArgs, type InsertCitationResponse, type LibraryIndexResponse,
} from 'mathsense-server/protocol';

/** Cites a library result at `place` (the server makes and applies the edit) and says what it did. */
export async function insertCitation(args: InsertCitationArgs): Promise<void> {
  const r = await vscode.commands.executeCommand<InsertCitationResponse | null>(INSERT_CITATION_COMMAND, args);
  if (!r) return;
  if (!r.applied && r.message && !r.citation) { void vscode.window.showWarningMessage(`MathSense: ${r.message}`); return; }
  if (r.bibtex && !r.bibFile) {
    const pick = await vscode.window.showInformationMessage(`MathSense: inserted ${r.citation}; ${r.message}`, 'Copy BibTeX');
    if (pick) await vscode.env.clipboard.writeText(r.bibtex);
  } else if (r.message) {
    void vscode.window.setStatusBarMessage(`MathSense: ${r.message}`, 5000);
  }
}

/** Where a result list was asked for: the active editor's cursor. */
export function cursorPlace(): { uri: string; position: { line: number; character: number } } | undefined {
  const e = vscode.window.activeTextEditor;
  return e ? { uri: e.document.uri.toString(), position: { line: e.selection.active.line, character: e.selection.active.character } } : undefined;
}

function indexedMessage(r: LibraryIndexResponse): string {
  if (r.message && r.papers === undefined) return `${r.folder}: ${r.message}`;
  return `library ${r.folder}: ${r.papers} papers, ${r.entries} statements, definitions, proofs and equations (${r.added} added, ${r.changed} changed, ${r.removed} removed, ${r.kept} unchanged) in ${r.seconds} s`;
}

/** "Add Folder to Library…": pick a folder of papers (LaTeX sources), record it, index it. */
export async function addLibraryFolder(): Promise<void> {
  const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Add to library' });
  const folder = picked?.[0]?.fsPath;
  if (!folder) return;
  const r = await vscode.commands.executeCommand<LibraryIndexResponse>(LIBRARY_ADD_COMMAND, { folder });
  if (r) void vscode.window.showInformationMessage(`MathSense: ${indexedMessage(r)}`);
}

/** "Index Library Again": every folder the server serves (only new and changed papers are read). */
export async function reindexLibrary(status: () => Promise<ServerStatus | undefined>): Promise<void> {
  const folders = (await status())?.library?.map((l) => l.folder) ?? [];
  if (folders.length === 0) { void vscode.window.showInformationMessage('MathSense: no library folders (set mathsense.library, or run "Add Folder to Library…")'); return; }
  for (const folder of folders) {
    const r = await vscode.commands.executeCommand<LibraryIndexResponse>(LIBRARY_INDEX_COMMAND, { folder });
    if (r) void vscode.window.showInformationMessage(`MathSense: ${indexedMessage(r)}`);
  }
}
