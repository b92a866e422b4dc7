// Labels and references written through the project's own macros, as diagnostics see them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import type { MarkupContent } from 'vscode-languageserver-types';
import { computeDiagnostics } from '../features/diagnostics/documentDiagnostics.js';
import { hoverAnswer as hover } from '../features/hover/providers.js';
import { definition, findReferences } from '../features/labels/labelNavigation.js';
import { completion } from '../features/labels/labelCompletion.js';

const SPEC = `
%! main.tex
\\documentclass{article}
\\newcommand{\\thmlabel}[1]{\\label{thm:#1}}
\\newcommand{\\lemref}[1]{Lemma~\\ref{lem:#1}}
\\newcommand{\\pg}[1]{p.~\\pageref{#1}}
\\newcommand{\\seeeq}[2][see]{#1 \\eqref{eq:#2}}
\\begin{document}
\\input{body}
\\end{document}
%! body.tex
\\begin{theorem}\\thmlabel{main} X \\end{theorem}
\\begin{lemma}\\label{lem:foo} Y \\end{lemma}
\\begin{lemma}\\label{lem:page} Z \\end{lemma}
\\begin{equation} a=b \\label{eq:ab}\\end{equation}
By \\ref{thm:main}, \\lemref{foo} (\\pg{lem:page}) and \\lemref{typo}, \\seeeq{ab}, \\seeeq[cf.]{nope}.
% \\lemref{commented}
`;

test('macros that wrap \\label and \\ref: their uses resolve, typos are reported, the labels they name are used', () => {
  const fx = fixture(SPEC);
  const body = fx.doc('body.tex');
  const d = computeDiagnostics(fx.ws, body, { unusedLabels: true, structure: true });
  assert.deepEqual(d.map((x) => `${x.range.start.line + 1}:${x.range.start.character + 1} ${x.code}: ${x.message}`), [
    '5:61 undefined-ref: Undefined reference: no \\label{lem:typo} in this project (through \\lemref)',
    '5:92 undefined-ref: Undefined reference: no \\label{eq:nope} in this project (through \\seeeq)',
  ]);
});

const BOOK = `
%! book.tex
\\documentclass{book}
\\usepackage{bookmacros}
\\begin{document}
\\begin{theorem}[Picard]\\label{thm:picard}
Solutions exist.
\\end{theorem}
\\begin{example}\\label{ex:one}
\\begin{myfig}
\\caption{A slope field\\label{fig:slope}}
\\end{myfig}
\\begin{equation}\\label{eq:ode} y' = y \\end{equation}
\\end{example}
By \\thmref{thm:picard}, \\figurevref{fig:slope} and \\lemref{picard}, see \\eqref{}.
\\lemlabel{picard} Also \\thmref{}.
\\end{document}
%! bookmacros.sty
\\newcommand{\\myref}[2]{\\hyperref[#2]{#1~\\ref*{#2}}}
\\newcommand{\\myvref}[2]{\\hyperref[{#2}]{#1~\\ref*{#2}}\\vpageref[\\unskip]{#2}}
\\newcommand{\\thmref}[1]{\\myref{Theorem}{#1}}
\\newcommand{\\figurevref}[1]{\\myvref{Figure}{#1}}
\\newcommand{\\lemref}[1]{Lemma~\\ref{lem:#1}}
\\newcommand{\\lemlabel}[1]{\\label{lem:#1}}
\\newenvironment{myfig}{\\begin{center}}{\\end{center}}
`;

test('references and labels through the project\'s macros at any depth: hover, definition, references, completion; labels in the project\'s floats', () => {
  const fx = fixture(BOOK);
  const doc = fx.doc('book.tex');
  const at = (needle: string, delta = 1) => doc.text.indexOf(needle) + delta;
  // hover through \thmref -> \myref -> \ref*, and through \figurevref -> \myvref -> \hyperref[{#2}]
  const h1 = hover(fx.ws, doc, at('{thm:picard}', 2));
  assert.match((h1?.contents as MarkupContent).value, /\*\*Theorem\*\* \(Picard\) · `thm:picard`/);
  const h2 = hover(fx.ws, doc, at('{fig:slope}', 2));
  assert.match((h2?.contents as MarkupContent).value, /\*\*Figure\*\* · `fig:slope`/, 'a label in the caption of the project\'s float is the figure\'s, not the example\'s');
  // a label made by \lemlabel{picard} = \label{lem:picard}, referenced by \lemref{picard}
  assert.equal(definition(fx.ws, doc, at('\\lemref{picard}', 9)).length, 1);
  const label = hover(fx.ws, doc, at('\\lemlabel{picard}', 11));
  assert.match((label?.contents as MarkupContent).value, /Referenced 1 time/);
  assert.equal(findReferences(fx.ws, doc, at('\\label{thm:picard}', 8), false).length, 1);
  // completion inside \thmref{ offers labels; \eqref{ puts equations first
  const items = completion(fx.ws, doc, at('\\thmref{}.', 8))!.items.map((i) => i.label);
  assert.ok(items.includes('thm:picard'), items.join(' '));
  const eq = completion(fx.ws, doc, at('\\eqref{}', 7))!.items.sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1));
  assert.equal(eq[0].label, 'eq:ode');
});

test('a state set twice in one document holds from where it is set; a statement shown in a hover writes references made through stateful macros as the references they make', async () => {
  const { refsWrittenOut } = await import('./userMacros.js');
  const { labelBody } = await import('../features/labels/labelPreview.js');
  const fx = fixture(String.raw`
%! main.tex
\documentclass{book}
\usepackage{xparse,cleveref}
\newcommand*{\curpart}{udf}
\DeclareDocumentCommand \setpart { m }{\renewcommand*{\curpart}{#1}}
\newcommand*{\mylabel}[1]{\label{\curpart:#1}}
\DeclareDocumentCommand \myref { o m }{\cref{\IfNoValueTF{#1}{\curpart}{#1}:#2}}
\begin{document}
\setpart{alg}
\begin{lemma}\mylabel{lem:a}A.\end{lemma}
\setpart{top}
\begin{theorem}\mylabel{thm:b}By \myref[alg]{lem:a} and \myref{thm:c}, B.\end{theorem}
\begin{theorem}\mylabel{thm:c}C.\end{theorem}
\setpart{alg}
\begin{lemma}\mylabel{lem:d}D, after \myref{lem:a} and \myref[top]{thm:c}.\end{lemma}
\end{document}
`);
  const doc = fx.doc('main.tex');
  const text = doc.latexText;
  const from = text.indexOf('By '), to = text.indexOf(', B.');
  assert.equal(refsWrittenOut(fx.ws, doc, from, to), String.raw`By \cref{alg:lem:a} and \cref{top:thm:c}`);
  // the second \setpart holds from where it is: no label is undefined or defined twice
  const d = computeDiagnostics(fx.ws, doc, { unusedLabels: false, structure: true });
  assert.deepEqual(d.filter((x) => /ref|label/.test(String(x.code))).map((x) => x.message), []);
  const loc = fx.ws.findLabel(doc, 'top:thm:b')[0];
  assert.ok(loc, 'the label made through \\mylabel is found');
  const body = labelBody(fx.ws, loc);
  assert.ok(!body.includes('[alg]'), body);
  assert.match(body, /`alg:lem:a`/);
});
