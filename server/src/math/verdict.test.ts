// Verdicts: true identities (trig, exp/log on their domains, removable singularities,
// derivatives, sums) must never be refuted; planted mistakes must be, with a counterexample.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkStep, verdictMessage, type StepInput } from './verdict.js';
import { macroTable } from './macros.js';
import type { Relation } from './steps.js';

const none = macroTable([]);
const check = (lhs: string, rhs: string, rel: Relation = '=', extra: Partial<StepInput> = {}) => checkStep({ lhs, rhs, rel, ...extra }, none);

const TRUE_IDENTITIES: Array<[string, string, Relation?]> = [
  ['\\sin^2 x + \\cos^2 x', '1'],
  ['\\cos 2x', '\\cos^2 x - \\sin^2 x'],
  ['\\sin(a+b)', '\\sin a \\cos b + \\cos a \\sin b'],
  ['\\tan x', '\\frac{\\sin x}{\\cos x}'],
  ['e^{x} e^{y}', 'e^{x+y}'],
  ['\\exp(\\ln x)', 'x'],
  ['\\ln(xy)', '\\ln x + \\ln y'],
  ['\\log(x^2)', '2\\log x'],
  ['\\sqrt{x^2}', 'x'],
  ['\\frac{x^2-1}{x-1}', 'x+1'],
  ['\\frac{x^3 - 8}{x - 2}', 'x^2 + 2x + 4'],
  ['(a+b)^2', 'a^2 + 2ab + b^2'],
  ['x(x+1)', 'x^2 + x'],
  ['\\frac{d}{dx} x^3', '3x^2'],
  ['\\frac{d}{dx}\\left(\\sin x\\right) + 1', '\\cos x + 1'],
  ['\\frac{d}{dx} e^{2x}', '2e^{2x}'],
  ['\\sum_{k=1}^{n} k', '\\frac{n(n+1)}{2}'],
  ['\\binom{n}{k}', '\\frac{n!}{k!(n-k)!}'],
  ['{n + 1 \\choose k}', '{n \\choose k} + {n \\choose k - 1}'],
  ['\\arcsin(\\sin x)', 'x'], // holds near 0 only: must not be refuted
  ['|a + b|', '|a| + |b|', '<='],
  ['x^2 + 1', '2x', '>='],
  ['\\frac{1}{\\sqrt{13}}', '0.2773'],
  ['2^{10}', '1', 'equiv'],
];

for (const [lhs, rhs, rel] of TRUE_IDENTITIES) {
  test(`not refuted: ${lhs} ${rel ?? '='} ${rhs}`, () => {
    const v = check(lhs, rhs, rel ?? '=', rel === 'equiv' ? { mod: '11' } : {});
    assert.notEqual(v.kind, 'refuted', verdictMessage(v, rel ?? '='));
  });
}

const MISTAKES: Array<[string, string, Relation?]> = [
  ['(a+b)^2', 'a^2 + ab + b^2'],
  ['\\cos 2x', '2\\cos^2 x + 1'],
  ['\\sin(a+b)', '\\sin a \\cos b - \\cos a \\sin b'],
  ['\\frac{d}{dx} x^3', '2x^2'],
  ['\\ln(xy)', '\\ln x - \\ln y'],
  ['\\sum_{k=1}^{n} k', '\\frac{n(n-1)}{2}'],
  ['2 + 2', '5'],
  ['x^2 + 1', '2x', '<'],
  ['2^{10}', '2', 'equiv'],
];

for (const [lhs, rhs, rel] of MISTAKES) {
  test(`refuted: ${lhs} ${rel ?? '='} ${rhs}`, () => {
    const v = check(lhs, rhs, rel ?? '=', rel === 'equiv' ? { mod: '11' } : {});
    assert.equal(v.kind, 'refuted', v.reason);
    assert.ok(Number.isFinite(v.left) && Number.isFinite(v.right));
  });
}

test('the message names the counterexample and both values', () => {
  const v = check('(x+1)^2', 'x^2 + 1');
  assert.match(verdictMessage(v, '='), /^does not follow: at x = [\d.]+ left side [-\d.e+]+, right side [-\d.e+]+$/);
});

