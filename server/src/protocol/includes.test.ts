// Single-file mode over real stdio: a document opened without workspace folders gets its
// \input and xr \externaldocument files loaded asynchronously (with $/progress), after which
// its references resolve and diagnostics are republished.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';

test('includes and external documents are loaded off the request path, then refs resolve', async () => {
  const progressKinds: string[] = [];
  // diagnostics published before the includes are read hold back undefined-ref (they look
  // clean): only a publication after the loading's progress ended counts
  let endedAt = Infinity;
  await withServer({
    'main.tex': '\\documentclass{article}\n\\externaldocument[alg-]{algebra}\n\\begin{document}\n\\input{part}\nSee \\ref{sec:part} and \\ref{alg-lemma-one}.\n\\end{document}\n',
    'part.tex': '\\section{Part}\\label{sec:part}\n',
    'algebra.tex': '\\documentclass{article}\n\\begin{document}\n\\begin{lemma}\\label{lemma-one}x\\end{lemma}\n\\end{document}\n',
  }, { window: { workDoneProgress: true } }, async ({ conn, dir, published }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'latex', version: 1, text: fs.readFileSync(path.join(dir, 'main.tex'), 'utf8') },
    });
    const deadline = Date.now() + 20_000;
    const clean = (): boolean => published.some((p, i) => i >= endedAt && p.uri === uri && p.diagnostics.length === 0);
    while (!clean() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(clean(), `diagnostics never became clean: ${JSON.stringify(published.map((p) => p.diagnostics.map((d) => d.message)))}`);
    assert.ok(progressKinds.includes('begin') && progressKinds.includes('end'), `progress: ${progressKinds}`);
  }, (conn, published) => {
    conn.onNotification('$/progress', (p: { value: { kind: string } }) => { progressKinds.push(p.value.kind); if (p.value.kind === 'end') endedAt = published.length; });
  });
});

test('a file the LaTeX run wrote, opened as LaTeX (main.out), is no document: no diagnostics, no labels', async () => {
  const outText = '\\documentclass{article}\n\\begin{document}\n\\end{itemize}\\label{only-in-out}\n\\end{document}\n';
  const mainText = '\\documentclass{article}\n\\begin{document}\nSee \\ref{only-in-out}.\n\\end{document}\n';
  await withServer({ 'main.out': outText, 'main.tex': mainText }, {}, async ({ conn, dir, published }) => {
    const out = pathToFileURL(path.join(dir, 'main.out')).href;
    const main = pathToFileURL(path.join(dir, 'main.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: out, languageId: 'latex', version: 1, text: outText } });
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: main, languageId: 'latex', version: 1, text: mainText } });
    const deadline = Date.now() + 20_000;
    const undefinedRef = () => published.some((p) => p.uri === main && p.diagnostics.some((d) => d.code === 'undefined-ref'));
    while (!undefinedRef() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // the .out's label defines nothing, and nothing is said about the .out itself
    assert.ok(undefinedRef(), `main.tex: ${JSON.stringify(published.filter((p) => p.uri === main).map((p) => p.diagnostics.map((d) => d.message)))}`);
    assert.deepEqual(published.filter((p) => p.uri === out && p.diagnostics.length > 0), []);
  });
});
