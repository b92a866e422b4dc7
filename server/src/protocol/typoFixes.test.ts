// Typo fixes over real stdio: an undefined \ref gets "Change to '…'" quick fixes, first in the
// list, the nearest label preferred, with the diagnostic the client sent; edits versioned for a
// client that takes them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';

test('typo fixes over stdio: an undefined \\ref offers the nearest labels', { timeout: 60_000 }, async () => {
  const text = '\\documentclass{article}\n\\begin{document}\n\\begin{theorem}\\label{thm:main} A. \\end{theorem}\nBy \\ref{thm:mian}.\n\\end{document}\n';
  await withServer({ 'main.tex': text }, {}, async ({ conn, dir, published }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
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
  });
});

test('a client that takes versioned edits gets quick fixes naming the version they were made for', { timeout: 60_000 }, async () => {
  const text = '\\documentclass{article}\n\\begin{document}\n\\begin{theorem}\\label{thm:main} A. \\end{theorem}\nBy \\ref{thm:mian}.\n\\end{document}\n';
  await withServer({ 'main.tex': text }, { workspace: { workspaceEdit: { documentChanges: true } } }, async ({ conn, dir, published }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 4, text } });
    // an edit above the reference: the fix is made for version 5, at the reference's new place
    await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 5 }, contentChanges: [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: '% a note\n' }] });
    const deadline = Date.now() + 20_000;
    const at5 = () => published.find((p) => p.uri === uri && p.version === 5 && p.diagnostics.length);
    while (!at5() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const diag = at5()!.diagnostics[0];
    const actions = await conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } }) as CodeAction[];
    const fix = actions[0];
    assert.equal(fix.edit?.changes, undefined);
    assert.deepEqual(fix.edit?.documentChanges, [{ textDocument: { uri, version: 5 }, edits: [{ range: { start: { line: 4, character: 8 }, end: { line: 4, character: 16 } }, newText: 'thm:main' }] }]);
  });
});
