// Citations over real stdio: the .bib named by \bibliography is read off the request path,
// then `\cite{` completion lists its keys, hover shows the entry, definition jumps into the
// .bib, an unknown key is an undefined-citation warning, and a .bib edited in the editor (or
// changed on disk) updates all of it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification,
  CompletionRequest, HoverRequest, DefinitionRequest, PrepareRenameRequest, RenameRequest,
  type PublishDiagnosticsParams, type WorkspaceEdit, type CompletionList, type MarkupContent, type Location,
} from 'vscode-languageserver-protocol/node';
import { withServer } from '../testing/stdioServer.js';

test('citations over stdio: completion, hover, definition, undefined-citation, .bib edits, key rename', { timeout: 60_000 }, async () => {
  const texText = '\\documentclass{article}\n\\begin{document}\nBy \\cite{Euclid} and \\cite{later}.\n\\cite{}\n\\bibliography{refs}\n\\end{document}\n';
  const files = { 'main.tex': texText, 'refs.bib': '@book{Euclid,\n  author = {Euclid},\n  title = {Elements},\n  publisher = {Alexandria},\n  year = {-300},\n}\n' };
  await withServer(files, { window: { workDoneProgress: true } }, async ({ conn, dir, published }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    const bibUri = pathToFileURL(path.join(dir, 'refs.bib')).href;
    const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => `${d.code}:${d.range.start.line + 1}:${d.range.start.character + 1}`).join(',');
    const waitFor = async (want: string, from = 0) => {
      const deadline = Date.now() + 20_000;
      const ok = () => published.slice(from).some((p) => p.uri === uri && codes(p) === want);
      while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(ok(), `never published ${want}: ${JSON.stringify(published.map(codes))}`);
    };
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text: texText } });
    // the .bib is read asynchronously: then `later` is undefined
    await waitFor('undefined-citation:3:28');
    const list = await conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 3, character: 6 } }) as CompletionList;
    assert.deepEqual(list.items.map((i) => `${i.label} ${i.detail}`), ['Euclid Euclid (-300)']);
    const hover = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 11 } });
    assert.match((hover?.contents as MarkupContent).value, /^\*\*Euclid\*\* {2}\n\*Elements\* {2}\nAlexandria, -300\n\n`@book\{Euclid\}` — \[refs\.bib:1\]/);
    const defs = await conn.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: 11 } }) as Location[];
    assert.deepEqual(defs, [{ uri: bibUri, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 12 } } }]);
    // the .bib opened and edited in the editor: `later` is defined
    const bibText = fs.readFileSync(path.join(dir, 'refs.bib'), 'utf8');
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: bibUri, languageId: 'bibtex', version: 1, text: bibText } });
    let mark = published.length;
    await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: bibUri, version: 2 }, contentChanges: [{ range: { start: { line: 6, character: 0 }, end: { line: 6, character: 0 } }, text: '@misc{later, title={Later}}\n' }] });
    await waitFor('', mark);
    // rename a key from its \cite, and from its entry in the open .bib: the entry and every citation
    const edits = (e: WorkspaceEdit | null) => Object.entries(e?.changes ?? {}).flatMap(([u, es]) => es.map((t) => `${path.basename(u)} ${t.range.start.line}:${t.range.start.character}-${t.range.end.character} ${t.newText}`)).sort();
    assert.deepEqual(await conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: { line: 2, character: 11 } }), { range: { start: { line: 2, character: 9 }, end: { line: 2, character: 15 } }, placeholder: 'Euclid' });
    assert.deepEqual(edits(await conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line: 2, character: 11 }, newName: 'euclid300' })), ['main.tex 2:9-15 euclid300', 'refs.bib 0:6-12 euclid300']);
    assert.deepEqual(edits(await conn.sendRequest(RenameRequest.type, { textDocument: { uri: bibUri }, position: { line: 6, character: 8 }, newName: 'later2' })), ['main.tex 2:27-32 later2', 'refs.bib 6:6-11 later2']);
    await assert.rejects(conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line: 2, character: 11 }, newName: 'later' }), /an entry 'later' already exists \(refs\.bib:7\)/);
    // on disk: a .bib without Euclid (the editor's version was closed, the disk one is read again)
    fs.writeFileSync(path.join(dir, 'refs.bib'), '@misc{later, title = {Later}}\n');
    await conn.sendNotification('textDocument/didClose', { textDocument: { uri: bibUri } });
    mark = published.length;
    await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: bibUri, type: 2 }] });
    await waitFor('undefined-citation:3:10', mark);
  });
});
