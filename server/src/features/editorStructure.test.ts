// Folding ranges, document links and document highlights on fixtures (snapshots of line
// ranges, 1-based like editors show them).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DocumentHighlightKind, type DocumentHighlight, type DocumentSymbol } from 'vscode-languageserver-types';
import { fixture } from '../testing/fixture.js';
import { check, expect } from '../testing/snapshot.js';
import { checkFolding, checkLinks, cursorOf, rangeText, renderFolding } from '../testing/featureChecks.js';
import { foldingRanges } from './folding.js';
import { documentSymbols } from './symbols.js';
import { labelHighlights } from './labels/labelNavigation.js';
import { citeHighlights } from './citations/citations.js';

const PAPER = String.raw`
%! main.tex
\documentclass{article}
% A comment block
% of three
% lines
\begin{document}
\input{chapters/one}
\bibliography{refs,gone}
\section{Groups}\label{sec:groups}

\begin{theorem}[Lagrange]\label{thm:lagrange}
The order of a subgroup divides the order of the group.
\end{theorem}
\begin{proof}
By \cite{hall} and \cite{serre}, see \eqref{eq:index} and Section~\ref{sec:groups}:
\begin{equation}\label{eq:index}
  |G| = [G:H]\,|H| \end{equation}
Done, by \cite{hall}.
\end{proof}
\subsection{Cosets}
Text of \ref{thm:la<|>grange}.

\section{Rings}
% lone comment
\end{document}
%! chapters/one.tex
See Theorem~\ref{thm:lagrange}.
%! refs.bib
@book{hall, title = {The Theory of Groups}}
`;

test('folding: sections up to the next section or \\end{document}, environments with their \\end line visible, comment runs', () => {
  checkFolding(PAPER, 'main.tex', expect`
    2-4 comment: % A comment block … % lines
    8-20: \section{Groups}\label{sec:gro … Text of \ref{thm:lagrange}.
    10-11: \begin{theorem}[Lagrange]\labe … The order of a subgroup divide
    13-17: \begin{proof} … Done, by \cite{hall}.
    15-16: \begin{equation}\label{eq:inde …   |G| = [G:H]\,|H| \end{equati
    19-20: \subsection{Cosets} … Text of \ref{thm:lagrange}.
    22-23: \section{Rings} … % lone comment
  `);
});

test('folding under a client limit: the ranges nested least deep, in document order', () => {
  const fx = fixture(PAPER);
  const doc = fx.doc('main.tex');
  check(renderFolding(doc, foldingRanges(doc, 4)), expect`
    2-4 comment: % A comment block … % lines
    8-20: \section{Groups}\label{sec:gro … Text of \ref{thm:lagrange}.
    10-11: \begin{theorem}[Lagrange]\labe … The order of a subgroup divide
    22-23: \section{Rings} … % lone comment
  `);
  assert.equal(foldingRanges(doc, 0).length, 0);
  assert.equal(foldingRanges(doc, 100).length, foldingRanges(doc).length);
});

test('document links: included files and bibliographies that exist; missing ones get no link', () => {
  checkLinks(PAPER, 'main.tex', expect`
    6:8-6:20 → chapters/one.tex
    7:15-7:19 → refs.bib
  `);
});

test('document highlights: a label with its references in this document; a citation key with its other citations', () => {
  const fx = fixture(PAPER);
  const { doc, offset } = cursorOf(fx);
  const show = (hs: readonly DocumentHighlight[]) => hs.map((h) => `${rangeText(h.range)} ${h.kind === DocumentHighlightKind.Write ? 'write' : 'read'}`).join('\n');
  // the label (written) and the \ref in this file; chapters/one.tex is not this document
  check(show(labelHighlights(fx.ws, doc, offset)), expect`
    10:33-10:45 write
    20:14-20:26 read
  `);
  check(show(citeHighlights(doc, doc.text.indexOf('hall'))!), expect`
    14:10-14:14 read
    17:16-17:20 read
  `);
  assert.equal(citeHighlights(doc, 0), undefined);
  assert.deepEqual(labelHighlights(fx.ws, doc, 0), []);
});

test('outline of a huge document: the first entries, sections first, and an entry that says how many more there are', () => {
  const body = Array.from({ length: 5010 }, (_, i) => `\\begin{lemma}\\label{l${i}}$x_${i}$.\\end{lemma}`).join('\n');
  const fx = fixture(`%! main.tex\n\\documentclass{article}\n\\begin{document}\n\\section{All}\n${body}\n\\section{Last}\n\\end{document}\n`);
  const doc = fx.doc('main.tex');
  const roots = documentSymbols(fx.ws, doc) as DocumentSymbol[];
  assert.deepEqual(roots.map((r) => r.name), ['Section: All', 'Section: Last', '… 12 more sections and statements: the outline lists the first 5,000']);
  assert.equal(roots[0].children!.length, 4998);
  assert.equal(roots[0].children![0].detail, 'l0');
  const small = fixture(PAPER);
  const names = (documentSymbols(small.ws, small.doc('main.tex')) as DocumentSymbol[]).map((r) => r.name);
  assert.ok(!names.some((n) => n.startsWith('…')), names.join(', '));
});
