// The workspace equation index and the search behind "Find related equations", in-process:
// which display equations and rows are sites, the query excluded and twins found across files
// and notes, incremental analysis (an edit re-analyses only the edited block's equation), and
// robustness against garbage and huge equations.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { fixture } from '../../testing/fixture.js';
import { analysisCount } from '../../index/equationFeatures.js';
import { EquationAnalyses } from '../../index/equationAnalyses.js';
import { documentEquations, equationAt } from '../../analysis/equationSites.js';
import { findRelatedEquations, parseFindArgs, shownLatex, type RelatedContext } from './relatedEquations.js';
import { equationLenses, lensSite, lensTitle } from './equationLenses.js';
import { WorkspaceEquations } from '../../index/workspaceEquations.js';

const SPEC = String.raw`
%! main.tex
\documentclass{article}
\newcommand{\sq}[1]{{#1}^2}
\begin{document}
\input{one}
\input{two}
\end{document}
%! one.tex
\section{One}
First paragraph.
\begin{equation}\label{eq:binomial}
(a+b)^2 = a^2 + 2ab + b^2
\end{equation}

Second paragraph, a chain and two labelled rows.
\begin{align}
x^2 - 5x + 6 &= 0 \label{eq:quad} \\
u + v &= w \notag \\
\sin^2 t + \cos^2 t &= 1 \label{eq:pythagoras}
\end{align}

Third paragraph: a diagram is no equation.
\[
\xymatrix{ A \ar[r] & B }
\]

Fourth paragraph.
$$ e^{i\theta} = \cos\theta + i \sin\theta $$
\begin{gather*}
p = q
\end{gather*}
\begin{multline}
\sum_{k=1}^n k = \frac{n(n+1)}{2}
\end{multline}
%! two.tex
\section{Two}
\begin{equation}\label{eq:square}
  \sq{(x+y)} = x^2 + 2<|>xy + y^2
\end{equation}
\begin{equation*}
  2 t^2 - 10 t = -12
\end{equation*}
%! notes.md
# Notes

$$
\cos y + i \sin y = e^{i y}
$$
`;

function context(f: ReturnType<typeof fixture>): RelatedContext & { analyses: EquationAnalyses } {
  const analyses = new EquationAnalyses();
  return { ws: f.ws, equations: new WorkspaceEquations(analyses), analyses };
}

