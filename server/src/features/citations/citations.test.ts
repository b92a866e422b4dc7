// Citations on fixtures: completion of keys inside \cite-like commands, hover, definition,
// references, the undefined-citation / missing bibliography diagnostics, \bibitem projects,
// the analyser's citation commands; the CLI reporting undefined-citation; and the Stacks
// project, where every \cite key of every chapter resolves in my.bib.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-types';
import { fixture } from '../../testing/fixture.js';
import { check, expect } from '../../testing/snapshot.js';
import {
  checkCompletion, checkDefinition, checkDiagnostics, checkReferences, cursorOf, renderCompletion, renderHover,
} from '../../testing/featureChecks.js';
import { repoRoot, sharedData } from '../../testing/paths.js';
import { citeCompletion, citeContextAt, citeDefinition, citeHover, citeReferences, citationSources } from './citations.js';
import { computeDiagnostics } from '../diagnostics/documentDiagnostics.js';
import { analyseBlock } from '../../syntax/blockAnalyser.js';
import { Workspace } from '../../project/workspace.js';

const BIB = String.raw`
@string{ams = {Amer. Math. Soc.}}
@article{euclid,
  author = {Euclid and Heath, Thomas L. and others},
  title = {The {T}hirteen {B}ooks of the {\'E}l\'ements},
  journal = {J. Anc. Geom.},
  volume = 1,
  year = {300},
}
@book{hartshorne,
  author = {Hartshorne, Robin},
  title = {Algebraic Geometry},
  publisher = ams # ", Providence",
  year = 1977,
}
`;

const PROJECT = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{sec}
\bibliography{refs}
\end{document}
%! sec.tex
As in \cite[p.~3]{euclid} and \citep{hartshorne, eucl<|>id}, \textcite{nowhere}.
\nocite{*}
%! refs.bib
` + BIB;

const md = (h: { contents: unknown } | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

test('completion inside \\cite-like commands: keys with author (year) and title/venue', () => {
  const fx = fixture(PROJECT);
  const { doc, offset } = cursorOf(fx);
  const list = citeCompletion(fx.ws, doc, offset)!;
  assert.equal(list.isIncomplete, false);
  // the key after the comma is replaced as a whole
  check(renderCompletion(list), expect`
    euclid — Euclid et al. (300) [1:50-1:56]
    hartshorne — Hartshorne (1977) [1:50-1:56]
  `);
  check(list.items.map((i) => `${i.label}:\n${(i.documentation as MarkupContent).value}`).join('\n\n'), expect`
    euclid:
    **Euclid, Thomas L. Heath, et al.**␠␠
    *The Thirteen Books of the Éléments*␠␠
    J. Anc. Geom. 1, 300

    \`@article\` · refs.bib:3

    hartshorne:
    **Robin Hartshorne**␠␠
    *Algebraic Geometry*␠␠
    Amer. Math. Soc., Providence, 1977

    \`@book\` · refs.bib:10
  `);
  // an empty `\cite{` already lists the keys; so do natbib/biblatex forms, after options and commas
  for (const text of ['\\cite{', '\\citep[see][p.~2]{', '\\parencite*{a,', '\\autocite{ ', '\\cites[x]{euclid}[y]{', '\\nocite{']) {
    const d = fx.ws.open(fx.uri('probe.tex'), 'latex', 1, `\\input{main}\n${text}`);
    assert.equal(citeCompletion(fx.ws, d, d.text.length)?.items.length, 2, text);
  }
  // not in a \ref, not after a closed \cite, not in \citestyle
  for (const text of ['\\ref{', '\\cite{a} {', '\\citestyle{']) {
    const d = fx.ws.open(fx.uri('probe.tex'), 'latex', 2, text);
    assert.equal(citeContextAt(d, d.text.length), undefined, text);
  }
});

