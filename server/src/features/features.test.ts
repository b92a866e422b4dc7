import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { MarkupContent, TextEdit } from 'vscode-languageserver-types';
import { fixture } from '../testing/fixture.js';
import { check, expect } from '../testing/snapshot.js';
import {
  checkCompletion, checkDefinition, checkDiagnostics, checkHover, checkReferences, checkRename, checkSymbols, cursorOf, rangeText, renderDiagnostics, renderEdit,
  renderLocations,
} from '../testing/featureChecks.js';
import { hoverAnswer as hover } from './hover/providers.js';
import { definition, prepareRename, rename } from './labels/labelNavigation.js';
import { completion, resolveCompletion } from './labels/labelCompletion.js';
import { workspaceSymbols } from './symbols.js';
import { computeDiagnostics } from './diagnostics/documentDiagnostics.js';

const PROJECT = String.raw`
%! main.tex
\documentclass{article}
\newtheorem{theorem}{Theorem}
\theoremstyle{definition}
\newtheorem{definition}[theorem]{Definition}
\begin{document}
\input{sec1}
\input{sec2}
\end{document}
%! sec1.tex
\section{Intro}\label{sec:intro}
\begin{definition}[Group]\label{def:group}
A \emph{group} is a set $G$ with an associative operation.
\end{definition}
\begin{theorem}[Lagrange]\label{thm:lagrange}
If $H \le G$ then $|H|$ divides $|G|$:
\[ |G| = [G:H]\,|H|. \]
\end{theorem}
\begin{proof}Cosets partition $G$.\end{proof}
\begin{align}
a &= b \label{eq:one}\\
b &= c \label{eq:two}
\end{align}
%! sec2.tex
\section{Use}
By \cref{thm:lagrange} and \eqref{eq:two}, see \ref{def:group}.
`;

/** The project with the cursor put in `at` (a piece of its text) at `<|>`. */
const withCursor = (at: string): string => {
  const plain = at.replace('<|>', '');
  if (PROJECT.split(plain).length !== 2) throw new Error(`not once in the project: ${plain}`);
  return PROJECT.replace(plain, at);
};

test('hover on a reference shows the theorem with its title and rendered statement', () => {
  checkHover(withCursor('\\cref{thm:lagr<|>ange}'), expect`
    sec2.tex:2:10-2:22

    **Theorem** (Lagrange) · \`thm:lagrange\` · sec1.tex:5

    ---

    If $H \le G$ then $|H|$ divides $|G|$:

    $$
    |G| = [G:H]\,|H|.
    $$
  `);
});

test('hover on \\eqref shows just the labelled row', () => {
  checkHover(withCursor('\\eqref{eq:t<|>wo}'), expect`
    sec2.tex:2:35-2:41

    **Equation** · \`eq:two\` · sec1.tex:12

    ---

    $$
    \begin{aligned}
    b &= c
    \end{aligned}
    $$
  `);
});

test('hover on a label reports what it labels and its reference count', () => {
  checkHover(withCursor('\\label{def:gr<|>oup}'), expect`
    sec1.tex:2:33-2:42

    **Definition** (Group) · \`def:group\` · sec1.tex:2

    ---

    A *group* is a set $G$ with an associative operation.

    *Referenced 1 time*
  `);
});

const CROSS_MAIN = String.raw`
%! main.tex
\documentclass{article}
\begin{document}
\input{sec1}
\input{sec2}
\end{document}
`;

