// A good neighbour, per folder, over stdio: a workspace with two folders (a paper and lecture
// notes) where the notes' folder leaves `\ref` and `\cite` hovers, label and citation completion,
// the outline and duplicate-label diagnostics to another extension (LaTeX Workshop, texlab), and
// the paper's keeps them all. The server reads each folder's settings (workspace/configuration
// with the folder as scopeUri) and applies them by the document's folder.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DidChangeWorkspaceFoldersNotification, HoverRequest, CompletionRequest, DocumentSymbolRequest, type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

const TEXT = String.raw`\documentclass{article}
\begin{document}
\section{One}\label{sec:one}
\begin{equation}\label{eq:a} x = 1 \end{equation}
\begin{equation}\label{eq:a} y = 2 \end{equation}
See \ref{sec:one} and \cite{knuth}. \ref{}
\bibliography{refs}
\end{document}
`;
const BIB = '@book{knuth, title={The Art}, author={Knuth, Donald}, year={1968}}\n';
const OFF = { hover: { references: false, citations: false }, completion: { labels: false, citations: false }, outline: { enabled: false }, diagnostics: { duplicateLabels: false } };

describe('overlapping providers, switched off per folder', { timeout: 60_000 }, () => {
  let dir: string;
  let client: LspClient;
  let conn: ProtocolConnection;
  const uriIn = (folder: string) => pathToFileURL(path.join(dir, folder, 'main.tex')).href;

  before(async () => {
    assert.ok(fs.existsSync(serverBundle), `${serverBundle} missing: run node scripts/build.mjs`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-neighbour-'));
    for (const f of ['paper', 'notes', 'later']) {
      fs.mkdirSync(path.join(dir, f));
      fs.writeFileSync(path.join(dir, f, 'main.tex'), TEXT);
      fs.writeFileSync(path.join(dir, f, 'refs.bib'), BIB);
    }
    client = new LspClient({ bundle: serverBundle, settings: (i) => (i.scopeUri?.endsWith('/notes') || i.scopeUri?.endsWith('/later') ? OFF : {}) });
    conn = client.conn;
    const folders = ['paper', 'notes'].map((f) => ({ uri: pathToFileURL(path.join(dir, f)).href, name: f }));
    await client.initialize(undefined, { workspace: { configuration: true, workspaceFolders: true } }, { workspaceFolders: folders });
    await conn.sendRequest('mathsense/status');
    for (const f of ['paper', 'notes']) client.open(uriIn(f), TEXT);
  });

  after(async () => {
    try { await client.stop(); } finally {
      client.kill(); fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const lines = TEXT.split('\n');
  const at = (needle: string) => { const line = lines.findIndex((l) => l.includes(needle)); return { line, character: lines[line].indexOf(needle) + needle.length - 3 }; };

  it('the paper keeps every provider; the notes leave them to the neighbour', async () => {
    for (const [folder, on] of [['paper', true], ['notes', false]] as const) {
      const uri = uriIn(folder);
      const ref = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at('\\ref{sec:one}') });
      assert.equal(!!ref, on, `${folder}: \\ref hover`);
      const cite = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at('knuth') });
      assert.equal(!!cite, on, `${folder}: \\cite hover`);
      const labels = await conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: at('\\ref{}').line, character: lines[at('\\ref{}').line].indexOf('\\ref{}') + 5 } });
      assert.equal(!!labels && (Array.isArray(labels) ? labels : labels.items).length > 0, on, `${folder}: label completion`);
      const keys = await conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: at('knuth').line, character: lines[at('knuth').line].indexOf('knuth') } });
      assert.equal(!!keys && (Array.isArray(keys) ? keys : keys.items).length > 0, on, `${folder}: citation completion`);
      const symbols = await conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      assert.equal((symbols ?? []).length > 0, on, `${folder}: outline`);
    }
  });

  it('a folder added later gets its own settings', async () => {
    const later = { uri: pathToFileURL(path.join(dir, 'later')).href, name: 'later' };
    await conn.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [later], removed: [] } });
    await conn.sendRequest('mathsense/status');
    const uri = uriIn('later');
    client.open(uri, TEXT);
    assert.equal(await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at('\\ref{sec:one}') }), null, 'later: \\ref hover left to the neighbour');
    const symbols = await conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.equal((symbols ?? []).length, 0, 'later: outline left to the neighbour');
  });

  it('duplicate-label diagnostics only where they are on', async () => {
    await client.diagnostics(uriIn('paper'));
    await client.diagnostics(uriIn('notes'));
    const dup = (folder: string) => client.latest(uriIn(folder))!.diagnostics.filter((d) => d.code === 'duplicate-label').length;
    assert.equal(dup('paper'), 2);
    assert.equal(dup('notes'), 0);
  });
});