test('hover on a key: the formatted entry with its .bib file:line; undefined keys say so', () => {
  const fx = fixture(PROJECT);
  const doc = fx.doc('sec.tex');
  const at = (needle: string) => doc.text.indexOf(needle) + 1;
  check(renderHover(fx, doc.uri, citeHover(fx.ws, doc, at('hartshorne'))), expect`
    sec.tex:1:38-1:48

    **Robin Hartshorne**␠␠
    *Algebraic Geometry*␠␠
    Amer. Math. Soc., Providence, 1977

    \`@book{hartshorne}\` — [refs.bib:10](file:///fixture/refs.bib#L10)
  `);
  check(renderHover(fx, doc.uri, citeHover(fx.ws, doc, at('nowhere'))), expect`
    sec.tex:1:69-1:76

    **Undefined citation** \`nowhere\`
  `);
  assert.equal(citeHover(fx.ws, doc, doc.text.indexOf('As in')), null);
});

test('definition goes to the .bib entry; references find every citation of the entry', () => {
  const main = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{sec}
\bibliography{refs}
\end{document}
`;
  // definition: the entry's key
  checkDefinition(main + String.raw`%! sec.tex
As in \cite[p.~3]{euclid} and \citep{hartshorne, euclid}, \textcite{nowhere}.
%                     |
%! refs.bib
@article{euclid, title = {Elements}}
         ^^^^^^
@book{hartshorne, title = {AG}}
`, citeDefinition);
  // references with the declaration: the key and both citations
  checkReferences(main + String.raw`%! sec.tex
As in \cite[p.~3]{euclid} and \citep{hartshorne, euclid}, \textcite{nowhere}.
                  ^^^^^^                         ^^^^^^
%                     |
%! refs.bib
@article{euclid, title = {Elements}}
         ^^^^^^
@book{hartshorne, title = {AG}}
`, true, citeReferences);
  // without it: the citations
  checkReferences(main + String.raw`%! sec.tex
As in \cite[p.~3]{euclid} and \citep{hartshorne, euclid}, \textcite{nowhere}.
                  ^^^^^^                         ^^^^^^
%                     |
%! refs.bib
@article{euclid, title = {Elements}}
@book{hartshorne, title = {AG}}
`, false, citeReferences);
  const fx = fixture(PROJECT);
  assert.equal(citeDefinition(fx.ws, fx.doc('sec.tex'), 0), undefined);
});

test('diagnostics: undefined-citation only when every bibliography was read; a missing .bib is reported instead', () => {
  const fx = checkDiagnostics(PROJECT, 'sec.tex', expect`
    1:69-1:76 warning undefined-citation: Undefined citation: no entry 'nowhere' in this project's bibliography (refs.bib)
  `);
  checkDiagnostics(fx, 'main.tex', expect``);
  // a second, missing bibliography: no undefined-citation, the missing file is reported
  const main = fx.doc('main.tex');
  fx.ws.change(main.uri, [{ range: { start: { line: 3, character: 18 }, end: { line: 3, character: 18 } }, text: ',gone' }], 2);
  checkDiagnostics(fx, 'sec.tex', expect``);
  checkDiagnostics(fx, 'main.tex', expect`
    4:20-4:24 warning missing-include: File not found: gone.bib (looked beside this file and up to 3 folders up); its entries are unknown, so citations are not checked
  `);
});

test('an unreadable .bib is a read error on the \\bibliography, never a crash', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\cite{x}
\bibliography{bin}
\end{document}
`);
  fx.memory!.writeFile(fx.path('bin.bib'), new Uint8Array([0x40, 0, 0, 1]));
  checkDiagnostics(fx, 'main.tex', expect`
    4:15-4:18 warning unreadable: Could not read bin.bib: binary file (contains NUL bytes); its entries are unknown, so citations are not checked
  `);
  assert.equal(citeHover(fx.ws, fx.doc('main.tex'), fx.doc('main.tex').text.indexOf('{x}') + 1), null);
  assert.equal(citeCompletion(fx.ws, fx.doc('main.tex'), fx.doc('main.tex').text.indexOf('{x}') + 1)?.items.length, 0);
});

