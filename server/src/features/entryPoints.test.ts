// The entry points own "which answer wins" at a place (features/hover.ts#hoverAt, complete.ts,
// navigate.ts, codeActions.ts), with the per-folder provider switches a neighbour extension
// relies on: a switched-off provider answers nothing, and no other provider answers in its place.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { fixture } from '../testing/fixture.js';
import { expect } from '../testing/snapshot.js';
import { checkCompletion, checkDefinition, cursorOf } from '../testing/featureChecks.js';
import { testContext, DEFAULT_FEATURE_SETTINGS } from '../testing/featureContext.js';
import { hoverAt } from './hover.js';
import { completeAt } from './complete.js';
import { definitionAt } from './navigate.js';
import { codeActionsAt } from './codeActions.js';
import { DerivationChecker } from '../math/checker.js';
import { checkWorkspaceDocumentSync } from '../math/service.js';

const project = (sec: string) => String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{theorem}[Lagrange]\label{thm:lagrange}
The order of $H$ divides the order of $G$.
\end{theorem}
\input{sec}
\bibliography{refs}
\end{document}
%! sec.tex
${sec}
%! refs.bib
@book{knuth, author = {Knuth, Donald}, title = {The Art of Computer Programming}, year = 1968}
`;

const off = (p: Partial<typeof DEFAULT_FEATURE_SETTINGS.providers>) => ({ providers: { ...DEFAULT_FEATURE_SETTINGS.providers, ...p } });
const md = (h: { contents: unknown } | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

test('hover: a citation key shows its entry; switched off, nothing (not the label hover)', () => {
  const fx = fixture(project(String.raw`By \cite{kn<|>uth} and \ref{thm:lagrange}.`));
  const { doc, offset } = cursorOf(fx);
  assert.match(md(hoverAt(testContext(fx.ws), doc, offset)), /Knuth.*1968/s);
  assert.equal(hoverAt(testContext(fx.ws, { settings: off({ citationHover: false }) }), doc, offset), null);
});

test('hover: a \\ref shows its theorem, math as the client shows it; switched off, nothing', () => {
  const fx = fixture(project(String.raw`By \ref{thm:lag<|>range}.`));
  const { doc, offset } = cursorOf(fx);
  const h = md(hoverAt(testContext(fx.ws), doc, offset));
  assert.match(h, /\*\*Theorem\*\* \(Lagrange\)/);
  assert.match(h, /`\$H\$`/, 'source mode: inline math as a code span, whatever renders it');
  assert.equal(hoverAt(testContext(fx.ws, { settings: off({ referenceHover: false }) }), doc, offset), null);
});

test('hover: a flagged derivation step wins over everything else at its place', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\begin{equation}
(a - b)(a + b) = a^2 + ab - ba - b^2 = a^2 + b<|>^2
\end{equation}
\end{document}
`);
  const { doc, offset } = cursorOf(fx);
  const steps = checkWorkspaceDocumentSync(fx.ws, doc, new DerivationChecker());
  assert.match(md(hoverAt(testContext(fx.ws, { steps: () => steps }), doc, offset)), /does not follow/i);
  const actions = codeActionsAt(testContext(fx.ws, { steps: () => steps }), doc, { start: doc.positionAt(offset), end: doc.positionAt(offset) }, []);
  assert.ok(actions.some((a) => /ignore/i.test(a.title)), actions.map((a) => a.title).join(', '));
});

test('completion: keys inside \\cite{, labels inside \\ref{, each switch leaves its place empty', () => {
  checkCompletion(project(String.raw`See \cite{<|>}.`), expect`knuth — Knuth (1968) [1:11-1:11]`, (ws, doc, offset) => completeAt(testContext(ws), doc, offset));
  const cite = fixture(project(String.raw`See \cite{<|>}.`));
  const c = cursorOf(cite);
  assert.equal(completeAt(testContext(cite.ws, { settings: off({ citationCompletion: false }) }), c.doc, c.offset), null, 'not labels, not macros');
  const ref = fixture(project(String.raw`See \ref{<|>}.`));
  const r = cursorOf(ref);
  assert.deepEqual(completeAt(testContext(ref.ws), r.doc, r.offset)?.items.map((i) => i.label), ['thm:lagrange']);
  assert.equal(completeAt(testContext(ref.ws, { settings: off({ labelCompletion: false }) }), r.doc, r.offset), null);
});

test('definition: a citation key goes to its entry, a \\ref to its label', () => {
  checkDefinition(String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\label{sec:a}
       ^^^^^
See \ref{sec<|>:a}.
\end{document}
`);
  const fx = fixture(project(String.raw`By \cite{kn<|>uth}.`));
  const { doc, offset } = cursorOf(fx);
  const locs = definitionAt(testContext(fx.ws), doc.uri, doc.positionAt(offset));
  assert.equal(locs.length, 1);
  assert.match(locs[0].uri, /refs\.bib$/);
});

test('hover: candidate proofs on a theorem head (declared under \\theoremstyle{definition}) have their own switch', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{article}
\theoremstyle{definition}
\newtheorem{theorem}{Theorem}
\begin{document}
\begin{the<|>orem}[Lagrange]\label{thm:lag}
The order of a subgroup divides the order of the group.
\end{theorem}
\begin{proof}
The cosets partition the group and have equal sizes.
\end{proof}
\end{document}
`);
  const { doc, offset } = cursorOf(fx);
  const on = md(hoverAt(testContext(fx.ws), doc, offset));
  assert.match(on, /cosets partition/, 'the project\'s own proof is a candidate, under \\theoremstyle{definition} too');
  assert.doesNotMatch(md(hoverAt(testContext(fx.ws, { settings: off({ candidateProofHover: false }) }), doc, offset)), /cosets partition/);
});

test('hover: a theorem declared with hyphenation hints in its name (The\\-o\\-rem) is headed by the name the PDF prints', () => {
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\newtheorem{theorem}{The\-o\-rem}
\begin{document}
\begin{theorem}\label{thm:a}
Every $x$.
\end{theorem}
See Theorem~\ref{thm:<|>a}.
\end{document}
`);
  const { doc, offset } = cursorOf(fx);
  assert.match(md(hoverAt(testContext(fx.ws), doc, offset)), /^\*\*Theorem\*\* · `thm:a`/);
});
