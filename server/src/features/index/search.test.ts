// The search box: a name typed alone finds the project's own statement whose title or label
// names it first, and what the results panel shows is typeset without the project's preamble
// (its macros written out).
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { ServerIndex } from '../../index/serverIndex.js';
import { searchStatements } from './search.js';

const SPEC = String.raw`
%! main.tex
\newcommand{\RR}{\mathbb{R}}
\newcommand{\norm}[1]{\lVert #1 \rVert}
\begin{theorem}[Compactness in $\RR^n$]\label{thm:heine-borel}
A subset of $\RR^n$ is compact if and only if it is closed and bounded in $\norm{\cdot}$.
\end{theorem}
\begin{theorem}[Sylow theorems]\label{thm:sylow}
Every finite group has a Sylow $p$-subgroup for each prime $p$ dividing its order.
\end{theorem}
\begin{lemma}\label{lem:count}
The number of Sylow $p$-subgroups divides the index of a Sylow $p$-subgroup.
\end{lemma}
`;

describe('search by name', () => {
  const f = fixture(SPEC);
  const si = new ServerIndex(() => {}, () => ({ path: '/nonexistent/mathsense-index' }), async () => undefined);

  it('the project\'s statement whose title names the query comes first, with or without the index', () => {
    const r = searchStatements(f.ws, si, 'Sylow', 'statement', 10);
    assert.equal(r.items[0]?.title, 'Theorem (Sylow theorems)');
    assert.match(r.items[0].detail, /its title or label names the query/);
    // a label names it too ("heine-borel"), with accents and dashes as authors write them
    assert.equal(searchStatements(f.ws, si, 'Heine–Borel', 'statement', 10).items[0]?.label, 'thm:heine-borel');
    // a formula is no name
    assert.equal(searchStatements(f.ws, si, '$x^2$', 'statement', 10).items.length, 0);
  });

  it('titles and excerpts with the project\'s macros written out', () => {
    const [hb] = searchStatements(f.ws, si, 'Heine-Borel', 'statement', 10).items;
    assert.equal(hb.title, 'Theorem (Compactness in $\\mathbb{R}^n$)');
    assert.doesNotMatch(hb.latex, /\\RR|\\norm/);
    assert.match(hb.latex, /\\lVert \\cdot \\rVert/);
  });
});
