// Completion of environment names after \begin{ / \end{ and of the project's macros after a
// backslash, on fixtures with cursor markers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { expect } from '../../testing/snapshot.js';
import { checkCompletion, cursorOf } from '../../testing/featureChecks.js';
import { environmentCompletion, macroCompletion, openEnvironment } from './environmentCompletion.js';

const PREAMBLE = String.raw`
%! main.tex
\documentclass{article}
\newtheorem{thm}{Theorem}
\newtheorem*{mainthm}{Main Theorem}
\newcommand{\Z}{\mathbb{Z}}
\newcommand{\norm}[1]{\lVert #1 \rVert}
\DeclareMathOperator{\Hom}{Hom}
\begin{document}
\input{body}
\end{document}
`;

test('\\begin{: the project\'s theorem-like environments, those it uses, then the common ones', () => {
  // in the order an editor lists them; the typed name is replaced, up to the closing brace
  const fx = checkCompletion(PREAMBLE + String.raw`%! body.tex
\begin{mycases}x\end{mycases}
\begin{th<|>}
`, expect`
  mainthm — Main Theorem, unnumbered (theorem-like) [2:8-2:10]
  thm — Theorem (theorem-like) [2:8-2:10]
  mycases — used in this project [2:8-2:10]
  th — used in this project [2:8-2:10]
  abstract — abstract [2:8-2:10]
  align — aligned equations, numbered [2:8-2:10]
  align* — aligned equations [2:8-2:10]
  alignat — alignment with set spacing [2:8-2:10]
  aligned — alignment inside math [2:8-2:10]
  array — array [2:8-2:10]
  bmatrix — [matrix] [2:8-2:10]
  cases — cases [2:8-2:10]
  center — centred [2:8-2:10]
  description — description list [2:8-2:10]
  document — the document body [2:8-2:10]
  enumerate — numbered list [2:8-2:10]
  equation — numbered display [2:8-2:10]
  equation* — display [2:8-2:10]
  figure — float [2:8-2:10]
  flalign — full-width alignment [2:8-2:10]
  gather — centred equations, numbered [2:8-2:10]
  gather* — centred equations [2:8-2:10]
  itemize — bulleted list [2:8-2:10]
  matrix — matrix [2:8-2:10]
  multline — one long equation, numbered [2:8-2:10]
  multline* — one long equation [2:8-2:10]
  pmatrix — (matrix) [2:8-2:10]
  proof — proof (amsthm) [2:8-2:10]
  quote — quotation [2:8-2:10]
  split — split inside an equation [2:8-2:10]
  table — float [2:8-2:10]
  tabular — table body [2:8-2:10]
  thebibliography — \bibitem list [2:8-2:10]
  verbatim — verbatim text [2:8-2:10]
  vmatrix — |matrix| [2:8-2:10]
`, environmentCompletion);
  const { doc, offset } = cursorOf(fx);
  // amsthm's default names are not offered unless the project defines or uses them
  assert.equal(environmentCompletion(fx.ws, doc, offset)!.items.some((i) => i.label === 'lemma'), false);
});

test('\\end{: the innermost open environment first and preselected (comments and closed ones skipped)', () => {
  const fx = fixture(PREAMBLE + String.raw`%! body.tex
\begin{thm}
\begin{align}
  a &= b \\
  % \begin{cases}
  c &= d \% not a comment \begin{equation} x \end{equation}
\end{<|>
`);
  const { doc, offset } = cursorOf(fx);
  const list = environmentCompletion(fx.ws, doc, offset)!;
  const first = list.items.find((i) => i.preselect);
  assert.equal(first?.label, 'align');
  assert.equal(first?.sortText, '0align');
  assert.equal(openEnvironment('\\begin{a}\\begin{b}\\end{b}', 25), 'a');
  assert.equal(openEnvironment('\\begin{a}\\end{a}', 16), undefined);
  assert.equal(environmentCompletion(fx.ws, doc, 3), null);
});

test('after a backslash: the project\'s macros with their arguments and definition; not after \\\\', () => {
  // the whole command name is replaced, backslash included
  const fx = checkCompletion(PREAMBLE + String.raw`%! body.tex
Let $x \in \no<|>$ and \\
`, expect`
  \Hom — no arguments · \DeclareMathOperator [1:12-1:15]
  \norm — 1 argument · \newcommand [1:12-1:15]
  \Z — no arguments · \newcommand [1:12-1:15]
`, macroCompletion);
  const { doc, offset } = cursorOf(fx);
  const norm = macroCompletion(fx.ws, doc, offset)!.items.find((i) => i.label === '\\norm');
  assert.match((norm?.documentation as { value: string }).value, /\\lVert #1 \\rVert/);
  // a line break `\\` is not a command being typed
  assert.equal(macroCompletion(fx.ws, doc, doc.text.indexOf('\\\\') + 2), null);
});
