// Typo fixes over real stdio: an undefined \ref gets "Change to '…'" quick fixes, first in the
// list, the nearest label preferred, with the diagnostic the client sent.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest, InitializedNotification,
  DidOpenTextDocumentNotification, PublishDiagnosticsNotification, CodeActionRequest, ShutdownRequest, ExitNotification,
  type PublishDiagnosticsParams, type CodeAction,
} from 'vscode-languageserver-protocol/node';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

test('typo fixes over stdio: an undefined \\ref offers the nearest labels', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-typo-'));
  const text = '\\documentclass{article}\n\\begin{document}\n\\begin{theorem}\\label{thm:main} A. \\end{theorem}\nBy \\ref{thm:mian}.\n\\end{document}\n';
  fs.writeFileSync(path.join(dir, 'main.tex'), text);
  const child = spawn(process.execPath, [path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'), 'lsp', '--stdio']);
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => { published.push(p); });
  conn.listen();
  const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
  try {
    await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: {} });
    await conn.sendNotification(InitializedNotification.type, {});
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text } });
    const deadline = Date.now() + 20_000;
    while (!published.some((p) => p.uri === uri && p.diagnostics.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const diag = published.find((p) => p.uri === uri && p.diagnostics.length)!.diagnostics[0];
    assert.equal(diag.code, 'undefined-ref');
    const actions = await conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } }) as CodeAction[];
    const first = actions[0];
    assert.equal(first.title, "Change to 'thm:main'");
    assert.equal(first.isPreferred, true);
    assert.deepEqual(first.diagnostics, [diag]);
    assert.deepEqual(first.edit?.changes?.[uri], [{ range: { start: { line: 3, character: 8 }, end: { line: 3, character: 16 } }, newText: 'thm:main' }]);
    await conn.sendRequest(ShutdownRequest.type);
    await conn.sendNotification(ExitNotification.type);
  } finally {
    conn.dispose();
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