test('definition and references across files', () => {
  // definition: the label
  checkDefinition(CROSS_MAIN + String.raw`%! sec1.tex
\section{Intro}
\begin{theorem}[Lagrange]\label{thm:lagrange}
                                ^^^^^^^^^^^^
\end{theorem}
%! sec2.tex
By \cref{thm:lagrange} and \ref{thm:lagrange}.
%          |
`);
  // references with the declaration: the label and both references
  checkReferences(CROSS_MAIN + String.raw`%! sec1.tex
\section{Intro}
\begin{theorem}[Lagrange]\label{thm:lagrange}
                                ^^^^^^^^^^^^
\end{theorem}
%! sec2.tex
By \cref{thm:lagrange} and \ref{thm:lagrange}.
         ^^^^^^^^^^^^           ^^^^^^^^^^^^
%          |
`, true);
  // without it: the references
  checkReferences(CROSS_MAIN + String.raw`%! sec1.tex
\section{Intro}
\begin{theorem}[Lagrange]\label{thm:lagrange}
\end{theorem}
%! sec2.tex
By \cref{thm:lagrange} and \ref{thm:lagrange}.
         ^^^^^^^^^^^^           ^^^^^^^^^^^^
%          |
`, false);
});

test('definition on an \\input path opens the file', () => {
  const fx = fixture(withCursor('\\input{se<|>c1}'));
  const { doc, offset } = cursorOf(fx);
  check(renderLocations(fx, definition(fx.ws, doc, offset)), expect`sec1.tex:1:1-1:1`);
});

test('completion inside \\ref{ offers labels with their kinds and the range they replace, preview on resolve', () => {
  const fx = checkCompletion(PROJECT.replace('see \\ref{def:group}', 'see \\cref{eq:one,th<|>}'), expect`
    def:group — Definition (Group) [2:61-2:63]
    eq:one — Equation [2:61-2:63]
    eq:two — Equation [2:61-2:63]
    sec:intro — Section (Intro) [2:61-2:63]
    thm:lagrange — Theorem (Lagrange) [2:61-2:63]
  `);
  const { doc, offset } = cursorOf(fx);
  const item = completion(fx.ws, doc, offset)!.items.find((i) => i.label === 'thm:lagrange')!;
  const resolved = resolveCompletion(fx.ws, item);
  assert.match((resolved.documentation as MarkupContent).value, /sec1\.tex:5[\s\S]*\$\|H\|\$ divides/);
});

test('a client that takes itemDefaults.editRange gets the range once, and items without their own', () => {
  const fx = fixture(PROJECT.replace('see \\ref{def:group}', 'see \\cref{eq:one,th<|>}'));
  const { doc, offset } = cursorOf(fx);
  const each = completion(fx.ws, doc, offset)!;
  const once = completion(fx.ws, doc, offset, undefined, undefined, { editRangeDefault: true })!;
  assert.deepEqual(once.itemDefaults?.editRange, (each.items[0].textEdit as TextEdit).range);
  assert.deepEqual(once.items.map((i) => i.label), each.items.map((i) => i.label));
  assert.ok(once.items.every((i) => !i.textEdit && !i.filterText));
  // what the client sends back to resolve is what it was given, through JSON
  const item = JSON.parse(JSON.stringify(once.items.find((i) => i.label === 'thm:lagrange')));
  assert.match((resolveCompletion(fx.ws, item).documentation as MarkupContent).value, /sec1\.tex:5/);
  assert.ok(JSON.stringify(once).length < JSON.stringify(each).length * 0.6, 'the list is much shorter');
});

test('no completion outside reference commands', () => {
  checkCompletion(withCursor('\\section{U<|>se}'), expect`null`);
});

test('rename a label updates the definition and every reference', () => {
  const fx = checkRename(withCursor('\\cref{thm:lagr<|>ange}'), 'thm:cosets', expect`
    sec1.tex:5:33-5:45 → thm:cosets
    sec2.tex:2:10-2:22 → thm:cosets
  `);
  const { doc, offset } = cursorOf(fx);
  assert.equal(prepareRename(fx.ws, doc, offset)!.placeholder, 'thm:lagrange');
  assert.throws(() => rename(fx.ws, doc, offset, 'bad name'), /not a valid label name/);
});

