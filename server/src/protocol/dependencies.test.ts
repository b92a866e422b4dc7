// The dependency graph over real stdio: lenses once the session has built the graph, call
// hierarchy both ways, the graph view's request, and an edit that closes a circle of proofs:
// the warning comes after a pause in typing, and goes when the edit is undone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall, CodeLens } from 'vscode-languageserver-protocol/node';
import { DEPENDENCY_GRAPH_REQUEST, type DependencyGraphResponse } from '../ext/protocol.js';
import { withServer } from '../testing/stdioServer.js';

const MAIN = String.raw`\documentclass{article}
\begin{document}
\begin{lemma}\label{lem:a}
A.
\end{lemma}
\begin{proof}
Direct.
\end{proof}
\begin{lemma}\label{lem:b}
B.
\end{lemma}
\begin{proof}
By Lemma~\ref{lem:a}.
\end{proof}
\begin{theorem}\label{thm:c}
C.
\end{theorem}
\begin{proof}
Lemmas~\ref{lem:a} and~\ref{lem:b} give it.
\end{proof}
\end{document}
`;

test('lenses, call hierarchy and the graph request over stdio; a circle of proofs is reported after a pause and goes when undone', { timeout: 60_000 }, async () => {
  await withServer({ 'main.tex': MAIN }, { textDocument: { callHierarchy: {} } }, async ({ conn, dir, client }) => {
    const uri = pathToFileURL(path.join(dir, 'main.tex')).href;
    client.open(uri, MAIN);
    // the graph is built after the project is read: its lenses come then
    let lenses: CodeLens[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      lenses = await conn.sendRequest<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      if (lenses.some((l) => l.command?.title.startsWith('uses '))) break;
    }
    assert.deepEqual(lenses.filter((l) => l.command?.title.startsWith('uses ')).map((l) => `${l.range.start.line}: ${l.command!.title}`), [
      '2: uses 0 · used by 2', '8: uses 1 · used by 1', '14: uses 2 · used by 0',
    ]);
    const items = await conn.sendRequest<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: { line: 12, character: 3 } });
    assert.equal(items.length, 1, 'inside a proof: the statement it proves');
    assert.equal(items[0].selectionRange.start.line, 8);
    const incoming = await conn.sendRequest<CallHierarchyIncomingCall[]>('callHierarchy/incomingCalls', { item: items[0] });
    assert.deepEqual(incoming.map((c) => [c.from.selectionRange.start.line, c.fromRanges.map((r) => r.start.line)]), [[14, [18]]]);
    const outgoing = await conn.sendRequest<CallHierarchyOutgoingCall[]>('callHierarchy/outgoingCalls', { item: items[0] });
    assert.deepEqual(outgoing.map((c) => [c.to.selectionRange.start.line, c.fromRanges.map((r) => r.start.line)]), [[2, [12]]]);
    const whole = await conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri, scope: 'whole' });
    assert.deepEqual(whole.nodes.map((n) => n.id), ['lem:a', 'lem:b', 'thm:c']);
    assert.deepEqual(whole.edges.map((e) => `${e.from}>${e.to} ${e.kind}/${e.where}`), ['lem:b>lem:a explicit/proof', 'thm:c>lem:a explicit/proof', 'thm:c>lem:b explicit/proof']);
    const near = await conn.sendRequest<DependencyGraphResponse>(DEPENDENCY_GRAPH_REQUEST, { uri, scope: 'neighbourhood', position: { line: 2, character: 0 } });
    assert.equal(near.focus, 'lem:a');
    // lem:a's proof now uses thm:c: a circle
    const edit = { range: { start: { line: 6, character: 0 }, end: { line: 6, character: 7 } }, text: 'By Theorem~\\ref{thm:c}.' };
    client.change(uri, 2, [edit]);
    const cycle = await client.diagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'proof-cycle'), 10_000);
    assert.match(String(cycle.diagnostics.find((d) => d.code === 'proof-cycle')!.message), /Circular proofs: Lemma lem:a → Theorem thm:c → Lemma lem:a/);
    client.change(uri, 3, [{ range: { start: { line: 6, character: 0 }, end: { line: 6, character: edit.text.length } }, text: 'Direct.' }]);
    await client.diagnostics(uri, (p) => p.version === 3 && !p.diagnostics.some((d) => d.code === 'proof-cycle'), 10_000);
  });
});
