// Index features over real stdio (the bundled server, `lsp --stdio`) on fixture documents, with
// a slice index built from the shared data: candidate proofs on hover over a theorem, term
// disambiguation on hover, "Suggest results to cite", ranked \ref completion inside a proof,
// `mathsense/status`; and a server whose index is missing: clear status, other features intact.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidOpenTextDocumentNotification, HoverRequest, CodeActionRequest, CompletionRequest, ExecuteCommandRequest, type Hover, type MarkupContent, type CodeAction, type CompletionList, type Position,
} from 'vscode-languageserver-protocol/node';
import { LoadedIndex } from 'mathsense-server/api/index';
import { LspClient } from 'mathsense-server/api/cli';
import { buildSlice, hasData, serverBundle } from '../testing/indexSlice.js';

/** The server's stdio client, counting `mathsense/statusChanged` notifications. */
class Client extends LspClient {
  /** `mathsense/statusChanged` notifications received. */
  statusChanges = 0;
  constructor(settings: unknown) {
    super({ bundle: serverBundle, settings: () => settings });
    this.conn.onNotification('mathsense/statusChanged', () => { this.statusChanges++; });
  }
  /** `panel`: the client shows results in a panel, as the VS Code extension says at initialize. */
  async start(root: string, settings: unknown, panel = true): Promise<void> {
    await this.initialize(root, { workspace: { configuration: true, workspaceFolders: true } }, { initializationOptions: panel ? { settings, resultsPanel: true } : { settings } });
  }
}

function posOf(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at + delta);
  return { line: before.split('\n').length - 1, character: at + delta - (before.lastIndexOf('\n') + 1) };
}

const md = (h: Hover | null) => (h ? (h.contents as MarkupContent).value : '');

