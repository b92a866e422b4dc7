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
