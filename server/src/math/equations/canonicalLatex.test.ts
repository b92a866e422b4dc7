// The canonical text: layout dropped, spellings unified, variables renamed by first appearance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalFormula } from './canonicalLatex.js';
import { macroTable } from '../macros.js';

test('canonicalFormula: renaming by order of first appearance makes renamed formulas equal', () => {
  assert.equal(canonicalFormula('(p+q)^2 = p^2 + 2pq + q^2'), '( x + y )^{2} = x^{2} + 2 x y + y^{2}');
  assert.equal(canonicalFormula('(a+b)^2=a^2+2ab+b^2'), canonicalFormula('(p+q)^2 = p^2 + 2pq + q^2'));
  assert.equal(canonicalFormula('\\alpha + \\beta = \\gamma'), 'x + y = z');
  assert.equal(canonicalFormula('A x = b'), 'X x = y');
  assert.equal(canonicalFormula('a+b+c+d+f+g+h+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y'), 'x + y + z + u + v + w + a + b + c + d + f + g + h + k + m + n + p + q + r + s + t + x_{1}');
});

test('canonicalFormula: labels, alignment, rows, spacing, \\left/\\right and punctuation are dropped', () => {
  const src = '\\begin{aligned} (a+b)^2 &= a^2+2ab+b^2 \\label{eq:sq} \\\\ &= \\left( a + b \\right)\\,\\left(a+b\\right), \\nonumber \\end{aligned}';
  assert.equal(canonicalFormula(src), '( x + y )^{2} = x^{2} + 2 x y + y^{2} = ( x + y ) ( x + y )');
  assert.equal(canonicalFormula('x \\le y \\quad \\tag{3}.'), 'x \\leq y');
  for (const d of ['\\[ a = b \\]', '$$a = b$$', '\\begin{equation*} a = b \\end{equation*}']) assert.equal(canonicalFormula(d), 'x = y');
  assert.equal(canonicalFormula('\\dfrac{a}{b} \\ge 0'), canonicalFormula('\\frac a b\\geq0'.replace('a b', '{a}{b}')));
});

test('canonicalFormula: constants and names are kept (e^…, i as imaginary unit, d of derivatives, \\pi, styled letters)', () => {
  assert.equal(canonicalFormula('e^{i\\theta} = \\cos\\theta + i\\sin\\theta'), 'e^{i x} = \\cos x + i \\sin x');
  assert.equal(canonicalFormula('x_i = i^2'), 'x_{y} = y^{2}');
  assert.equal(canonicalFormula('e \\cdot g = g'), 'x \\cdot y = y');
  assert.equal(canonicalFormula('\\frac{d}{dt}\\sin t = \\cos t'), '\\frac{d}{d x} \\sin x = \\cos x');
  assert.equal(canonicalFormula('\\int_0^1 f(t)\\,dt'), '\\int_{0}^{1} x ( y ) d y');
  assert.equal(canonicalFormula('2\\pi r'), '2 \\pi x');
  assert.equal(canonicalFormula('\\mathcal{F}(U) \\to \\mathbb{R} \\text{ for all } x'), '\\mathcal{F} ( X ) \\to \\mathbb{R} \\text{ for all } x');
  assert.equal(canonicalFormula('{\\rm d}x + \\operatorname{sech} y'), '{\\rm d} x + \\operatorname{sech} y');
});

test('canonicalFormula: macros are expanded (builtins and the document\'s)', () => {
  const table = macroTable([{ name: 'R', nargs: 0, body: '\\mathbb{R}' }, { name: 'sq', nargs: 1, body: '{#1}^2' }]);
  assert.equal(canonicalFormula('\\sq{t} \\in \\R', table), 'x^{2} \\in \\mathbb{R}');
  assert.equal(canonicalFormula('\\paren{a + b}'), '( x + y )');
});

test('canonicalFormula: never throws, and is linear on huge or broken input', () => {
  for (const s of ['', '}}}{{{', '\\', '\\frac{', '^^__', 'x^', '\\left(', '%', '\\begin{', '\u{1F600} x', '\\def\\a{\\a}\\a']) {
    assert.equal(typeof canonicalFormula(s), 'string');
  }
  const big = 'a + \\frac{b}{c} \\cdot {d^{e}} - '.repeat(3000);
  const t0 = performance.now();
  const out = canonicalFormula(big);
  assert.ok(out.length > 1000);
  assert.ok(performance.now() - t0 < 2000);
});
