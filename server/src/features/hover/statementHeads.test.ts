// Which theorem heads offer candidate proofs: what the project's declarations print and the
// counters they share decide, never the \theoremstyle they were declared under.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { statementHeadAt } from './providers.js';

test('candidate-proof heads: theorems under any style, by name or shared counter; never definitions, examples, exercises or remarks', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\usepackage{amsthm,thmtools}
\theoremstyle{definition}
\newtheorem{thm}{Theorem}[section]
\newtheorem{satz}[thm]{Satz}
\newtheorem{rezept}[thm]{Rezept}
\newtheorem{defn}[thm]{Definition}
\newtheorem{xca}{Exercise}
\declaretheorem[style=remark,name=Lemma]{mylemma}
\theoremstyle{plain}
\newtheorem{plaindef}{Definition}
\newtheorem{example}{Example}
\newtheorem{principle}{Principle}
\begin{document}
\begin{thm}[Sylow theorems] A. \end{thm}
\begin{satz} B. \end{satz}
\begin{rezept} C. \end{rezept}
\begin{mylemma}[Lagrange] D. \end{mylemma}
\begin{principle}[Pigeonhole] E. \end{principle}
\begin{defn} F. \end{defn}
\begin{plaindef} G. \end{plaindef}
\begin{example} H. \end{example}
\begin{xca} I. \end{xca}
\end{document}
`);
  const doc = fx.doc('main.tex');
  const heads = ['thm', 'satz', 'rezept', 'mylemma', 'principle', 'defn', 'plaindef', 'example', 'xca'].filter((env) => {
    const at = doc.text.indexOf(`\\begin{${env}}`) + 3;
    return statementHeadAt(fx.ws, doc, at) !== undefined;
  });
  // `rezept` shares the theorem counter: numbered as a theorem, a result proofs are written for
  assert.deepEqual(heads, ['thm', 'satz', 'rezept', 'mylemma', 'principle']);
});