describe('related equations', () => {
  it('sites: every display equation and labelled row, no diagrams; lenses on their first lines', () => {
    const f = fixture(SPEC);
    const one = documentEquations(f.doc('one.tex'));
    assert.deepEqual(one.map((s) => [s.env, s.line, s.label ?? null, s.row ?? null]), [
      ['equation', 2, 'eq:binomial', null],
      ['align', 7, null, null], ['align', 8, 'eq:quad', 0], ['align', 10, 'eq:pythagoras', 2],
      ['$$', 19, null, null], ['gather*', 20, null, null], ['multline', 23, null, null],
    ]);
    assert.equal(shownLatex(one[2]), 'x^2 - 5x + 6 = 0');
    assert.equal(documentEquations(f.doc('notes.md')).length, 1);
    assert.deepEqual(equationLenses(f.doc('one.tex')).map((l) => l.range.start.line), [2, 7, 8, 10, 19, 20, 23]);
    // the cursor in two.tex is inside eq:square
    const at = equationAt(f.cursor!.doc, f.cursor!.offset)!;
    assert.equal(at.label, 'eq:square');
    const lens = equationLenses(f.cursor!.doc)[0];
    assert.equal(lensSite(f.cursor!.doc, lens.data)!.label, 'eq:square');
  });

  it('finds twins in other letters, forms and files; the query itself is excluded', async () => {
    const f = fixture(SPEC);
    const ctx = context(f);
    const two = f.doc('two.tex');
    const square = documentEquations(two).find((s) => s.label === 'eq:square')!;
    const r = await findRelatedEquations(ctx, { doc: two, site: square }, { waitMs: 5000 });
    assert.equal(r.pending, 0);
    assert.equal(r.results[0].label, 'eq:binomial');
    assert.equal(r.results[0].why.fingerprint, 'identity');
    // a references peek shows the line a location starts on: the formula's, not `\begin{equation}`
    const one0 = f.doc('one.tex');
    assert.equal(one0.text.split('\n')[r.results[0].range!.start.line], '(a+b)^2 = a^2 + 2ab + b^2');
    assert.equal(r.results[0].range!.start.character, 0);
    assert.ok(r.results.every((x) => !(x.uri === two.uri && x.line === square.line + 1)));
    assert.equal(r.results[0].same, true, 'confirmed, not only a fingerprint collision');
    assert.equal(lensTitle(r), 'Same as eq:binomial in one.tex');
    assert.match(r.message ?? '', /no bundled index/);
    // Euler's formula from a Markdown note, sides swapped and another letter
    const note = f.doc('notes.md');
    const euler = await findRelatedEquations(ctx, { doc: note, site: documentEquations(note)[0] });
    assert.equal(euler.results[0].line, 20);
    assert.match(f.doc('one.tex').text.slice(f.doc('one.tex').offsetAt(euler.results[0].range!.start)), /^e\^\{i\\theta\}/, 'after `$$ `');
    assert.equal(euler.results[0].why.fingerprint, 'identity');
    // a labelled row finds the same equation at another scale
    const one = f.doc('one.tex');
    const quad = await findRelatedEquations(ctx, { doc: one, site: documentEquations(one).find((s) => s.label === 'eq:quad')! });
    assert.equal(quad.results[0].latex, '2 t^2 - 10 t = -12');
    assert.equal(quad.results[0].why.fingerprint, 'equation');
    assert.equal(quad.results[0].same, true);
    assert.ok(quad.results.every((x) => !(x.uri === one.uri && x.line === 8)), 'neither the row nor its environment');
    // raw LaTeX: nothing excluded
    const raw = await findRelatedEquations(ctx, { latex: '\\sum_{j=1}^{m} j = \\frac{m(m+1)}{2}' });
    assert.equal(raw.results[0].line, 24);
  });

  it('an edit re-analyses only the edited block; other blocks keep their sites and features', async () => {
    const f = fixture(SPEC);
    const ctx = context(f);
    ctx.equations.snapshot(f.ws);
    await ctx.analyses.whenIdle();
    const before = ctx.equations.snapshot(f.ws);
    assert.equal(before.pending, 0);
    const one = f.doc('one.tex');
    const sitesBefore = documentEquations(one);
    const n0 = analysisCount();
    // change the chain's first row (second paragraph)
    const at = one.text.indexOf('x^2 - 5x + 6');
    const doc = f.ws.change(one.uri, [{ range: one.range(at, at + 12), text: 'x^2 - 7x + 12' }], 2)!;
    const after = ctx.equations.snapshot(f.ws);
    assert.equal(after.pending, 2, 'the align and its edited row');
    await ctx.analyses.whenIdle();
    assert.equal(analysisCount() - n0, 2);
    const sitesAfter = documentEquations(doc);
    // sites of untouched blocks are the same objects (extracted once per block)
    assert.equal(sitesAfter[0].rel, sitesBefore[0].rel);
    assert.equal(sitesAfter[4].rel, sitesBefore[4].rel);
    assert.notEqual(sitesAfter[2].rel, sitesBefore[2].rel);
    // an edit in prose re-analyses nothing
    const n1 = analysisCount();
    const p = doc.text.indexOf('First paragraph');
    f.ws.change(doc.uri, [{ range: doc.range(p, p + 5), text: 'Opening' }], 3);
    assert.equal(ctx.equations.snapshot(f.ws).pending, 0);
    await ctx.analyses.whenIdle();
    assert.equal(analysisCount(), n1);
    // and the search sees the new text
    const quad = documentEquations(f.doc('one.tex')).find((s) => s.label === 'eq:quad')!;
    const r = await findRelatedEquations(ctx, { doc: f.doc('one.tex'), site: quad });
    assert.notEqual(r.results[0]?.why.fingerprint, 'equation', 'x^2 - 7x + 12 = 0 is not 2t^2 - 10t = -12');
  });

  it('garbage, huge and empty equations neither throw nor hang', async () => {
    const huge = Array.from({ length: 3000 }, (_, i) => `\\frac{x_{${i}}}{\\left(y^{${i}} + \\sqrt{z}\\right)}`).join(' + ');
    const f = fixture(String.raw`
%! bad.tex
\begin{equation}
\frac{{{ \left( ^_^ \sqrt[ = = \end{x}
\end{equation}

\begin{align}
\\ & \label{eq:empty} \\
\end{align}

\[ ${huge.slice(0, 2900)} = 0 \]

$$ \begin{cases} x & y \end{cases} = \left\{ $$
`);
    const ctx = context(f);
    const doc = f.doc('bad.tex');
    const sites = documentEquations(doc);
    const t0 = Date.now();
    for (const site of sites) {
      const r = await findRelatedEquations(ctx, { doc, site }, { waitMs: 5000 });
      assert.ok(Array.isArray(r.results));
    }
    for (const latex of [huge, '', '}}}}', '\\', '$$', '\\begin{align}', 'x'.repeat(100_000)]) {
      const r = await findRelatedEquations(ctx, { latex });
      assert.ok(Array.isArray(r.results));
    }
    assert.ok(Date.now() - t0 < 20_000, `${Date.now() - t0} ms`);
  });

  it('command arguments: position or LaTeX, objects or positional; anything else is an error', () => {
    assert.deepEqual(parseFindArgs([{ uri: 'file:///a.tex', position: { line: 1, character: 2 } }]), { uri: 'file:///a.tex', position: { line: 1, character: 2 } });
    assert.deepEqual(parseFindArgs([{ textDocument: { uri: 'file:///a.tex' }, position: { line: 0, character: 0 } }]), { uri: 'file:///a.tex', position: { line: 0, character: 0 } });
    assert.deepEqual(parseFindArgs(['file:///a.tex', { line: 3, character: 0 }]), { uri: 'file:///a.tex', position: { line: 3, character: 0 } });
    assert.deepEqual(parseFindArgs([{ latex: 'a=b' }]), { latex: 'a=b' });
    assert.deepEqual(parseFindArgs(['a=b']), { latex: 'a=b' });
    for (const bad of [undefined, [], [null], [{ latex: '  ' }], [{ uri: 'x', position: { line: -1, character: 0 } }], [{ uri: 3 }], [7]]) {
      assert.ok('error' in parseFindArgs(bad as unknown[]), JSON.stringify(bad));
    }
  });
});
