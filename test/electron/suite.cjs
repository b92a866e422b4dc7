// Runs inside VS Code (extension host) via @vscode/test-electron: activation, document symbols
// and hover through the real extension and server.
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');

async function retry(f, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    try { return await f(); } catch (e) { if (Date.now() > end) throw e; await new Promise((r) => setTimeout(r, 500)); }
  }
}

exports.run = async function run() {
  const folder = vscode.workspace.workspaceFolders[0].uri.fsPath;
  const doc = await vscode.workspace.openTextDocument(path.join(folder, 'chapters', 'results.tex'));
  await vscode.window.showTextDocument(doc);
  const ext = vscode.extensions.getExtension('mathsense.mathsense');
  assert.ok(ext, 'extension installed');
  await ext.activate();
  const symbols = await retry(async () => {
    const s = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', doc.uri);
    assert.ok(s && s.length);
    return s;
  });
  const names = JSON.stringify(symbols.map((s) => [s.name, (s.children ?? []).map((c) => c.name)]));
  assert.match(names, /Theorem \(Squares of triangular numbers\)/);
  const line = doc.lineAt(7).text;
  const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(7, line.indexOf('lem:odd') + 2));
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.match(text, /Sum of odd numbers/);
};
