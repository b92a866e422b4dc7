// Numbers from a real LaTeX run (pdflatex from TeX Live, as .ci/run installs it): a project with
// amsthm, hyperref and cleveref and an \include'd chapter is compiled twice; then, over stdio, a
// \ref hover says "Lemma 1.1", inlay hints after \ref, \eqref, \cref and \pageref show what the
// PDF shows (the chapter's label from the chapter's .aux), the outline and label completion carry
// the numbers, an edited source makes them "at last compilation", and a project never compiled
// gets none. The .aux reader also on its own.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, InlayHintRequest, DocumentSymbolRequest, CompletionRequest,
  type ProtocolConnection, type Hover, type DocumentSymbol, type CompletionList,
} from 'vscode-languageserver-protocol/node';
import { numberedName, parseAux } from '../project/auxNumbers.js';
import { LspClient } from './lspClient.js';
import { documentSymbols } from '../features/symbols.js';
import { fixture } from '../testing/fixture.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverBundle = path.join(repoRoot, 'server', 'dist', 'mathsense.cjs');

const MAIN = String.raw`\documentclass{article}
\usepackage{amsmath,amsthm}
\usepackage{hyperref}
\usepackage{cleveref}
\newtheorem{lemma}{Lemma}[section]
\begin{document}
\section{Sets}\label{sec:sets}
\begin{lemma}[Key lemma]\label{lem:key}
Every set is a set.
\end{lemma}
\begin{equation}\label{eq:one}
x = 1
\end{equation}
By Lemma~\ref{lem:key}, \eqref{eq:one} and \cref{lem:key} on page~\pageref{lem:key}; see \cref{lem:chap}.
\include{chap}
\end{document}
`;
const CHAP = String.raw`\section{More}
\begin{lemma}\label{lem:chap}
Again, by \cref{lem:key}.
\end{lemma}
`;

const value = (h: Hover | null) => (h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '');

