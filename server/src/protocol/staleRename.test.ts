// Edits against the file as it is, over real stdio: a file changed on disk after the server read
// it is read again before a rename edits it, the edit names the version it was made for, and a
// change for a document the editor never opened does not replace the server's copy of it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefinitionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, RenameRequest, type TextDocumentEdit, type TextEdit } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { withServer } from '../testing/stdioServer.js';

const MAIN = '\\documentclass{book}\n\\begin{document}\n\\input{chapter}\nSee Theorem~\\ref{thm:one}.\n\\end{document}\n';
const CHAPTER = '\\chapter{One}\n\\begin{theorem}\\label{thm:one}\nA.\n\\end{theorem}\n';

test('a rename edits a file changed on disk at its new offsets, in versioned edits; a change to an unopened document is ignored', async () => {
  await withServer({ 'main.tex': MAIN, 'chapter.tex': CHAPTER }, { workspace: { workspaceEdit: { documentChanges: true } } }, async ({ conn, dir }) => {
    const main = pathToFileURL(path.join(dir, 'main.tex')).href;
    const chapter = pathToFileURL(path.join(dir, 'chapter.tex')).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: main, languageId: 'latex', version: 7, text: MAIN } });
    // the include is read (the reference goes to the chapter) before the disk changes under the
    // server; an empty diagnostics list is no proof of that, the gate may publish one before the
    // project is read
    const line = 3;
    const character = MAIN.split('\n')[line].indexOf('thm:one') + 1;
    const deadline = Date.now() + 20_000;
    const resolved = async () => {
      const def = await conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: main }, position: { line, character } });
      return JSON.stringify(def ?? null).includes(chapter);
    };
    let read = await resolved();
    while (!read && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      read = await resolved();
    }
    assert.ok(read, 'the chapter was read and the reference resolves');
    // a git pull: two lines more above the label
    const pulled = `% pulled\n% from upstream\n${CHAPTER}`;
    fs.writeFileSync(path.join(dir, 'chapter.tex'), pulled);
    // a client bug: a change for a document it never opened
    await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: chapter, version: 2 }, contentChanges: [{ text: 'nothing here' }] });
    const edit = await conn.sendRequest(RenameRequest.type, { textDocument: { uri: main }, position: { line, character }, newName: 'thm:renamed' });
    assert.ok(edit?.documentChanges, `versioned edits: ${JSON.stringify(edit)}`);
    const byUri = new Map((edit!.documentChanges as TextDocumentEdit[]).map((c) => [c.textDocument.uri, c]));
    assert.equal(byUri.get(main)?.textDocument.version, 7, 'the open file\'s edit names its version');
    assert.equal(byUri.get(chapter)?.textDocument.version, null, 'a file not open has no version');
    const apply = (text: string, edits: TextEdit[]) => TextDocument.applyEdits(TextDocument.create('x', 'latex', 0, text), edits);
    assert.equal(apply(pulled, byUri.get(chapter)!.edits as TextEdit[]), pulled.replace('thm:one', 'thm:renamed'), 'the label is renamed where it is now, nothing else is touched');
    assert.equal(apply(MAIN, byUri.get(main)!.edits as TextEdit[]), MAIN.replace('thm:one', 'thm:renamed'));
  });
});