describe('index features over stdio', { skip: !hasData && 'shared data or models missing', timeout: 600_000 }, () => {
  let tmp: string;
  let indexDir: string;
  let statementTitle: string;
  let client: Client;
  let uri: string;
  let text: string;
  let term: string;
  let sense: { title: string; text: string };

  before(async () => {
    const r = await buildSlice(40);
    tmp = r.tmp; indexDir = r.dir;
    const idx = LoadedIndex.load(indexDir);
    // a real ProofWiki statement (its proof is in the index) and an ambiguous term of the slice
    const st = idx.entry(idx.header.kinds.statement[0] + 1);
    statementTitle = st.title;
    term = Object.keys(idx.header.terms).find((t) => /^[a-z]+$/.test(t) && t.length > 3 && idx.header.terms[t].length >= 2) ?? Object.keys(idx.header.terms)[0];
    // the context of the term: one of its definitions, in the author's words
    sense = idx.entry(idx.header.terms[term][0]);
    text = String.raw`\documentclass{article}
\usepackage{amsthm}
\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem{definition}[theorem]{Definition}
\theoremstyle{definition}
\newtheorem{exercise}[theorem]{Exercise}
\begin{document}
\begin{lemma}\label{lem:helper}
${st.text.replace(/\n+/g, ' ')}
\end{lemma}
\begin{lemma}\label{lem:other}
Every finite group of prime order is cyclic.
\end{lemma}
\begin{theorem}[Main]\label{thm:main}
${st.text.replace(/\n+/g, ' ')}
\end{theorem}
\begin{proof}
We use \ref{} here.
\end{proof}
\begin{lemma}\label{lem:a-later}
${st.text.replace(/\n+/g, ' ')}
\end{lemma}
\begin{definition}
A \emph{${term}} is what follows. ${sense.text.replace(/\n+/g, ' ').replace(/\\(?:begin|end)\{[^}]*\}/g, '').slice(0, 600)}
\end{definition}
\begin{exercise}
Show that every finite group of prime order is cyclic.
\end{exercise}
\end{document}
`;
    fs.mkdirSync(path.join(tmp, 'proj'));
    const file = path.join(tmp, 'proj', 'main.tex');
    fs.writeFileSync(file, text);
    uri = pathToFileURL(file).href;
    const settings = { index: { path: indexDir } };
    client = new Client(settings);
    await client.start(path.join(tmp, 'proj'), settings);
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text } });
    const status = await client.conn.sendRequest('mathsense/status') as { index: { state: string } };
    for (let i = 0; i < 200 && (await client.conn.sendRequest('mathsense/status') as typeof status).index.state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
  });
  after(async () => { await client?.end(); if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

  it('status reports the loaded index, and semantic ranking as soon as the encoder has loaded (no query needed), telling the client', async () => {
    type S = { index: { state: string; entries: number; path: string; semantic?: boolean } };
    let s = await client.conn.sendRequest('mathsense/status') as S;
    assert.equal(s.index.state, 'ready');
    assert.ok(s.index.entries > 0);
    assert.equal(s.index.path, indexDir);
    for (let i = 0; i < 300 && s.index.semantic === undefined; i++) { await new Promise((r) => setTimeout(r, 100)); s = await client.conn.sendRequest('mathsense/status') as S; }
    assert.equal(s.index.semantic, true);
    assert.ok(client.statusChanges >= 2, `loaded and decided were both notified (${client.statusChanges})`);
  });

  it('hover on a theorem shows candidate proofs with source URL and licence', async () => {
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, '\\begin{theorem}', 3) });
    const v = md(h);
    assert.match(v, /Candidate proofs/);
    assert.match(v, /\(https:\/\/proofwiki\.org\/wiki\/[^)]+\)/);
    assert.match(v, /CC BY-SA 3\.0/);
    assert.match(v, /Proof in this project/);
    // on the label: the label hover, with the candidates after it
    const l = md(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, 'thm:main', 2) }));
    assert.match(l, /Theorem/);
    assert.match(l, /Candidate proofs/);
    // never on the words of a statement's body, nor on a definition, an example or an exercise
    const body = md(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, 'prime order', 2) }));
    assert.doesNotMatch(body, /Candidate proofs/);
    const def = md(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, '\\begin{definition}', 3) }));
    assert.doesNotMatch(def, /Candidate proofs/);
  });

  it('hover on a defined term ranks its ProofWiki definitions, once the context\'s meaning is read', async () => {
    // the first hover asks for the context's vector (ahead of the queued statements); until it
    // has come nothing is shown rather than a reading from the words alone
    let v = '';
    for (let i = 0; i < 100 && !/Which “/.test(v); i++) {
      v = md(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, `\\emph{${term}}`, 7) }));
      if (!v) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(v, /Which “/);
    assert.match(v, /Best match for this context \(\d+%\): \*\*\[Definition:/);
    assert.ok(v.includes(`[${sense.title}]`), `the sense the context gives: ${sense.title}\n${v}`);
    assert.match(v, /https:\/\/proofwiki\.org\/wiki\/Definition:/);
  });

  it('code action "Suggest results to cite" inside a proof: ranked when chosen, not at each move of the cursor', async () => {
    const p = posOf(text, 'We use');
    const actions = await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics: [] } }) as CodeAction[];
    const a = actions.find((x) => x.title === 'Suggest results to cite');
    assert.ok(a, JSON.stringify(actions));
    assert.equal(a.command?.command, 'mathsense.showResultsToCite');
    assert.deepEqual(a.command?.arguments, [{ uri, position: p }]);
    // what the client's command asks the server when the action is chosen
    const args = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.suggestCitations', arguments: a.command!.arguments }) as { items: Array<{ title: string; url?: string; label?: string; detail: string }> };
    assert.ok(args.items.some((i) => i.label === 'lem:helper'), 'a workspace result');
    assert.ok(args.items.some((i) => i.url?.startsWith('https://')), 'an indexed result');
    for (const i of args.items.filter((x) => x.url)) assert.match(i.detail, /CC BY-SA|GNU FDL/);
  });

  it('asked for, candidate proofs of any statement: the code action "Find candidate proofs" (an exercise too) and mathsense.candidateProofs', async () => {
    // an exercise gets none on hover, but they are one action away
    const hover = md(await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, '\\begin{exercise}', 3) }));
    assert.doesNotMatch(hover, /Candidate proofs/);
    const p = posOf(text, 'Show that every');
    const actions = await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics: [] } }) as CodeAction[];
    const a = actions.find((x) => x.title === 'Find candidate proofs');
    assert.ok(a, actions.map((x) => x.title).join('; '));
    assert.equal(a.command?.command, 'mathsense.showCandidateProofs');
    assert.deepEqual(a.command?.arguments, [{ uri, position: p }]);
    type R = { heading: string; items: Array<{ title: string; url?: string; uri?: string; detail: string }>; withheld?: number } | null;
    const r = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.candidateProofs', arguments: a.command!.arguments }) as R;
    assert.match(r?.heading ?? '', /^Candidate proofs for: Show that every finite group/);
    // nothing in the slice proves it: what the index ranked is withheld as unlikely to be
    // relevant (index/relevance.ts), and the answer says how much
    assert.ok((r?.withheld ?? 0) > 0, JSON.stringify(r));
    assert.ok(r!.items.every((i) => i.url?.startsWith('https://')), JSON.stringify(r));
    for (const i of r!.items) assert.match(i.detail, /CC BY-SA|GNU FDL/);
    // inside a proof: the proved statement's, the project's own proof first
    const inProof = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.candidateProofs', arguments: [{ uri, position: posOf(text, 'We use') }] }) as R;
    assert.equal(inProof?.items[0].title, 'Proof in this project');
    assert.equal(inProof?.items[0].uri, uri);
    const none = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.candidateProofs', arguments: [{ uri, position: { line: 0, character: 0 } }] });
    assert.equal(none, null);
  });

  it('any other LSP client: an action per workspace result inserts its \\ref; mathsense.suggestCitations returns them all', async () => {
    const other = new Client({ index: { path: indexDir } });
    try {
      await other.start(path.join(tmp, 'proj'), { index: { path: indexDir } }, false);
      await other.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'latex', version: 1, text } });
      const p = posOf(text, 'We use');
      const all = await other.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.suggestCitations', arguments: [{ uri, position: p }] }) as { items: Array<{ label?: string; url?: string }>; withheld?: number } | null;
      // the workspace's results, and the indexed ones: shown, or withheld as unlikely to be relevant
      assert.ok(all?.items.some((i) => i.label === 'lem:helper'), JSON.stringify(all));
      assert.equal(all!.items.filter((i) => i.url?.startsWith('https://')).length + (all!.withheld ?? 0), 8, 'every indexed result ranked is listed or counted as withheld');
      const actions = await other.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics: [] } }) as CodeAction[];
      assert.ok(!actions.some((a) => a.command?.command === 'mathsense.showResults' || a.command?.command === 'mathsense.showCandidateProofs'), 'no client command the editor does not have');
      const cite = actions.find((a) => a.title.startsWith('Cite \\ref{lem:helper}'));
      assert.ok(cite, actions.map((a) => a.title).join('; '));
      assert.deepEqual(cite.edit?.changes?.[uri], [{ range: { start: p, end: p }, newText: '\\ref{lem:helper}' }]);
      // outside any statement: no results
      const none = await other.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.suggestCitations', arguments: [{ uri, position: { line: 0, character: 0 } }] });
      assert.equal(none, null);
    } finally {
      await other.end();
    }
  });

  it('\\ref{ completion inside a proof ranks labels by relevance to the statement', async () => {
    const list = await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: posOf(text, '\\ref{}', 5) }) as CompletionList;
    const sorted = [...list.items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
    assert.equal(sorted[0].label, 'lem:helper', sorted.map((i) => `${i.label} ${i.sortText}`).join(', '));
    assert.ok(sorted.findIndex((i) => i.label === 'lem:helper') < sorted.findIndex((i) => i.label === 'lem:other'));
    assert.ok(!sorted.some((i) => i.label === 'thm:main' && i.sortText?.startsWith('0')), 'the statement being proved is not suggested first');
    // the same text before and after the proof: the position ranker prefers what came before
    const relevance = (label: string) => Number(/relevance (-?[\d.]+)/.exec(sorted.find((i) => i.label === label)?.detail ?? '')?.[1]);
    assert.ok(relevance('lem:helper') > relevance('lem:a-later'), sorted.map((i) => `${i.label}: ${i.detail}`).join('; '));
  });

  /**
   * Opens `text` as proj/`file` and asks \ref{ completion at its first `\ref{}`: each label's
   * relevance (and all of them, for messages). The first request asks for the vectors of the
   * candidates and the statement; the answer read is the one given once they are all in
   * (index.pendingVectors), so that whether the encoder's scores are in does not depend on timing.
   */
  async function refRelevance(file: string, text: string): Promise<{ of: (label: string) => number; all: string }> {
    const u = pathToFileURL(path.join(tmp, 'proj', file)).href;
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: u, languageId: 'latex', version: 1, text } });
    const ask = () => client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: posOf(text, '\\ref{}', 5) }) as Promise<CompletionList>;
    await ask();
    for (let i = 0; i < 200 && ((await client.conn.sendRequest('mathsense/status')) as { index: { pendingVectors?: number } }).index.pendingVectors !== 0; i++) await new Promise((r) => setTimeout(r, 50));
    const list = await ask();
    return {
      of: (label) => Number(/relevance (-?[\d.]+)/.exec(list.items.find((i) => i.label === label)?.detail ?? '')?.[1]),
      all: list.items.map((i) => `${i.label}: ${i.detail}`).join('; '),
    };
  }

  /** A document opening with two lemmas that say the same thing (`first`, then `second`), then `rest`. */
  const twoLemmas = (same: string, first: string, second: string, rest: string) => String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\begin{document}