test('free functions, sets, limits and integrals are unknown, never refuted', () => {
  for (const [l, r] of [['f(x+1)', 'f(x) + 1'], ['\\int_0^1 x\\,dx', '2'], ['\\lim_{n\\to\\infty} a_n', '0'], ['A \\cup B', 'B'], ['\\mathcal{F}^0', '\\mathcal{F}']]) {
    assert.equal(check(l, r).kind, 'unknown', `${l} = ${r}`);
  }
});

test('equations and substitutions are not treated as identities', () => {
  // different variables on the two sides: a hypothesis or a definition
  assert.notEqual(check('x^2', 'xy').kind, 'refuted');
  assert.notEqual(check('x^2 + y^2', '1').kind, 'refuted');
  // implied equations (after \implies) are skipped
  assert.equal(check('x', '2', '=', { implied: true }).kind, 'skipped');
  // a justification citing a hypothesis
  assert.notEqual(check('x^3', 'x', '=', { annotation: '\\text{since } x^2 = 1' }).kind, 'refuted');
  // the surrounding text says the letters are group elements or in characteristic p
  assert.notEqual(check('(x+y)^2', 'x^2 + y^2', '=', { context: 'Let k be a field of characteristic 2.' }).kind, 'refuted');
});

test('domain statements narrow the sampled values', () => {
  // |x| = -x holds for negative x only
  assert.equal(check('|x|', '-x').kind, 'refuted');
  assert.notEqual(check('|x|', '-x', '=', { context: 'for x < 0 we have' }).kind, 'refuted');
  assert.notEqual(check('\\sqrt{x^2}', '-x', '=', { annotation: '(x < 0)' }).kind, 'refuted');
});

test('document macros are expanded before parsing', () => {
  const m = macroTable([{ name: 'sq', nargs: 1, body: '{#1}^2', cmd: 'newcommand' }]);
  assert.equal(checkStep({ lhs: '\\sq{x+1}', rhs: 'x^2 + 2x + 1', rel: '=' }, m).kind, 'equal');
  assert.equal(checkStep({ lhs: '\\sq{x+1}', rhs: 'x^2 + 2x + 2', rel: '=' }, m).kind, 'refuted');
});

// Correct mathematics that an earlier version flagged (ProofWiki eqn tables): each class of
// false alarm keeps a test; the refutations these notations still allow are checked too.

test('a hypothesis stated in the text with the same variables may have been substituted', () => {
  // Binet form: Δ² = m² + 4 is used inside a chain in m and Δ
  const binet = { context: 'Define $\\Delta = \\sqrt {m^2 + 4}$ and $\\alpha = \\frac {m + \\Delta} 2$.' };
  assert.notEqual(check('\\paren {\\frac {m + \\Delta} 2}^2', '\\frac 1 4 \\paren {m^2 + 2 m \\Delta + m^2 + 4}', '=', binet).kind, 'refuted');
  // where q = 1 - p
  assert.notEqual(check('\\frac {p \\paren {1 - p} } {\\paren {p q}^2}', '\\frac 1 {p q}', '=', { context: 'where $q = 1 - p$.' }).kind, 'refuted');
  // stated beside another row of the block ("where $r = t_1 + s$")
  assert.notEqual(check('1 - \\frac {s} {r}', '\\frac {t_1} r', '=', { notes: '\\text{where $r = t_1 + s$}' }).kind, 'refuted');
  // the annotation states the relation used (`a + b = 9`)
  assert.notEqual(check('a + b + n', '9 + n', '=', { annotation: '\\text{ $a + b = 9$ }' }).kind, 'refuted');
  // without the hypothesis the same step is refuted
  assert.equal(check('\\paren {\\frac {m + \\Delta} 2}^2', '\\frac 1 4 \\paren {m^2 + 2 m \\Delta + m^2 + 4}').kind, 'refuted');
});

