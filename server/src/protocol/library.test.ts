// The author's library over real stdio, as an editor uses it: the `mathsense.library` setting
// names a folder of papers, the server indexes it in the background with `$/progress`, a hover
// on a statement the library holds lists it with its paper and "Insert citation", and running
// that command makes the server ask the client to apply the edit (the .bib entry that is the
// paper cited by its key). `mathsense.library.search` and `.index` answer Neovim and the rest.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExecuteCommandRequest, HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspClient } from './lspClient.js';
import { testBundle } from '../testing/stdioServer.js';
import { library } from '../testing/libraryFixture.js';
import { lensTitle } from '../features/equations/equationLenses.js';
import { FIND_RELATED_COMMAND, INSERT_CITATION_COMMAND, LIBRARY_INDEX_COMMAND, LIBRARY_SEARCH_COMMAND, STATUS_REQUEST, type InsertCitationResponse, type LibraryIndexResponse, type RelatedResponse, type SearchResponse, type ServerStatus } from '../ext/protocol.js';

const MAIN = String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\begin{document}
\begin{theorem}\label{thm:bw}
Every bounded sequence of real numbers has a convergent subsequence.
\end{theorem}
\begin{equation}\label{eq:series}
\sum_{k=0}^\infty q^k = \frac{1}{1-q}
\end{equation}
\bibliography{refs}
\end{document}
`;
const BIB = '@article{bw21,\n  title = {On bounded monotone sequences},\n  eprint = {2101.01234},\n}\n';

test('a library folder from the settings: indexed with progress, shown in the hover with Insert citation, cited through workspace/applyEdit', { timeout: 120_000 }, async () => {
  const lib = library();
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-libproject-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-libhome-'));
  fs.writeFileSync(path.join(project, 'main.tex'), MAIN);
  fs.writeFileSync(path.join(project, 'refs.bib'), BIB);
  const client = new LspClient({ bundle: testBundle(), env: { ...process.env, XDG_CACHE_HOME: path.join(home, 'cache'), XDG_CONFIG_HOME: path.join(home, 'config') }, settings: () => ({ library: [lib] }) });
  const progress: string[] = [];
  client.conn.onNotification('$/progress', (p: { value: { kind: string; title?: string } }) => { if (p.value.kind === 'begin') progress.push(p.value.title ?? ''); });
  try {
    await client.initialize(project, { window: { workDoneProgress: true }, workspace: { applyEdit: true, configuration: true } });
    const uri = client.open(path.join(project, 'main.tex'), MAIN);
    const status = async () => (await client.conn.sendRequest(STATUS_REQUEST)) as ServerStatus;
    const deadline = Date.now() + 90_000;
    let s = await status();
    while (s.library?.[0]?.state !== 'ready' && Date.now() < deadline) { await new Promise((r) => setTimeout(r, 200)); s = await status(); }
    assert.deepEqual(s.library, [{ folder: lib, state: 'ready', papers: 3, entries: 8, vectors: true }]);
    assert.ok(progress.includes('MathSense: indexing library'), progress.join(', '));
    // the hover on the theorem's head: the statement's vector arrives after the first hover
    let md = '';
    for (let i = 0; i < 100 && !/your library/.test(md); i++) {
      const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 3 } });
      md = (h?.contents as MarkupContent | undefined)?.value ?? '';
      if (!/your library/.test(md)) await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(md, /\*\*\[Theorem 1\.3 \(Bolzano--Weierstrass\)\]\(file:\/\/[^)]*main\.tex#L17\)\*\* in \*On bounded monotone sequences \(arXiv:2101\.01234\)\* · your library · relevance [\d.]+ · \[Insert citation\]\(command:mathsense\.library\.insertCitation\?/);
    const args = JSON.parse(decodeURIComponent(/command:mathsense\.library\.insertCitation\?([^ )]+)/.exec(md)![1])) as unknown[];
    const r = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: INSERT_CITATION_COMMAND, arguments: args }) as InsertCitationResponse;
    assert.deepEqual(r, { applied: true, citation: '\\cite[Theorem~1.3]{bw21}' });
    assert.equal(client.appliedEdits.length, 1);
    const edit = client.appliedEdits[0];
    assert.equal(edit.label, 'Insert citation');
    const changes = edit.edit.changes?.[uri] ?? edit.edit.documentChanges?.flatMap((d) => ('edits' in d ? d.edits : []));
    assert.deepEqual(changes, [{ range: { start: { line: 3, character: 15 }, end: { line: 3, character: 15 } }, newText: '[{\\cite[Theorem~1.3]{bw21}}]' }]);
    // the library alone, searched by a command; indexed again: nothing read
    const found = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: LIBRARY_SEARCH_COMMAND, arguments: [{ query: 'infinitely many primes', limit: 1 }] }) as SearchResponse;
    assert.deepEqual(found.items.map((i) => [i.source, i.title, i.uri]), [['library', 'Theorem 1', pathToFileURL(path.join(lib, 'primes.tex')).href]]);
    // a statement-length query the library holds nothing like: withheld
    const none = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: LIBRARY_SEARCH_COMMAND, arguments: [{ query: 'Every compact Hausdorff space is normal, and every closed subset of a compact space is compact.', limit: 5 }] }) as SearchResponse;
    assert.deepEqual(none.items.map((i) => i.title), []);
    const again = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: LIBRARY_INDEX_COMMAND, arguments: [{ folder: lib }] }) as LibraryIndexResponse;
    assert.deepEqual({ ...again, seconds: 0 }, { folder: lib, papers: 3, entries: 8, added: 0, changed: 0, removed: 0, kept: 3, seconds: 0 });
    // the library's displays in the related-equations search: the paper's geometric series, counted by the lens
    const related = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: FIND_RELATED_COMMAND, arguments: [{ uri, position: { line: 7, character: 2 } }] }) as RelatedResponse;
    const hit = related.results.find((x) => x.source === 'library');
    assert.deepEqual(hit && [hit.title, hit.paper, hit.line, hit.counted, hit.cite], ['Equation', 'On bounded monotone sequences', 23, true, { folder: lib, paper: path.join('2101.01234v2', 'main.tex'), file: path.join('2101.01234v2', 'main.tex'), line: 23 }], JSON.stringify(related.results));
    assert.equal(lensTitle(related), 'Close: 1 in your library, 2 in ProofWiki');
    assert.deepEqual(client.errors(), []);
    await client.stop();
  } finally {
    client.kill();
    for (const d of [lib, project, home]) fs.rmSync(d, { recursive: true, force: true });
  }
});