\begin{lemma}\label{${first}}
${same}
\end{lemma}
\begin{lemma}\label{${second}}
${same}
\end{lemma}
${rest}\end{document}
`;

  it('\\ref{ completion prefers, among results saying the same, the one named like the statement and \\ref\'d by it', async () => {
    const text2 = twoLemmas('Let $G$ be a finite group whose order is a prime $p$. Then $G$ is cyclic.', 'lem:prime-order-cyclic', 'lem:step-two', String.raw`\begin{theorem}\label{thm:groups-of-prime-order}
Every group of prime order $p$ is abelian (it is cyclic by Lemma \ref{lem:prime-order-cyclic}).
\end{theorem}
\begin{proof}
Apply \ref{} to $G$.
\end{proof}
Compare \ref{lem:step-two}.
`);
    const r = await refRelevance('names.tex', text2);
    // both are \ref'd once; the named one sits further from the theorem, which the position
    // features count against it, so only its name and the statement's \ref can put it first
    assert.ok(r.of('lem:prime-order-cyclic') > r.of('lem:step-two'), r.all);
  });

  const sequences = 'Every bounded monotone sequence of real numbers converges.';

  it('\\ref{ completion prefers, among results saying the same, the one the proof of a similar statement \\ref\'s', async () => {
    // `cited` decides whether the proof of the similar theorem cites lem:used; both lemmas are
    // \ref'd once either way, and lem:near sits closer to the theorem being proved
    const doc = (cited: boolean) => twoLemmas(sequences, 'lem:used', 'lem:near', String.raw`\begin{theorem}\label{thm:similar}
