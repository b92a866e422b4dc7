// Typo fixes for undefined \ref and \cite keys on fixtures: the nearest names, best preferred.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture } from '../testing/fixture.js';
import { rangeText } from '../testing/snapshot.js';
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
  try {
    const doc = fx.doc('main.tex');
    const at = (needle: string) => { const o = doc.text.indexOf(needle) + 2; return { start: doc.positionAt(o), end: doc.positionAt(o) }; };
    const show = (needle: string) => typoFixes(fx.ws, doc, at(needle)).map((a) => `${a.title}${a.isPreferred ? ' *' : ''} @${rangeText(a.edit!.changes![doc.uri][0].range)}`);
    assert.deepEqual(show('thm:mian'), ["Change to 'thm:main' * @6:10-6:18", "Change to 'thm:mean' @6:10-6:18"]);
    // letter case alone counts for less than one edit
    assert.deepEqual(show('Thm:Main'), ["Change to 'thm:main' * @6:26-6:34"]);
    assert.deepEqual(show('thm:main}'), []);
    assert.deepEqual(show('cor:unrelated'), []);
    // the diagnostic the client sent along is attached to the fix
    const diag = { range: { start: doc.positionAt(doc.text.indexOf('thm:mian')), end: doc.positionAt(doc.text.indexOf('thm:mian') + 8) }, message: 'Undefined reference', code: 'undefined-ref' };
    assert.deepEqual(typoFixes(fx.ws, doc, at('thm:mian'), [diag])[0].diagnostics, [diag]);
  } finally {
    fx.cleanup();
  }
});

test('an undefined \\cite key: the nearest bibliography keys, only when every bibliography was read', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
See \cite{hartshrone} and \cite{serre}.
\bibliography{refs}
\end{document}
`);
  try {
    fs.writeFileSync(path.join(fx.dir, 'refs.bib'), '@book{hartshorne, title={AG}}\n@book{serre, title={GAGA}}\n');
    const doc = fx.doc('main.tex');
    const o = doc.text.indexOf('hartshrone') + 1;
    const fixes = typoFixes(fx.ws, doc, { start: doc.positionAt(o), end: doc.positionAt(o) });
    assert.deepEqual(fixes.map((f) => f.title), ["Change to 'hartshorne'"]);
    assert.equal(typoFixes(fx.ws, doc, { start: doc.positionAt(doc.text.indexOf('serre')), end: doc.positionAt(doc.text.indexOf('serre')) }).length, 0);
  } finally {
    fx.cleanup();
  }
  const missing = fixture(String.raw`
%! main.tex
\cite{hartshrone}
\bibliography{nowhere}
`);
  try {
    const doc = missing.doc('main.tex');
    assert.deepEqual(typoFixes(missing.ws, doc, { start: doc.positionAt(8), end: doc.positionAt(8) }), []);
  } finally {
    missing.cleanup();
  }
});

test('edit distance with transpositions, bounded; closest names within a typo\'s reach', () => {
  assert.equal(editDistance('thm:mian', 'thm:main', 3), 1);
  assert.equal(editDistance('kitten', 'sitting', 5), 3);
  assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
  // 7 characters: one edit at most ('lem:limit' and 'thm:lim' are two away)
  assert.deepEqual(closest('lem:lim', ['lem:lin', 'lem:limit', 'lem:lim2', 'thm:lim']), ['lem:lim2', 'lem:lin']);
  assert.deepEqual(closest('eq:sum', ['eq:sums', 'eq:sun', 'eq:cum', 'eq:sum']), ['eq:cum', 'eq:sums', 'eq:sun']);
});