test('\\phi is the golden mean when the text says so (φ² = φ + 1)', () => {
  const golden = { annotation: '\\text{Square of Golden Mean equals One plus Golden Mean}' };
  assert.notEqual(check('\\dfrac {\\phi^2} 2 - 1', '\\dfrac {\\phi + 1} 2 - 1', '=', golden).kind, 'refuted');
  assert.equal(check('\\dfrac {\\phi^2} 2 - 1', '\\dfrac {\\phi + 1} 2', '=', golden).kind, 'refuted');
});

test('unbracketed function arguments: every reading must fail before a refutation', () => {
  for (const [l, r] of [
    ['\\ln a e^{x \\ln a}', 'a^x \\ln a'],
    ['r_1 \\cos \\theta_1 r_2 \\sin \\theta_2', 'r_1 r_2 \\cos \\theta_1 \\sin \\theta_2'],
    ['e^{\\ln 2 / 16}', '2^{1/16}'],
    ['2 \\sinh \\theta \\cosh \\theta', '2 \\sinh \\theta \\cosh \\theta \\frac {\\cosh \\theta} {\\cosh \\theta}'],
    ['\\ln 2 + \\frac {\\ln 2} {\\ln 10}', '\\ln 2 \\left({1 + \\frac 1 {\\ln 10} }\\right)'],
    ['4 \\sin \\paren {\\frac \\pi {10} } \\paren {2 \\cos^2 \\frac \\pi {10} - 1}', '1'],
    ['\\cos^n a x \\sin a x', '\\sin a x \\cos^n a x'],
  ]) assert.notEqual(check(l, r).kind, 'refuted', `${l} = ${r}`);
  assert.equal(check('\\ln a e^{x \\ln a}', 'a^x').kind, 'refuted');
});

test('n, k, m are integers where that makes the step hold (\\cos n \\pi)', () => {
  assert.notEqual(check('\\cos \\theta \\cos n \\pi - \\sin \\theta \\sin n \\pi', '\\cos \\theta \\cos n \\pi').kind, 'refuted');
  assert.notEqual(check('\\cos n \\paren {-\\pi}', '\\paren {-1}^n').kind, 'refuted');
  assert.equal(check('n - \\frac {n - 1} 2', '\\frac {2 n - n - 1} 2').kind, 'refuted');
});

test('sums over a condition and reversed bounds are not evaluated', () => {
  assert.notEqual(check('\\sum_{k \\le m} \\paren {-1}^k \\binom r k', '\\paren {-1}^m \\binom {r - 1} m').kind, 'refuted');
  assert.notEqual(check('\\sum_{y = n - 1}^0 y', '\\sum_{y = 0}^{n - 1} y').kind, 'refuted');
});

test('rounded decimals and percentages, and roundings by annotation, are not mistakes', () => {
  assert.notEqual(check('\\dfrac {6565.8 - 5000} {6565.8} \\times 100 \\%', '23.85 \\%').kind, 'refuted');
  assert.notEqual(check('1 + 0.02 - 0.0004 + 0.000133', '1.0196128').kind, 'refuted');
  assert.notEqual(check('11.42', '11', '=', { annotation: '\\text{to the nearest $10^0$}' }).kind, 'refuted');
  assert.equal(check('e^{\\ln 2 / 16}', '0.9576').kind, 'refuted');
});

test('digit groups need a thin space; plain spaces are juxtaposed numbers', () => {
  assert.equal(check('10 \\times 9!', '3 \\, 628 \\, 800').kind, 'equal');
  assert.equal(check('10 \\times 9!', '3 \\, 628 \\, 000').kind, 'refuted');
  assert.notEqual(check('561 560', '280 \\times 2').kind, 'refuted');
  assert.notEqual(check('3 \\paren {10 + 10} 2', '30').kind, 'refuted');
});

test('a letter equal to an expression in itself is an equation to solve', () => {
  assert.notEqual(check('x', '4 x - \\paren {22 + 24 + 27 + 20}').kind, 'refuted');
});