Let $f$ be a continuous function on a closed bounded interval $[a, b]$. Then $f$ is bounded and attains its maximum on $[a, b]$.
\end{theorem}
\begin{proof}
Take a maximising sequence and use ${cited ? String.raw`\ref{lem:used}` : 'compactness'}.
\end{proof}
\begin{theorem}\label{thm:now}
Let $f$ be a continuous function on a closed bounded interval $[a, b]$. Then $f$ attains its minimum on $[a, b]$.
\end{theorem}
\begin{proof}
Apply \ref{} to $-f$.
\end{proof}
Compare \ref{lem:near}${cited ? '' : String.raw` and \ref{lem:used}`}.
`);
    const relevance = async (cited: boolean) => {
      const r = await refRelevance(`votes-${cited}.tex`, doc(cited));
      return { used: r.of('lem:used'), near: r.of('lem:near'), all: r.all };
    };
    const without = await relevance(false), withVote = await relevance(true);
    assert.ok(without.near > without.used, `without the similar proof's \\ref, position decides: ${without.all}`);
    assert.ok(withVote.used > withVote.near, `the similar statement's proof votes for lem:used: ${withVote.all}`);
  });

  it('\\ref{ completion lifts what the proof of a result named like the statement \\ref\'s', async () => {
    // two proved theorems cite one lemma each: the one citing lem:near says more like the
    // theorem being proved, the one citing lem:used is named like it when `named` (and says
    // something else); lem:near also sits closer
    const doc = (named: boolean) => twoLemmas(sequences, 'lem:used', 'lem:near', String.raw`\begin{theorem}\label{${named ? 'thm:extreme-value-maximum' : 'thm:cantor-diagonal'}}
The real numbers are uncountable.
\end{theorem}
\begin{proof}
Use \ref{lem:used}.
\end{proof}
\begin{theorem}\label{thm:other}
Let $f$ be a continuous real function. Then $f$ is measurable.
\end{theorem}
\begin{proof}
Use \ref{lem:near}.
\end{proof}
\begin{theorem}\label{thm:extreme-value-minimum}
Let $f$ be a continuous function on a closed bounded interval. Then $f$ attains its minimum.
\end{theorem}
\begin{proof}
Apply \ref{} to $-f$.
\end{proof}
`);
    const relevance = async (named: boolean) => {
      const r = await refRelevance(`name-votes-${named}.tex`, doc(named));
      return { used: r.of('lem:used'), near: r.of('lem:near'), all: r.all };
    };
    const unnamed = await relevance(false), named = await relevance(true);
    assert.ok(unnamed.near > unnamed.used, `the textually nearer theorem's proof decides: ${unnamed.all}`);
    // the name's votes lift lem:used by more than a point, and lem:near (voted for by the
    // textually nearer theorem either way) does not move with them
    assert.ok(named.used > unnamed.used + 1, `the proof of the result named like the theorem votes for lem:used: ${named.all} || unnamed: ${unnamed.all}`);
    assert.ok(Math.abs(named.near - unnamed.near) < 0.5, `${named.all} || ${unnamed.all}`);
  });

  it('mathsense.search: a statement\'s name finds it in the index first; words find the workspace\'s lemma with its label; a formula searches equations', async () => {
    type R = { kind: string; items: Array<{ title: string; source: string; url?: string; licence?: string; label?: string; uri?: string; range?: unknown }> };
    const byName = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.search', arguments: [{ query: statementTitle }] }) as R;
    assert.equal(byName.kind, 'statement');
    const first = byName.items.find((x) => x.source === 'index')!;
    assert.equal(first.title, statementTitle);
    assert.match(first.url ?? '', /^https:\/\/proofwiki\.org\/wiki\//);
    assert.match(first.licence ?? '', /CC BY-SA/);
    const words = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.search', arguments: [{ query: 'finite group of prime order is cyclic', limit: 20 }] }) as R;
    const mine = words.items.find((x) => x.source === 'workspace' && x.label === 'lem:other');
    assert.ok(mine && mine.uri === uri && mine.range, JSON.stringify(words.items.slice(0, 5)));
    const eq = await client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.search', arguments: ['(a+b)^2 = a^2 + 2ab + b^2'] }) as R;
    assert.equal(eq.kind, 'equation');
    await assert.rejects(client.conn.sendRequest(ExecuteCommandRequest.type, { command: 'mathsense.search', arguments: [{ query: '  ' }] }), /mathsense\.search: expected/);
  });

  it('hover on a theorem answers within 50 ms (p95 over 40 requests)', async () => {
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, '\\begin{theorem}', 3 + (i % 5)) });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    assert.ok(times[Math.floor(times.length * 0.95)] < 250, `p95 ${times[Math.floor(times.length * 0.95)]} ms (generous bound on a loaded CI machine; eval-index.mjs measures the full index)`);
  });
});

