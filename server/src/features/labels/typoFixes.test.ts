// Typo fixes for undefined \ref and \cite keys on fixtures: the nearest names, best preferred.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { check, expect } from '../../testing/snapshot.js';
import { checkTypoFixes, renderActions } from '../../testing/featureChecks.js';
import { closest, editDistance, typoFixes } from './typoFixes.js';

test('an undefined \\ref: the project\'s nearest labels, the best preferred; nothing for a defined or a far name', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{theorem}\label{thm:main} A. \end{theorem}
\begin{theorem}\label{thm:mean} B. \end{theorem}
\input{more}
See \ref{thm:mian}, \ref{Thm:Main}, \ref{thm:main} and \ref{cor:unrelated}.
\end{document}
%! more.tex
\begin{lemma}\label{lem:key} C. \end{lemma}
`);
  const doc = fx.doc('main.tex');
  const at = (needle: string) => { const o = doc.text.indexOf(needle) + 2; return { start: doc.positionAt(o), end: doc.positionAt(o) }; };
  const show = (needle: string) => renderActions(fx, typoFixes(fx.ws, doc, at(needle)));
  check(show('thm:mian'), expect`
    Change to 'thm:main' (preferred)
      main.tex:6:10-6:18 → thm:main
    Change to 'thm:mean'
      main.tex:6:10-6:18 → thm:mean
  `);
  // letter case alone counts for less than one edit
  check(show('Thm:Main'), expect`
    Change to 'thm:main' (preferred)
      main.tex:6:26-6:34 → thm:main
  `);
  check(show('thm:main}'), expect``);
  check(show('cor:unrelated'), expect``);
  // the diagnostic the client sent along is attached to the fix
  const diag = { range: { start: doc.positionAt(doc.text.indexOf('thm:mian')), end: doc.positionAt(doc.text.indexOf('thm:mian') + 8) }, message: 'Undefined reference', code: 'undefined-ref' };
  assert.deepEqual(typoFixes(fx.ws, doc, at('thm:mian'), [diag])[0].diagnostics, [diag]);
});

test('an undefined \\cite key: the nearest bibliography keys, only when every bibliography was read', () => {
  const fx = checkTypoFixes(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
See \cite{hartshrone} and \cite{serre}.
%          |
\bibliography{refs}
\end{document}
%! refs.bib
@book{hartshorne, title={AG}}
@book{serre, title={GAGA}}
`, expect`
  Change to 'hartshorne' (preferred)
    main.tex:3:11-3:21 → hartshorne
`);
  const doc = fx.doc('main.tex');
  assert.equal(typoFixes(fx.ws, doc, { start: doc.positionAt(doc.text.indexOf('serre')), end: doc.positionAt(doc.text.indexOf('serre')) }).length, 0);
  checkTypoFixes(String.raw`
%! main.tex
\cite{hartshrone}
%       |
\bibliography{nowhere}
`, expect``);
});

test('edit distance with transpositions, bounded; closest names within a typo\'s reach', () => {
  assert.equal(editDistance('thm:mian', 'thm:main', 3), 1);
  assert.equal(editDistance('kitten', 'sitting', 5), 3);
  assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
  // 7 characters: one edit at most ('lem:limit' and 'thm:lim' are two away)
  assert.deepEqual(closest('lem:lim', ['lem:lin', 'lem:limit', 'lem:lim2', 'thm:lim']), ['lem:lim2', 'lem:lin']);
  assert.deepEqual(closest('eq:sum', ['eq:sums', 'eq:sun', 'eq:cum', 'eq:sum']), ['eq:cum', 'eq:sums', 'eq:sun']);
});