describe('numbers from the last LaTeX run', { timeout: 120_000 }, () => {
  let dir: string;
  let client: LspClient;
  let conn: ProtocolConnection;
  let refreshes = 0;
  const uri = () => pathToFileURL(path.join(dir, 'main.tex')).href;

  before(async () => {
    assert.ok(fs.existsSync(serverBundle), `${serverBundle} missing: run node scripts/build.mjs`);
    const which = spawnSync('pdflatex', ['--version']);
    assert.equal(which.status, 0, 'pdflatex not found: install TeX Live (apt-get install texlive-latex-base texlive-latex-recommended texlive-latex-extra)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mathsense-aux-'));
    fs.writeFileSync(path.join(dir, 'main.tex'), MAIN);
    fs.writeFileSync(path.join(dir, 'chap.tex'), CHAP);
    for (let i = 0; i < 2; i++) {
      const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'main.tex'], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout.slice(-2000));
    }
    // the sources are older than the run
    const past = new Date(Date.now() - 60_000);
    for (const f of ['main.tex', 'chap.tex']) fs.utimesSync(path.join(dir, f), past, past);
    client = new LspClient({ bundle: serverBundle });
    conn = client.conn;
    conn.onRequest('workspace/inlayHint/refresh', () => { refreshes++; return null; });
    const init = await client.initialize(undefined, { workspace: { inlayHint: { refreshSupport: true } } }, { rootUri: pathToFileURL(dir).href });
    assert.equal(init.capabilities.inlayHintProvider, true);
    await conn.sendRequest('mathsense/status');
    client.open(uri(), MAIN);
  });

  after(async () => {
    try { await client.stop(); } finally {
      client.kill(); fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const line = 13; // By Lemma~\ref{lem:key}, …
  const col = (s: string) => MAIN.split('\n')[line].indexOf(s);

  it('hover on \\ref says "Lemma 1.1" and its page', async () => {
    const md = value(await conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri() }, position: { line, character: col('lem:key') + 2 } }));
    assert.match(md, /^\*\*Lemma 1\.1\*\* · page 1\n/);
    assert.doesNotMatch(md, /at last compilation/);
  });

  it('inlay hints show what the PDF prints after each reference, the chapter\'s from its own .aux', async () => {
    const hints = await conn.sendRequest(InlayHintRequest.type, { textDocument: { uri: uri() }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
    assert.deepEqual(hints!.map((h) => [h.position.line, h.label]), [[line, '1.1'], [line, '(1)'], [line, 'lemma 1.1'], [line, '1'], [line, 'lemma 2.1']]);
    // after the closing brace
    assert.equal(hints![0].position.character, col('lem:key}') + 'lem:key}'.length);
  });

  it('the client is asked for inlay hints again once the project is read and after a LaTeX run', async () => {
    const until = async (n: number) => { for (let i = 0; i < 100 && refreshes < n; i++) await new Promise((r) => setTimeout(r, 50)); };
    await until(1);
    assert.ok(refreshes >= 1, 'a refresh once the folder scan has read the project');
    const before = refreshes;
    await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(path.join(dir, 'main.aux')).href, type: FileChangeType.Changed }] });
    await until(before + 1);
    assert.equal(refreshes, before + 1, 'one refresh for the new .aux');
  });

  it('the outline and label completion show the numbers', async () => {
    const symbols = await conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri() } }) as DocumentSymbol[];
    const sets = symbols.find((x) => x.name === 'Section: Sets')!;
    assert.equal(sets.detail, '1 · sec:sets');
    assert.equal(sets.children!.find((x) => x.name.startsWith('Lemma'))!.detail, '1.1 · lem:key');
    const items = await conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri() }, position: { line, character: col('lem:key') + 1 } }) as CompletionList;
    assert.match(items.items.find((x) => x.label === 'lem:key')!.detail ?? '', /^1\.1 · /);
  });

  it('an edited source makes the numbers "at last compilation"', async () => {
    fs.utimesSync(path.join(dir, 'chap.tex'), new Date(), new Date(Date.now() + 5000));
    await new Promise((r) => setTimeout(r, 1100)); // the server looks at the files again after a second
    const md = value(await conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri() }, position: { line, character: col('lem:key') + 2 } }));
    assert.match(md, /^\*\*Lemma 1\.1\*\* · page 1 · \*at last compilation\*/);
    const hints = await conn.sendRequest(InlayHintRequest.type, { textDocument: { uri: uri() }, range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } } });
    assert.match(String(hints![0].tooltip), /^At last compilation \(main\.aux\)/);
  });

  it('no .aux: no hints, no numbers', async () => {
    const other = path.join(dir, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'doc.tex'), MAIN.replace('\\include{chap}', ''));
    const u = pathToFileURL(path.join(other, 'doc.tex')).href;
    client.open(u, MAIN.replace('\\include{chap}', ''));
    assert.deepEqual(await conn.sendRequest(InlayHintRequest.type, { textDocument: { uri: u }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } }), []);
    assert.doesNotMatch(value(await conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: { line, character: col('lem:key') + 2 } })), /Lemma 1\.1/);
  });

  it('the reader: plain, hyperref and cleveref lines; \\@input; TeX in numbers', () => {
    const r = parseAux(String.raw`\newlabel{a}{{3}{7}}
\newlabel{b}{{2.3}{5}{Key}{lemma.2.3}{}}
\newlabel{b@cref}{{[theorem][3][2]2.3}{[1][5][]5}}
\newlabel{c}{{\textup {(ii)}}{9}{}{Item.4}{}}
\@input{ch1.aux}`);
    assert.deepEqual(r.labels.get('a'), { number: '3', page: '7' });
    assert.deepEqual(r.labels.get('b'), { number: '2.3', page: '5', title: 'Key', kind: 'theorem' });
    assert.deepEqual(r.labels.get('c'), { number: '(ii)', page: '9', numberTex: '\\textup {(ii)}' });
    assert.deepEqual(r.inputs, ['ch1.aux']);
  });

  it('names and numbers as the PDF prints them: the declared name of a renamed counter, \\the… with math, cleveref overrides', () => {
    const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{amsthm,cleveref}
\newtheorem{problem}{Problem}[chapter]
\newtheorem{xproblem}[problem]{Problem}
\renewcommand{\thexproblem}{\theproblem$^{\dagger}$}
\newtheorem{claimx}{Claim}
\crefname{claimx}{claim}{claims}
\Crefname{claimx}{Assertion}{Assertions}
\begin{document}
\begin{xproblem}\label{p}
Find all primes.
\end{xproblem}
\end{document}
`);
    const ws = fx.ws;
    const doc = fx.doc('main.tex');
    const aux = parseAux(String.raw`\newlabel{p}{{3A$^{\dagger }$}{4}{}{xproblem.3.1}{}}
\newlabel{p@cref}{{[xproblem][1][3]3A$^{\dagger }$}{[1][4][]4}}
\newlabel{q}{{2}{5}{}{claimx.2}{}}
\newlabel{q@cref}{{[claimx][2][]2}{[1][5][]5}}
\newlabel{r}{{7\weird }{6}{}{mystery.7}{}}`);
    const name = (key: string, style: 'cref' | 'Cref' = 'Cref', plural = false) => numberedName(ws, doc, aux.labels.get(key)!, style, plural);
    assert.equal(name('p'), 'Problem 3A†');
    assert.equal(name('q'), 'Assertion 2');
    assert.equal(name('q', 'cref'), 'claim 2');
    assert.equal(name('q', 'cref', true), 'claims 2');
    // a number holding what cannot be written out is left out, not guessed
    assert.equal(name('r'), undefined);
    // the outline shows the number as printed too, not with its TeX dropped ("3A$^$")
    const outline = documentSymbols(ws, doc, { labels: aux.labels, file: '/main.aux', stale: false });
    assert.equal(outline.find((x) => x.name.startsWith('Problem'))?.detail, '3A† · p');
  });
});
