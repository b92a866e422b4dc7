// The canonical text: layout dropped, spellings unified, variables renamed by first appearance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalFormula } from './canonicalLatex.js';
import { macroTable } from '../macros.js';

test('canonicalFormula: renaming by order of first appearance makes renamed formulas equal', () => {
  assert.equal(canonicalFormula('(p+q)^2 = p^2 + 2pq + q^2'), '( x + y )^{2} = x^{2} + 2 x y + y^{2}');
  assert.equal(canonicalFormula('(a+b)^2=a^2+2ab+b^2'), canonicalFormula('(p+q)^2 = p^2 + 2pq + q^2'));
  assert.equal(canonicalFormula('\\alpha + \\beta = \\gamma'), 'x = y + z');
  assert.equal(canonicalFormula('A x = b'), 'x = X y');
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
  assert.equal(canonicalFormula('e^{i\\theta} = \\cos\\theta + i\\sin\\theta'), '\\cos x + i \\sin x = e^{i x}');
  assert.equal(canonicalFormula('x_i = i^2'), 'x^{2} = y_{x}');
  assert.equal(canonicalFormula('e \\cdot g = g'), 'x = y \\cdot x');
  assert.equal(canonicalFormula('\\frac{d}{dt}\\sin t = \\cos t'), '\\cos x = \\frac{d}{d x} \\sin x');
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

test('canonicalFormula: one equation reads shorter side first, whichever way it was written', () => {
  assert.equal(canonicalFormula('g(f(x)) = F(x)'), canonicalFormula('F(t) = g(f(t))'));
  assert.equal(canonicalFormula('\\Phi(p) = \\xi'), 'x = \\Phi ( y )');
  assert.equal(canonicalFormula('\\mu(\\bigcup_j A_j) = \\sum_j \\mu(A_j)'), canonicalFormula('\\sum_{k} m(S_k) = m(\\bigcup_k S_k)'), 'equal lengths');
  // chains and other relations keep the order written
  assert.equal(canonicalFormula('a + b = c = d'), 'x + y = z = u');
  assert.equal(canonicalFormula('a + b \\leq c'), 'x + y \\leq z');
  assert.equal(canonicalFormula('a + b = b + a'), 'x + y = y + x');
});

test('canonicalFormula: x_0 and x_1 are variables like a and b; other subscripts stay subscripts', () => {
  assert.equal(canonicalFormula('\\int_{x_0}^{x_1} h\'(u)\\,du = h(x_1) - h(x_0)'), canonicalFormula("\\int_a^b f'(t)\\,dt = f(b) - f(a)"));
  assert.equal(canonicalFormula('a_i + a_{n}'), 'x_{y} + x_{z}');
});

test('canonicalFormula: one spelling per operator (exp, probability, expectation, series, negative powers)', () => {
  assert.equal(canonicalFormula('\\exp(x+y) = \\exp(x)\\exp(y)'), canonicalFormula('e^{a+b} = e^{a} e^{b}'));
  assert.equal(canonicalFormula('\\Pr(X \\ge t) \\le \\frac{\\mathbb{E}[X]}{t}'), canonicalFormula('P(Y \\geq s) \\leq \\frac{E[Y]}{s}'));
  assert.equal(canonicalFormula('\\mathbb{P}(A) = 1'), canonicalFormula('\\operatorname{P}(B) = 1'));
  assert.equal(canonicalFormula('\\operatorname{E}(X)'), '\\mathbb{E} [ X ]');
  assert.equal(canonicalFormula('\\sum_{k\\ge1} k^{-2}'), canonicalFormula('\\sum_{n=1}^{\\infty} \\frac{1}{n^2}'));
  assert.equal(canonicalFormula('\\sum_{n > 0} 1/n^2'), canonicalFormula('\\sum_{k=1}^\\infty \\frac{1}{k^{2}}'));
  // a polynomial P(x) is no probability; E without brackets is a letter
  assert.equal(canonicalFormula('P(x) = x^2 + 1'), 'X ( x ) = x^{2} + 1');
  assert.equal(canonicalFormula('E = mc^2'), 'X = x y^{2}');
});
