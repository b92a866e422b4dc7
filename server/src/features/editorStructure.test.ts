// Folding ranges, document links and document highlights on fixtures (snapshots of line
// ranges; lines are 1-based in rangeText, 0-based in folding ranges as LSP sends them).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fixture } from '../testing/fixture.js';
import { assertSnapshot, rangeText } from '../testing/snapshot.js';
import { foldingRanges } from './folding.js';
import { documentLinks } from './documentLinks.js';
import { labelHighlights } from './navigation.js';
import { citeHighlights } from './citations.js';
import { uriToPath } from '../project/files.js';

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
  const fx = fixture(PAPER);
  try {
    const doc = fx.doc('main.tex');
    const lines = doc.text.split('\n');
    const show = foldingRanges(doc).map((r) => `${r.startLine}-${r.endLine}${r.kind ? ` ${r.kind}` : ''}: ${lines[r.startLine].slice(0, 24)} … ${lines[r.endLine].slice(0, 24)}`).join('\n');
    assertSnapshot(show, String.raw`
      1-3 comment: % A comment block … % lines
      7-19: \section{Groups}\label{s … Text of \ref{thm:lagrang
      9-10: \begin{theorem}[Lagrange … The order of a subgroup 
      12-16: \begin{proof} … Done, by \cite{hall}.
      14-15: \begin{equation}\label{e …   |G| = [G:H]\,|H| \end{
      18-19: \subsection{Cosets} … Text of \ref{thm:lagrang
      21-22: \section{Rings} … % lone comment
    `);
  } finally {
    fx.cleanup();
  }
});

test('document links: included files and bibliographies that exist; missing ones get no link', () => {
  const fx = fixture(PAPER);
  try {
    const doc = fx.doc('main.tex');
    const links = documentLinks(fx.ws, doc).map((l) => `${rangeText(l.range)} -> ${path.relative(fx.dir, uriToPath(l.target!)!)}`);
    assert.deepEqual(links, ['6:8-6:20 -> chapters/one.tex', '7:15-7:19 -> refs.bib']);
  } finally {
    fx.cleanup();
  }
});

test('document highlights: a label with its references in this document; a citation key with its other citations', () => {
  const fx = fixture(PAPER);
  try {
    const { doc, offset } = fx.cursor!;
    const show = (hs: Array<{ range: Parameters<typeof rangeText>[0]; kind?: number }>) => hs.map((h) => `${rangeText(h.range)} ${h.kind === 3 ? 'write' : 'read'}`);
    // the label (written) and the \ref in this file; chapters/one.tex is not this document
    assert.deepEqual(show(labelHighlights(fx.ws, doc, offset)), ['10:33-10:45 write', '20:14-20:26 read']);
    const hall = doc.text.indexOf('hall');
    assert.deepEqual(show(citeHighlights(doc, hall)!), ['14:10-14:14 read', '17:16-17:20 read']);
    assert.equal(citeHighlights(doc, 0), undefined);
    assert.deepEqual(labelHighlights(fx.ws, doc, 0), []);
  } finally {
    fx.cleanup();
  }
});
