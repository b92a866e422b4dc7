// The canonical Expr does not depend on names or operand order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalExpr, shapeKey } from './canonicalExpr.js';
import { type Expr, exprKey, num, op } from '../expr.js';

const v = (name: string): Expr => ({ k: 'var', name });

test('canonicalExpr: renamed and reordered forms are one form', () => {
  const a = canonicalExpr(op('add', op('mul', num(2), v('p')), op('pow', v('q'), num(2))));
  const b = canonicalExpr(op('add', op('pow', v('s'), num(2)), op('mul', v('t'), num(2))));
  assert.equal(exprKey(a.expr), exprKey(b.expr));
  assert.deepEqual(a.variables, ['p', 'q']);
  assert.deepEqual(b.variables, ['t', 's']);
});

test('canonicalExpr: flattening, subtraction as a sum with a negation', () => {
  const e = canonicalExpr(op('sub', op('add', op('add', v('a'), v('b')), v('c')), v('d')));
  assert.equal(exprKey(e.expr), 'add(x,y,z,neg(u))');
  assert.equal(shapeKey(op('sin', v('a'))), shapeKey(op('sin', v('z'))));
  const d = canonicalExpr({ k: 'D', v: 'theta', body: op('sin', v('theta')) });
  assert.equal(exprKey(d.expr), 'D(sin(x),x)');
});
