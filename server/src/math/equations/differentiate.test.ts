// Symbolic derivatives against central differences of the complex evaluator, for every
// function E-Gen uses, at points inside and outside the real domains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differentiate } from './differentiate.js';
import { ComplexEvaluator } from './complexEval.js';
import { PREFIX_UNARY } from './prefix.js';
import { type Expr, Unsupported, num, op } from '../expr.js';

const x: Expr = { k: 'var', name: 'x' };
const y: Expr = { k: 'var', name: 'y' };
const ev = new ComplexEvaluator();

function numeric(e: Expr, re: number, im: number): { re: number; im: number } {
  const h = 1e-5;
  const f = (t: number) => ev.eval(e, new Map([['x', { re: re + t, im }]]));
  const a = f(h);
  const b = f(-h);
  return { re: (a.re - b.re) / (2 * h), im: (a.im - b.im) / (2 * h) };
}

test('differentiate: every unary function, inside and outside its real domain', () => {
  for (const f of PREFIX_UNARY) {
    if (f === 'abs') continue;
    const e = op(f, op('add', op('mul', num(2), x), num(0.1)));
    const d = differentiate(e, 'x');
    for (const [re, im] of [[0.31, 0], [0.62, 0], [0.4, 0.3]]) {
      const s = ev.eval(d, new Map([['x', { re, im }]]));
      const n = numeric(e, re, im);
      if (!Number.isFinite(s.re) || !Number.isFinite(n.re)) continue;
      const tol = 1e-5 * Math.max(1, Math.hypot(n.re, n.im));
      assert.ok(Math.abs(s.re - n.re) < tol && Math.abs(s.im - n.im) < tol, `${f} at ${re}+${im}i: ${s.re}+${s.im}i vs ${n.re}+${n.im}i`);
    }
  }
});

test('differentiate: products, quotients, powers, other variables are constants', () => {
  const e = op('div', op('mul', x, op('pow', x, y)), op('add', x, num(1)));
  const d = differentiate(e, 'x');
  const env = (t: number) => new Map([['x', { re: t, im: 0 }], ['y', { re: 0.7, im: 0 }]]);
  const h = 1e-6;
  const n = (ev.eval(e, env(0.5 + h)).re - ev.eval(e, env(0.5 - h)).re) / (2 * h);
  assert.ok(Math.abs(ev.eval(d, env(0.5)).re - n) < 1e-6);
  assert.deepEqual(differentiate(op('sin', y), 'x'), num(0));
  assert.throws(() => differentiate(op('fact', x), 'x'), Unsupported);
});