test('document symbols nest theorem-like environments under sections', () => {
  checkSymbols(PROJECT, 'sec1.tex', expect`
    Section: Intro [sec:intro] 1:1-13:12
      Definition (Group) [def:group] 2:1-4:17
      Theorem (Lagrange) [thm:lagrange] 5:1-8:14
  `);
});

test('workspace symbols search titles and labels', () => {
  const { ws } = fixture(PROJECT);
  assert.deepEqual(workspaceSymbols(ws, 'lagrange').map((s) => `${s.name} ${s.containerName}`), ['Theorem (Lagrange) thm:lagrange']);
  assert.deepEqual(workspaceSymbols(ws, 'intro').map((s) => s.name), ['Section: Intro']);
});

test('diagnostics: undefined and duplicate labels; unused labels only when enabled', () => {
  const fx = checkDiagnostics(PROJECT + 'See \\ref{nope}.\n\\label{sec:intro}\n', 'sec2.tex', expect`
    3:10-3:14 error undefined-ref: Undefined reference: no \label{nope} in this project
    4:8-4:17 error duplicate-label: Duplicate label 'sec:intro' (also at sec1.tex:1)
  `);
  const unused = computeDiagnostics(fx.ws, fx.doc('sec1.tex'), { unusedLabels: true, structure: true }).filter((d) => d.code === 'unused-label');
  check(renderDiagnostics(unused), expect`
    1:23-1:32 hint unused-label: Label 'sec:intro' is never referenced
    11:15-11:21 hint unused-label: Label 'eq:one' is never referenced
  `);
  assert.equal(computeDiagnostics(fx.ws, fx.doc('sec1.tex')).filter((d) => d.code === 'unused-label').length, 0);
});

test('diagnostics: an \\iffalse … \\fi block is dead text, its \\else branch is not', () => {
  checkDiagnostics(PROJECT + String.raw`\iffalse
\label{sec:intro} \ref{old:gone}
\ifx\a\b \ref{nested} \fi

\begin{theorem}never closed
\fi
\iffalse kept out \else See \ref{live:missing}.\fi
`, 'sec2.tex', expect`
  9:34-9:46 error undefined-ref: Undefined reference: no \label{live:missing} in this project
`);
});

test('diagnostics: an \\input or \\include whose file is missing is a warning; paths built from macros are left alone', () => {
  checkDiagnostics(PROJECT.replace('\\input{sec2}', '\\input{sec2}\n\\include{chaptr2}\n\\input{\\chapters/x}'), 'main.tex', expect`
    8:10-8:17 warning missing-include: File not found: chaptr2 (looked beside this file and up to 3 folders up); its labels and contents are unknown, so undefined references are not reported in this project
  `);
});

// ---- rename onto an existing label (defect: it merged two labels' references) ----

test('rename refuses a new name that is already a label of the project, through xr prefixes too', () => {
  const src = withCursor('\\cref{thm:lagr<|>ange}') + String.raw`%! other.tex
\documentclass{article}
\begin{document}
\section{Elsewhere}\label{sec:elsewhere}
\end{document}
`;
  {
    const { ws, cursor } = fixture(src);
    const { doc, offset } = cursor!;
    assert.throws(() => rename(ws, doc, offset, 'def:group'), /label 'def:group' already exists in this project \(sec1\.tex:2\)/);
    assert.throws(() => rename(ws, doc, offset, 'eq:two'), /already exists/);
    // a label of an unrelated project (its own \documentclass) is not in the way
    assert.ok(rename(ws, doc, offset, 'sec:elsewhere'));
    // nor is the label itself (renaming to the same name changes nothing)
    assert.ok(rename(ws, doc, offset, 'thm:lagrange'));
  }
  {
    const fx = fixture(`
%! algebra.tex
\\documentclass{amsart}
\\begin{document}
\\begin{lemma}\\label{lemma-n<|>ak}Nakayama.\\end{lemma}
\\begin{lemma}\\label{lemma-other}Other.\\end{lemma}
\\end{document}
%! schemes.tex
\\documentclass{amsart}
\\usepackage{xr-hyper}
\\externaldocument[algebra-]{algebra}
\\begin{document}
\\begin{lemma}\\label{lemma-local}Local.\\end{lemma}
By \\ref{algebra-lemma-nak} and \\ref{lemma-local}.
\\end{document}
`);
    const { ws, doc } = fx;
    const { doc: algebra, offset } = cursorOf(fx);
    assert.throws(() => rename(ws, algebra, offset, 'lemma-other'), /'lemma-other' already exists in this project \(algebra\.tex:4\)/);
    // schemes' own label-local is another project: schemes' reference becomes algebra-lemma-local
    check(renderEdit(fx, rename(ws, algebra, offset, 'lemma-local')), expect`
      algebra.tex:3:21-3:30 → lemma-local
      schemes.tex:6:9-6:26 → algebra-lemma-local
    `);
    // a schemes label renamed to a name its project sees through the xr prefix
    const schemes = doc('schemes.tex');
    const at = schemes.text.indexOf('lemma-local}') + 2;
    assert.throws(() => rename(ws, schemes, at, 'algebra-lemma-other'), /'algebra-lemma-other' already exists in this project \(algebra\.tex:4\)/);
    assert.ok(rename(ws, schemes, at, 'lemma-fresh'));
  }
});

