// Completion of environment names after \begin{ / \end{ and of the project's macros after a
// backslash, on fixtures with cursor markers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../testing/fixture.js';
import { environmentCompletion, macroCompletion, openEnvironment } from './environmentCompletion.js';
import { rangeText } from '../testing/snapshot.js';

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
  const fx = fixture(PREAMBLE + String.raw`%! body.tex
\begin{mycases}x\end{mycases}
\begin{th<|>}
`);
  try {
    const { doc, offset } = fx.cursor!;
    const list = environmentCompletion(fx.ws, doc, offset)!;
    const byName = new Map(list.items.map((i) => [i.label, i]));
    assert.equal(byName.get('thm')?.detail, 'Theorem (theorem-like)');
    assert.equal(byName.get('mainthm')?.detail, 'Main Theorem, unnumbered (theorem-like)');
    assert.equal(byName.get('mycases')?.detail, 'used in this project');
    assert.equal(byName.get('align*')?.detail, 'aligned equations');
    // amsthm's default names are not offered unless the project defines or uses them
    assert.equal(byName.has('lemma'), false);
    const sorted = [...list.items].sort((a, b) => a.sortText!.localeCompare(b.sortText!)).map((i) => i.label);
    assert.deepEqual(sorted.slice(0, 3), ['mainthm', 'thm', 'mycases']);
    // the typed name is replaced, up to the closing brace
    assert.equal(rangeText((list.items[0].textEdit as { range: Parameters<typeof rangeText>[0] }).range), '2:8-2:10');
  } finally {
    fx.cleanup();
  }
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
  try {
    const { doc, offset } = fx.cursor!;
    const list = environmentCompletion(fx.ws, doc, offset)!;
    const first = list.items.find((i) => i.preselect);
    assert.equal(first?.label, 'align');
    assert.equal(first?.sortText, '0align');
    assert.equal(openEnvironment('\\begin{a}\\begin{b}\\end{b}', 25), 'a');
    assert.equal(openEnvironment('\\begin{a}\\end{a}', 16), undefined);
    assert.equal(environmentCompletion(fx.ws, doc, 3), null);
  } finally {
    fx.cleanup();
  }
});

test('after a backslash: the project\'s macros with their arguments and definition; not after \\\\', () => {
  const fx = fixture(PREAMBLE + String.raw`%! body.tex
Let $x \in \no<|>$ and \\
`);
  try {
    const { doc, offset } = fx.cursor!;
    const list = macroCompletion(fx.ws, doc, offset)!;
    const byName = new Map(list.items.map((i) => [i.label, i]));
    assert.deepEqual([...byName.keys()].sort(), ['\\Hom', '\\Z', '\\norm']);
    assert.equal(byName.get('\\norm')?.detail, '1 argument · \\newcommand');
    assert.match((byName.get('\\norm')?.documentation as { value: string }).value, /\\lVert #1 \\rVert/);
    // the whole command name is replaced, backslash included
    assert.equal(rangeText((byName.get('\\Z')!.textEdit as { range: Parameters<typeof rangeText>[0] }).range), '1:12-1:15');
    // a line break `\\` is not a command being typed
    assert.equal(macroCompletion(fx.ws, doc, doc.text.indexOf('\\\\') + 2), null);
  } finally {
    fx.cleanup();
  }
});
