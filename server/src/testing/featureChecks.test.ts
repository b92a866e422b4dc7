// The per-feature checks fail when the feature and the fixture disagree: a definition off by a
// character, a reference too many, a file outside the fixture named by its URI, completion in
// the order an editor lists it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkDefinition, checkReferences, fileName, renderCompletion } from './featureChecks.js';
import { fixture } from './fixture.js';

const PROJECT = (labelMark: string, refMarks: string) => String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\section{A}\label{sec:a}
${labelMark}
See \ref{sec:a} and \ref{sec:a}.
%         |
${refMarks}
\end{document}
`;

test('definition and references are compared with the ^^^ ranges, exactly', () => {
  checkDefinition(PROJECT('                  ^^^^^', ''));
  assert.throws(() => checkDefinition(PROJECT('                  ^^^^', '')), /main\.tex:3:19-3:24/);
  assert.throws(() => checkDefinition(PROJECT('', '')), /main\.tex:3:19-3:24/);
  checkReferences(PROJECT('', '         ^^^^^           ^^^^^'), false);
  checkReferences(PROJECT('                  ^^^^^', '         ^^^^^           ^^^^^'), true);
  assert.throws(() => checkReferences(PROJECT('', '         ^^^^^'), false), /AssertionError|strictly equal/);
});

test('places name fixture files by their fixture name, others by URI; completion in editor order', () => {
  const fx = fixture('%! sub/a.tex\nx\n');
  assert.equal(fileName(fx, fx.uri('sub/a.tex')), 'sub/a.tex');
  assert.equal(fileName(fx, 'file:///elsewhere/b.tex'), 'file:///elsewhere/b.tex');
  assert.equal(renderCompletion({ isIncomplete: false, items: [{ label: 'b', sortText: '1' }, { label: 'a', sortText: '2', detail: 'A' }, { label: 'c', sortText: '1' }] }), 'b\nc\na — A');
  assert.equal(renderCompletion(null), 'null');
});