// ---- what counts as a reference under the cursor (defect: block-relative command offsets) ----

test('only the command name and the key of a reference are the reference, in any block', () => {
  const src = `
%! doc.tex
\\documentclass{article}
\\begin{document}
\\section{One}
\\begin{equation}\\label{eq:a} x = 1 \\end{equation}

\\ref{eq:a} is here and \\eqref{eq:a}.
\\end{document}
`;
  const { ws, doc: get } = fixture(src);
  {
    const doc = get('doc.tex');
    const text = doc.text;
    const show = (needle: string, k: number): string => {
      const o = text.indexOf(needle) + k;
      const h = hover(ws, doc, o);
      const p = prepareRename(ws, doc, o);
      const d = definition(ws, doc, o);
      return `${needle}+${k}: hover ${h ? rangeText(h.range!) : 'null'}, rename ${p ? rangeText(p.range) : 'null'}, definition ${d.map((l) => rangeText(l.range)).join(',') || 'none'}`;
    };
    check([
      show('\\documentclass', 2), show('\\section', 3), show('\\ref{', 0), show('\\ref{', 2), show('\\ref{', 4),
      show('eq:a} is', 2), show(' is here', 2), show('\\eqref', 2), show('\\eqref{', 7), show('}.', 1),
    ].join('\n'), expect`
      \documentclass+2: hover null, rename null, definition none
      \section+3: hover null, rename null, definition none
      \ref{+0: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      \ref{+2: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      \ref{+4: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
      eq:a} is+2: hover 6:6-6:10, rename 6:6-6:10, definition 4:24-4:28
       is here+2: hover null, rename null, definition none
      \eqref+2: hover 6:31-6:35, rename 6:31-6:35, definition 4:24-4:28
      \eqref{+7: hover 6:31-6:35, rename 6:31-6:35, definition 4:24-4:28
      }.+1: hover null, rename null, definition none
    `);
  }
});

test('in a Markdown note (every math node its own block) a heading is not a reference', () => {
  const src = `
%! q.md
# Q

$$
(x+y)^2 = x^2 + 2xy + y^2 \\label{eq:sq}
$$

See $\\eqref{eq:sq}$.
`;
  const { ws, doc: get } = fixture(src);
  {
    const doc = get('q.md');
    assert.equal(hover(ws, doc, 1), null);
    assert.equal(prepareRename(ws, doc, 2), null);
    const eqref = doc.text.indexOf('\\eqref') + 2;
    assert.equal(rangeText(hover(ws, doc, eqref)!.range!), '7:13-7:18');
    assert.equal(prepareRename(ws, doc, eqref)!.placeholder, 'eq:sq');
  }
});