describe('server without an index', { timeout: 120_000 }, () => {
  it('status says why; hover, completion and code actions still work', async () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'mathsense-noindex-'));
    const file = path.join(dir, 'a.tex');
    const text = String.raw`\documentclass{article}
\newtheorem{theorem}{Theorem}
\begin{document}
\begin{theorem}\label{thm:a}
Every bounded monotone sequence converges.
\end{theorem}
\begin{proof}
See \ref{thm:a}.
\end{proof}
\end{document}
`;
    fs.writeFileSync(file, text);
    const settings = { index: { path: path.join(dir, 'missing-index') } };
    const c = new Client(settings);
    try {
      await c.start(dir, settings);
      const u = pathToFileURL(file).href;
      await c.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: u, languageId: 'latex', version: 1, text } });
      let s: { index: { state: string; message?: string } } = { index: { state: 'idle' } };
      for (let i = 0; i < 100 && s.index.state !== 'unavailable'; i++) { s = await c.conn.sendRequest('mathsense/status') as typeof s; await new Promise((r) => setTimeout(r, 100)); }
      assert.equal(s.index.state, 'unavailable');
      assert.match(s.index.message!, /no index at .*npm run index:build/);
      const h = md(await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: posOf(text, 'ref{thm:a}', 5) }));
      assert.match(h, /Theorem/);
      const list = await c.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: posOf(text, 'ref{thm:a}', 4) }) as CompletionList;
      assert.ok(list.items.some((i) => i.label === 'thm:a'));
      const p = posOf(text, 'See');
      const actions = await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: u }, range: { start: p, end: p }, context: { diagnostics: [] } }) as CodeAction[];
      assert.deepEqual(actions, []);
    } finally {
      await c.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