test('thebibliography: \\bibitem keys complete, hover, resolve; no bibliography at all reports nothing', () => {
  const fx = fixture(String.raw`
%! paper.tex
\documentclass{article}
\begin{document}
See \cite{<|>ahl} and \cite{missing}.
\begin{thebibliography}{9}
\bibitem[Ahl]{ahl} L. Ahlfors, \emph{Complex Analysis}, 1953.
              ^^^
\end{thebibliography}
\end{document}
%! lone.tex
\cite{whatever}
`);
  const { doc, offset } = cursorOf(fx);
  checkCompletion(fx, expect`ahl — [Ahl] [3:11-3:14]`, citeCompletion);
  check(renderHover(fx, doc.uri, citeHover(fx.ws, doc, offset + 1)), expect`
    paper.tex:3:11-3:14

    L. Ahlfors, *Complex Analysis*, 1953.

    \`\bibitem[Ahl]{ahl}\` — [paper.tex:5](file:///fixture/paper.tex#L5)
  `);
  checkDefinition(fx, citeDefinition);
  checkDiagnostics(fx, 'paper.tex', expect`
    3:26-3:33 warning undefined-citation: Undefined citation: no entry 'missing' in this project's bibliography (\bibitem)
  `);
  checkDiagnostics(fx, 'lone.tex', expect``);
});

test('the analyser: cite commands, options, key lists, multicite, not \\citestyle', () => {
  const f = analyseBlock(String.raw`\cite[p.~3]{a, b} \citep{c} \citet*{d} \autocite[see][12]{e} \parencite{f} \textcite{g} \nocite{*} \footcite{h} \citeauthor{i} \cites[x]{j}[y]{k,l} \citestyle{alpha} \Citep{m}`);
  assert.deepEqual(f.cites.map((c) => `${c.cmd}:${c.key}`), [
    'cite:a', 'cite:b', 'citep:c', 'citet:d', 'autocite:e', 'parencite:f', 'textcite:g', 'nocite:*', 'footcite:h', 'citeauthor:i', 'cites:j', 'cites:k', 'cites:l', 'Citep:m',
  ]);
});

test('CLI: mathsense check reports undefined-citation', () => {
  // the CLI is another process: the files must be on disk
  const fx = fixture(PROJECT, { disk: true });
  try {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'server', 'dist', 'mathsense.cjs'), 'check', fx.dir], { cwd: fx.dir, encoding: 'utf8', timeout: 60_000 });
    const lines = r.stdout.split('\n').filter((l) => l.includes('citation'));
    assert.deepEqual(lines.map((l) => l.replace(fx.dir + path.sep, '')), [
      "sec.tex:1:69: warning: Undefined citation: no entry 'nowhere' in this project's bibliography (refs.bib) [undefined-citation]",
    ]);
  } finally {
    fx.cleanup();
  }
});

const stacks = path.join(sharedData, 'latex', 'stacks-project');

test('Stacks: my.bib loads and every \\cite key of every chapter resolves', { skip: !fs.existsSync(path.join(stacks, 'my.bib')) && 'no Stacks data' }, () => {
  const ws = new Workspace();
  const chapters = fs.readdirSync(stacks).filter((n) => n.endsWith('.tex')).sort();
  const docs = chapters.map((n) => ws.loadFile(path.join(stacks, n))!).filter(Boolean);
  const algebra = docs.find((d) => d.uri.endsWith('/algebra.tex'))!;
  const src = citationSources(ws, algebra);
  assert.equal(src.complete, true);
  assert.deepEqual(src.files.map((f) => [path.basename(f.path), f.file.entries.length]), [['my.bib', 704]]);
  let cites = 0;
  const unresolved: string[] = [];
  for (const d of docs) {
    for (const c of d.cites()) {
      cites++;
      if (c.key === '*') continue; // \nocite{*} (bibliography.tex)
      if (!citeDefinition(ws, d, c.start)?.length) unresolved.push(`${path.basename(d.uri)}: ${c.key}`);
    }
    for (const diag of computeDiagnostics(ws, d)) assert.notEqual(diag.code, 'undefined-citation', String(diag.message));
  }
  assert.ok(cites > 1000, `${cites} citations`);
  assert.deepEqual(unresolved, []);
  const off = algebra.text.indexOf('\\cite{MatCA}') + 6;
  assert.equal(citeCompletion(ws, algebra, off)!.items.find((i) => i.label === 'MatCA')?.detail, 'Matsumura (1970)');
  assert.match(md(citeHover(ws, algebra, off)), /^\*\*Hideyuki Matsumura\*\* {2}\n\*Commutative Algebra\* {2}\nW\. A\. Benjamin, Inc\., 1970\n\n`@book\{MatCA\}` — \[my\.bib:\d+\]/);
});