test('domain statements: "x is negative", contradictory cases, and letters inside expressions', () => {
  assert.notEqual(check('\\sqrt {x^2}', '-x', '=', { annotation: '\\text{ $x$ is negative}' }).kind, 'refuted');
  // `\dfrac x a < 0` says nothing about a; the step holds for a > 0
  assert.notEqual(check('\\frac 1 {\\sqrt {\\paren {\\frac x a}^2 - 1} }', '\\frac a {\\sqrt {x^2 - a^2} }', '=', { context: '$-\\dfrac \\pi 2 < \\arccsc \\dfrac x a < 0$' }).kind, 'refuted');
  // "α > 1" and "0 < α ≤ 1" are two cases: α is sampled by default
  assert.notEqual(check('\\paren {1 + t}^\\alpha', '1 + t', '<=', { context: 'If $\\alpha > 1$ it fails. Let $0 < \\alpha \\le 1$.' }).kind, 'refuted');
});

test('a function of a two-letter product (\\cos^{n - 1} b x a \\sin b x) is read as cos(bx)·a', () => {
  assert.notEqual(check('\\cos^{n - 1} b x \\paren {a \\sin b x}', '\\cos^{n - 1} b x a \\sin b x').kind, 'refuted');
});

test('a binomial with astronomically many factors is overflow, not a billion-step loop', () => {
  const t0 = performance.now();
  const v = check('\\dbinom{20922789888000}{1828915200}', '\\dbinom{20922789888000}{1828915200} + 1');
  assert.notEqual(v.kind, 'refuted');
  assert.ok(performance.now() - t0 < 2000);
});

test('steps that cannot be checked say why in words, not in the parser\'s names', () => {
  const reason = (lhs: string, rhs: string) => { const v = check(lhs, rhs); assert.equal(v.kind, 'unknown'); return v.reason; };
  assert.equal(reason('\\lim_{n\\to\\infty} \\frac{1}{n}', '0'), 'contains a limit');
  assert.equal(reason('\\int_0^1 x\\,dx', '\\frac{1}{2}'), 'contains an integral');
  assert.equal(reason('\\sum_{k=1}^{\\infty} \\frac{1}{k^2}', '\\frac{\\pi^2}{6}'), 'a series that settles too slowly to sum here, or diverges');
  assert.equal(reason('\\lim_{x \\to \\infty} \\frac{1}{x}', '0'), 'contains a limit');
});

test('roundings and \\approx at the precision printed', () => {
  assert.equal(check('1000 \\pi', '3142').kind, 'equal');
  assert.equal(check('2^{10}', '1020').kind, 'refuted');
  const approx = (lhs: string, rhs: string, extra: Partial<StepInput> = {}) => check(lhs, rhs, 'approx', { printed: true, ...extra }).kind;
  assert.equal(approx('\\frac{0.6 + 0.75 + 0.9}{3}', '0.76'), 'refuted');
  assert.equal(approx('\\frac{0.6 + 0.75 + 0.9}{3}', '0.75'), 'equal');
  // the left side of a step after ≈ holds the author's roundings
  assert.equal(approx('0.33 + 0.33', '0.67'), 'refuted');
  assert.equal(approx('0.33 + 0.33', '0.67', { afterApprox: true }), 'equal');
  // in letters ≈ is asymptotic; `\sim` is not checked at all
  assert.equal(approx('\\sin x', 'x'), 'skipped');
  assert.equal(check('1000 \\pi', '3000', 'approx').kind, 'skipped');
});

test('differentials and percentages: another reading before a refutation stands', () => {
  assert.notEqual(check('(dt)^2 + 5 dx^2', 'dt^2 + 5 (dx)^2').kind, 'refuted');
  assert.equal(check('(dt)^2 + 5 dx^2', 'dt^2 + 6 (dx)^2').kind, 'refuted');
  assert.notEqual(check('0.415 \\times 100', '41.5\\%').kind, 'refuted');
  assert.equal(check('0.415 \\times 100', '42.5\\%').kind, 'refuted');
});

test('a derivative of letters without its variable: those letters depend on it', () => {
  assert.equal(check('\\frac{\\partial r}{\\partial x}', '\\frac{x}{r}').kind, 'unknown');
  assert.equal(check('\\frac{\\partial}{\\partial x} (x^2 y)', '3 x y').kind, 'refuted');
});
