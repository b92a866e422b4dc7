// Opening a result's place: a text document at the range, selected; a PDF of the author's
// library with whatever views PDFs (a PDF extension), since it cannot be opened as text.
import * as vscode from 'vscode';

export async function openPlace(uri: vscode.Uri, range: vscode.Range, viewColumn?: vscode.ViewColumn): Promise<void> {
  if (/\.pdf$/i.test(uri.path)) { await vscode.commands.executeCommand('vscode.open', uri, viewColumn); return; }
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { ...(viewColumn ? { viewColumn } : {}), selection: range });
}
