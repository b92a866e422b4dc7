// A large document opened over real stdio is read between requests: a hover in another document
// is answered before the large one's first diagnostics, and the edits sent while it was read
// are in the diagnostics it gets (nothing lost, nothing out of order).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, HoverRequest } from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';
import { SLICED_OPEN_CHARS } from '../model/slicedBuild.js';

const SMALL = '\\documentclass{article}\n\\begin{document}\n\\begin{theorem}\\label{thm:small}\nA.\n\\end{theorem}\nSee Theorem~\\ref{thm:small}.\n\\end{document}\n';

function large(): string {
  const parts = ['\\documentclass{article}\n\\begin{document}\n'];
  for (let i = 0, size = 0; size < SLICED_OPEN_CHARS * 1.5; i++) {
    const s = `\\begin{theorem}\\label{thm:${i}}\nBy Theorem~\\ref{thm:${Math.max(0, i - 1)}}, $x^2 + ${i} \\ge ${i}$.\n\\end{theorem}\n\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push('See \\ref{late} and \\ref{never}.\n\\end{document}\n');
  return parts.join('');
}

test('a large document is read between requests, with the edits sent meanwhile', { timeout: 120_000 }, async () => {
  const text = large();
  await withServer({ 'small.tex': SMALL }, {}, async ({ conn, dir, published }) => {
    const small = pathToFileURL(path.join(dir, 'small.tex')).href;
    const big = pathToFileURL(path.join(dir, 'big.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: small, languageId: 'latex', version: 1, text: SMALL } });
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: big, languageId: 'latex', version: 1, text } });
    // an edit while it is read: the label \ref{late} wants, at the top
    await conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: big, version: 2 },
      contentChanges: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: '\\section{Late}\\label{late}\n' }],
    });
    const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 5, character: 16 } });
    const bigBefore = published.filter((p) => p.uri === big).length;
    assert.match(JSON.stringify(hover?.contents), /thm:small|Theorem/, 'the hover in the small document is answered');
    assert.equal(bigBefore, 0, 'answered before the large document\'s first diagnostics');
    const deadline = Date.now() + 90_000;
    const final = () => published.find((p) => p.uri === big && p.version === 2);
    while (!final() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(final(), 'the large document is published at the version of its last edit');
    assert.deepEqual(published.filter((p) => p.uri === big).map((p) => p.version).filter((v) => v !== 2), [], 'never at the version the edit replaced');
    const refs = final()!.diagnostics.filter((d) => d.code === 'undefined-ref').map((d) => String(d.message));
    assert.equal(refs.length, 1, JSON.stringify(refs));
    assert.match(refs[0], /never/, 'the label the edit added resolves; the other reference stays undefined');
  });
});

test('a large file of the workspace folder is read in slices by the folder scan, its labels then known', { timeout: 120_000 }, async () => {
  const text = large();
  const main = '\\documentclass{article}\n\\begin{document}\n\\input{big}\nSee \\ref{thm:7} and \\ref{thm:none}.\n\\end{document}\n';
  await withServer({ 'big.tex': text, 'main.tex': main }, {}, async ({ conn, dir, published }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: main } });
    const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 10 } });
    assert.ok(hover === null || typeof hover === 'object', 'answered while the folder is read');
    const deadline = Date.now() + 90_000;
    const refs = () => published.filter((p) => p.uri === uri).at(-1)?.diagnostics.filter((d) => d.code === 'undefined-ref') ?? [];
    while (refs().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(refs().map((d) => d.range.start.character), [25], 'thm:7 is found in big.tex; thm:none is not');
  }, undefined, (dir) => ({ rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'large' }] }));
});
