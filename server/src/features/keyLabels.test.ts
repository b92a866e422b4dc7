// Labels given as keys of an environment's options: `\begin{Exercise}[label={ex:x}]` (the exercise
// package), `\begin{theorem}[name=Zorn, label=thm:z]` (thmtools). References to them resolve,
// they label their environment, and the keys are not the statement's title.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { computeDiagnostics } from './diagnostics/documentDiagnostics.js';
import { statements, labelTarget } from '../analysis/structure.js';

const PROJECT = String.raw`
%! main.tex
\documentclass{book}
\usepackage{exercise,thmtools}
\declaretheorem{theorem}
\begin{document}
\begin{Exercise}[label={ex:rotate}]
Write the right rotation.
\end{Exercise}
\begin{Answer}[ref = {ex:rotate}]
Symmetric.
\end{Answer}
\begin{theorem}[name=Zorn, label = thm:zorn]
Every chain has an upper bound.
\end{theorem}
\begin{theorem}[Plain title]\label{thm:plain}
x
\end{theorem}
As in \cref{ex:rotate}, by \ref{thm:zorn} and \ref{thm:plain}; \ref{ex:missing} is not there.
\end{document}
`;

test('a label=… option defines a label of its environment; a name=… option is the title', () => {
  const fx = fixture(PROJECT);
  const doc = fx.doc('main.tex');
  const undefinedRefs = computeDiagnostics(fx.ws, doc).filter((d) => d.code === 'undefined-ref').map((d) => doc.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)));
  assert.deepEqual(undefinedRefs, ['ex:missing']);
  const byName = new Map(doc.labels().map((l) => [l.name, l]));
  assert.equal(doc.text.slice(byName.get('thm:zorn')!.start, byName.get('thm:zorn')!.end), 'thm:zorn');
  // inside the environment it labels, as `\label` right after `\begin` is
  assert.equal(doc.envs()[byName.get('ex:rotate')!.env].name, 'Exercise');
  assert.equal(labelTarget(fx.ws, doc, byName.get('thm:zorn')!).env?.name, 'theorem');
  const theorems = statements(fx.ws, doc).filter((s) => s.env.name === 'theorem');
  assert.deepEqual(theorems.map((s) => [s.title, s.labels.map((l) => l.name)]), [['Zorn', ['thm:zorn']], ['Plain title', ['thm:plain']]]);
});
