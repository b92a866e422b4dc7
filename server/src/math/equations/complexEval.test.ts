// Complex evaluation: principal branches, agreement with the checker's real evaluator inside
// the real domains, rounding-error bounds that tell an exact zero from a small value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ComplexEvaluator, type Complex, type Value } from './complexEval.js';
import { IMAGINARY_UNIT } from './notation.js';
import { type Expr, num, op } from '../expr.js';
import { Evaluator } from '../evaluate.js';
import { PREFIX_UNARY } from './prefix.js';

const x: Expr = { k: 'var', name: 'x' };
const ev = new ComplexEvaluator();
const at = (e: Expr, re: number, im = 0): Value => ev.eval(e, new Map([['x', { re, im }]]));
const close = (a: Complex, b: Complex, tol = 1e-12): boolean => Math.abs(a.re - b.re) <= tol && Math.abs(a.im - b.im) <= tol;

test('complexEval: Euler\'s formula and the imaginary unit', () => {
  const lhs = op('exp', op('mul', IMAGINARY_UNIT, x));
  const rhs = op('add', op('cos', x), op('mul', IMAGINARY_UNIT, op('sin', x)));
  for (const t of [0.3, 1.1, -2.5]) assert.ok(close(at(lhs, t), at(rhs, t)));
  assert.ok(close(at(op('pow', IMAGINARY_UNIT, num(2)), 0), { re: -1, im: 0 }));
  assert.ok(close(at(op('pow', num(Math.E), op('mul', IMAGINARY_UNIT, num(Math.PI))), 0), { re: -1, im: 0 }));
});

test('complexEval: principal branches outside the real domains', () => {
  assert.ok(close(at(op('sqrt', x), -4), { re: 0, im: 2 }));
  assert.ok(close(at(op('ln', x), -1), { re: 0, im: Math.PI }));
  assert.ok(close(at(op('acos', x), 2), { re: 0, im: Math.log(2 + Math.sqrt(3)) }, 1e-12) || close(at(op('acos', x), 2), { re: 0, im: -Math.log(2 + Math.sqrt(3)) }, 1e-12));
  // sin(asin z) = z for every z
  for (const z of [[2, 0], [0.3, 0.7], [-3, -1]]) assert.ok(close(at(op('sin', op('asin', x)), z[0], z[1]), { re: z[0], im: z[1] }, 1e-9));
  for (const f of ['atanh', 'acosh', 'asinh', 'atan']) {
    const inv = f.slice(1);
    assert.ok(close(at(op(inv, op(f, x)), 0.4, 0.9), { re: 0.4, im: 0.9 }, 1e-9), f);
  }
  assert.ok(Number.isNaN(at(op('div', num(1), x), 0).re));
  assert.ok(Number.isNaN(at(op('ln', x), 0).re));
});

test('complexEval: equals the real evaluator on real arguments inside the domains', () => {
  const real = new Evaluator({ logBase: Math.E, acot: 'continuous' });
  for (const f of PREFIX_UNARY) {
    for (const t of [0.15, 0.5, 0.85]) {
      const e = op(f, x);
      const r = real.eval(e, new Map([['x', t]]));
      if (!Number.isFinite(r)) continue;
      const c = at(e, t);
      assert.ok(Math.abs(c.re - r) <= 1e-12 * Math.max(1, Math.abs(r)) && c.im === 0, `${f}(${t}): ${c.re} vs ${r}`);
    }
  }
});

test('complexEval: derivatives are exact (symbolic), and the error bound marks cancellation', () => {
  const d = at({ k: 'D', v: 'x', body: op('sin', op('pow', x, num(2))) }, 0.7);
  assert.ok(Math.abs(d.re - 2 * 0.7 * Math.cos(0.49)) < 1e-14);
  const zero = at(op('sub', op('add', op('pow', op('sin', x), num(2)), op('pow', op('cos', x), num(2))), num(1)), 0.37);
  assert.ok(Math.abs(zero.re) <= 1e3 * zero.err);
  const small = at(op('pow', x, num(20)), 0.3);
  assert.ok(Math.abs(small.re) > 1e3 * small.err);
});
