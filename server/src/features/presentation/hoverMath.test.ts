// Math in hovers as the client can show it: the TeX exactly as written through any CommonMark
// renderer ("source"), or typeset by MathJax with the project's macros in the client's colour
// ("svg", falling back to the source form for what MathJax cannot typeset); and the formula
// under the cursor typeset.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { SvgMath } from '../../analysis/mathSvg.js';
import { latexToMarkdown } from '../../analysis/render.js';
import { fixture } from '../../testing/fixture.js';
import { presentMath, SOURCE_MATH, type HoverMath } from './hoverMath.js';
import { documentHover } from '../hover.js';

/** The code (inline and fenced) a CommonMark parser reads in md. */
function codeIn(md: string): string[] {
  const out: string[] = [];
  const walk = (n: { type: string; value?: string; children?: unknown[] }) => {
    if ((n.type === 'inlineCode' || n.type === 'code') && n.value !== undefined) out.push(n.value);
    for (const c of (n.children ?? []) as Array<typeof n>) walk(c);
  };
  walk(unified().use(remarkParse).parse(md) as never);
  return out;
}

const svgOf = (md: string) => [...md.matchAll(/!\[[^\]]*\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/g)].map((m) => Buffer.from(m[1], 'base64').toString('utf8'));

describe('hover math', () => {
  it('source: the TeX survives CommonMark exactly, rows stay rows, text dollars are not math', () => {
    const md = latexToMarkdown(String.raw`The set $\{ n \in \mathbb{N} : n \text{ even} \}$ costs \$5, and
\begin{align}
a &= b \\
  &= c
\end{align}`);
    const shown = presentMath(md, SOURCE_MATH);
    const code = codeIn(shown);
    assert.equal(code[0], String.raw`$\{ n \in \mathbb{N} : n \text{ even} \}$`);
    assert.match(code[1], /^\\begin\{aligned\}\na &= b \\\\\n&= c\n\\end\{aligned\}$/);
    assert.match(shown, /costs \\\$5/);
    // backticks inside math and code already there
    assert.deepEqual(codeIn(presentMath('`$x$` and $a`b$', SOURCE_MATH)), ['$x$', '$a`b$']);
  });

  it('svg: formulas typeset with the project macros in the colour asked for; what MathJax cannot typeset stays TeX', () => {
    const hm: HoverMath = { mode: 'svg', svg: new SvgMath(), color: '#123456' };
    const md = presentMath('Let $x \\in \\R$ and $\\undefinedthing{y}$.\n\n$$\n\\sq{t} = 1\n$$', hm, [{ name: 'R', nargs: 0, body: '\\mathbb{R}' }, { name: 'sq', nargs: 1, body: '{#1}^2' }]);
    const svgs = svgOf(md);
    assert.equal(svgs.length, 2);
    for (const s of svgs) {
      assert.match(s, /^<svg /);
      assert.match(s, /#123456/);
      assert.doesNotMatch(s, /currentColor|data-mjx-error/);
      assert.match(s, / width="[\d.]+px"/);
    }
    assert.deepEqual(codeIn(md), ['$\\undefinedthing{y}$']);
    // a proof's last display ends with amsthm's mark: typeset without it
    assert.equal(svgOf(presentMath('we have\n\n$$\n|H||G:H| = |G|.\\qedhere\n$$', hm)).length, 1);
    // cached by (TeX, display, macros, colour)
    const again = new SvgMath();
    again.render('x^2', { color: '#000000' });
    again.render('x^2', { color: '#000000' });
    again.render('x^2', { color: '#ffffff' });
    assert.deepEqual([again.hits, again.misses], [1, 2]);
  });

  it('hovers carry presented math; a formula under the cursor is typeset in svg mode only', () => {
    const f = fixture(String.raw`
%! main.tex
\documentclass{article}
\newcommand{\R}{\mathbb{R}}
\begin{document}
\begin{lemma}\label{lem:set}
The set $\{ x \in \R : x > 0 \}$ is open.
\end{lemma}
By Lemma~\ref{lem:set}, and since $x^2 \geq 0$,
                                  ^^^^^^^^^^^^
%                                     |
\begin{equation}
  \int_0^1 t \, dt = \frac12
\end{equation}
\end{document}
`);
    const doc = f.doc('main.tex');
    const at = doc.text.indexOf('lem:set}, and') + 2;
    const src = documentHover(f.ws, doc, at, { steps: [] })!;
    assert.ok(codeIn((src.contents as { value: string }).value).includes('$\\{ x \\in \\R : x > 0 \\}$'));
    const hm: HoverMath = { mode: 'svg', svg: new SvgMath(), color: '#cccccc' };
    const svg = documentHover(f.ws, doc, at, { steps: [], math: hm })!;
    assert.equal(svgOf((svg.contents as { value: string }).value).length, 1, 'typeset with the document\'s \\R');
    // the formula under the cursor
    const inline = documentHover(f.ws, doc, f.cursor!.offset, { steps: [], math: hm })!;
    assert.equal(svgOf((inline.contents as { value: string }).value).length, 1);
    assert.deepEqual(inline.range, f.ranges[0].range, 'the whole formula, dollars included');
    const display = documentHover(f.ws, doc, doc.text.indexOf('\\int') + 3, { steps: [], math: hm })!;
    assert.equal(svgOf((display.contents as { value: string }).value).length, 1);
    assert.equal(documentHover(f.ws, doc, f.cursor!.offset, { steps: [] }), null, 'source mode: no hover repeating the TeX');
    assert.equal(documentHover(f.ws, doc, doc.text.indexOf('is open'), { steps: [], math: hm }), null, 'prose: none');
  });
});
