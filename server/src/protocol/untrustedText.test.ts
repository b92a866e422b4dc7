// A document is untrusted input, and its words reach hovers: over real stdio, raw HTML and
// Markdown images written in a statement are shown as text, while the statement's math still
// renders and the links MathSense makes stay links.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';

test('hover Markdown shows a statement\'s HTML and images as text; its math and the hover\'s own links stay', async () => {
  const text = [
    '\\documentclass{article}',
    '\\newtheorem{theorem}{Theorem}',
    '\\begin{document}',
    '\\begin{theorem}\\label{thm:a}',
    'Every $x^2 \\ge 0$. <img src=x onerror=alert(1)> and ![p](https://host.example/p.png) and <https://host.example/q>.',
    '\\end{theorem}',
    'By Theorem~\\ref{thm:a}.',
    '\\end{document}',
    '',
  ].join('\n');
  await withServer({ 'main.tex': text }, {}, async ({ conn, dir }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text } });
    const line = 6;
    const character = text.split('\n')[line].indexOf('thm:a') + 2;
    let value = '';
    for (let tries = 0; tries < 100 && !value.includes('onerror'); tries++) {
      const h = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
      value = h ? (h.contents as MarkupContent).value : '';
      if (!value.includes('onerror')) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(value, /onerror/, `the statement's words are in the hover: ${value}`);
    assert.doesNotMatch(value, /<img/, 'raw HTML is shown as text');
    assert.doesNotMatch(value, /<https:/, 'an autolink is shown as text');
    assert.doesNotMatch(value, /(?<!\\)!\[p\]\(https:/, 'a Markdown image from the document is not an image');
    assert.match(value, /x\^2 \\ge 0/, 'the statement\'s math is still there');
    assert.match(value, new RegExp(`\\]\\(${uri.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#L\\d+\\)|main\\.tex`), 'the hover still says where the statement is');
  });
});
