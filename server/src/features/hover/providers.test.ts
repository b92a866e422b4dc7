// The order of the hover kinds: one answer per place, the first kind that answers. The services'
// parts (a citation, a term's senses, candidate proofs) are given as plain answers here; the index
// behind them is tested in scripts/src/indexBuild/indexFeatures.test.ts over stdio.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-types';
import { fixture } from '../../testing/fixture.js';
import { hoverAnswer, type HoverSources } from './providers.js';

const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\usepackage{amsthm}
\newtheorem{theorem}{Theorem}
\begin{document}
\begin{theorem}[Main]\label{thm:main}
Every group is a set.
\end{theorem}
See \ref{thm:main} about groups.
\end{document}
`);
const doc = fx.doc('main.tex');
const at = (s: string, k = 2) => doc.text.indexOf(s) + k;
const text = (h: Hover | null) => (h ? (h.contents as MarkupContent).value : 'none');
const all: HoverSources = {
  steps: [],
  term: () => ({ md: 'TERM', range: doc.range(0, 1) }),
  proofs: () => 'PROOFS',
};

test('a label on a statement head: what it labels, then candidate proofs', () => {
  const v = text(hoverAnswer(fx.ws, doc, at('thm:main}'), all));
  assert.match(v, /Referenced 1 time/);
  assert.match(v, /\n\n---\n\nPROOFS$/);
});

test('a reference answers before a term; left to a neighbour, the term answers; proofs never on a reference', () => {
  assert.match(text(hoverAnswer(fx.ws, doc, at('\\ref{thm'), all)), /Theorem/);
  assert.equal(text(hoverAnswer(fx.ws, doc, at('\\ref{thm'), { ...all, references: false })), 'TERM');
  assert.equal(text(hoverAnswer(fx.ws, doc, at('\\ref{thm'), { steps: [], references: false, proofs: all.proofs })), 'none');
});

test('a statement head without a label: a term first, else candidate proofs; nothing in the body', () => {
  assert.equal(text(hoverAnswer(fx.ws, doc, at('\\begin{theorem}'), all)), 'TERM');
  assert.equal(text(hoverAnswer(fx.ws, doc, at('\\begin{theorem}'), { steps: [], proofs: all.proofs })), 'PROOFS');
  assert.equal(text(hoverAnswer(fx.ws, doc, at('Every group'), { steps: [], proofs: all.proofs })), 'none');
});

test('a citation answers first, whatever else the place holds', () => {
  const cite: Hover = { contents: { kind: 'markdown', value: 'CITE' } };
  assert.equal(text(hoverAnswer(fx.ws, doc, at('thm:main}'), { ...all, citation: () => cite })), 'CITE');
});
