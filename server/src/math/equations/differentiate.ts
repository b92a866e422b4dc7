// Symbolic d/dv of an Expr, so derivatives are evaluated exactly (also at complex points)
// instead of by finite differences. `log` is the natural logarithm, as in complexEval.
// Functions without a derivative here (factorials, gcd, max, …) throw Unsupported.
import { type Expr, Unsupported, freeVars, num, op } from '../expr.js';
import { isImaginaryUnit } from './notation.js';

const ZERO = num(0);
const ONE = num(1);

const isNum = (e: Expr, v: number): boolean => e.k === 'num' && e.v === v;

function add(...xs: Expr[]): Expr {
  const t = xs.filter((x) => !isNum(x, 0));
  return t.length === 0 ? ZERO : t.length === 1 ? t[0] : op('add', ...t);
}

function mul(...xs: Expr[]): Expr {
  if (xs.some((x) => isNum(x, 0))) return ZERO;
  const t = xs.filter((x) => !isNum(x, 1));
  return t.length === 0 ? ONE : t.length === 1 ? t[0] : op('mul', ...t);
}

const neg = (x: Expr): Expr => (isNum(x, 0) ? ZERO : op('neg', x));
const div = (a: Expr, b: Expr): Expr => (isNum(a, 0) ? ZERO : op('div', a, b));
const sq = (x: Expr): Expr => op('pow', x, num(2));
const recip = (x: Expr): Expr => op('div', ONE, x);

/** d/da f(a) for the unary functions, as an expression in a. */
function outer(f: string, a: Expr): Expr {
  switch (f) {
    case 'exp': return op('exp', a);
    case 'ln': case 'log': return recip(a);
    case 'log2': return recip(mul(a, op('ln', num(2))));
    case 'log10': return recip(mul(a, op('ln', num(10))));
    case 'sqrt': return recip(mul(num(2), op('sqrt', a)));
    case 'sq': return mul(num(2), a);
    case 'sin': return op('cos', a);
    case 'cos': return neg(op('sin', a));
    case 'tan': return sq(op('sec', a));
    case 'cot': return neg(sq(op('csc', a)));
    case 'sec': return mul(op('sec', a), op('tan', a));
    case 'csc': return neg(mul(op('csc', a), op('cot', a)));
    case 'asin': return recip(op('sqrt', op('sub', ONE, sq(a))));
    case 'acos': return neg(recip(op('sqrt', op('sub', ONE, sq(a)))));
    case 'atan': return recip(op('add', ONE, sq(a)));
    case 'acot': return neg(recip(op('add', ONE, sq(a))));
    // asec a = acos(1/a), acsc a = asin(1/a): written so that they hold for the principal branches
    case 'asec': return recip(mul(sq(a), op('sqrt', op('sub', ONE, recip(sq(a))))));
    case 'acsc': return neg(recip(mul(sq(a), op('sqrt', op('sub', ONE, recip(sq(a)))))));
    case 'sinh': return op('cosh', a);
    case 'cosh': return op('sinh', a);
    case 'tanh': return sq(op('sech', a));
    case 'coth': return neg(sq(op('csch', a)));
    case 'sech': return neg(mul(op('sech', a), op('tanh', a)));
    case 'csch': return neg(mul(op('csch', a), op('coth', a)));
    case 'asinh': return recip(op('sqrt', op('add', sq(a), ONE)));
    case 'acosh': return recip(mul(op('sqrt', op('sub', a, ONE)), op('sqrt', op('add', a, ONE))));
    case 'atanh': case 'acoth': return recip(op('sub', ONE, sq(a)));
    case 'asech': return neg(recip(mul(sq(a), op('sqrt', op('sub', recip(a), ONE)), op('sqrt', op('add', recip(a), ONE)))));
    case 'acsch': return neg(recip(mul(sq(a), op('sqrt', op('add', ONE, recip(sq(a)))))));
    case 'abs': return op('div', op('abs', a), a);
    case 'floor': case 'ceil': case 'sign': return ZERO;
    default: throw new Unsupported(`derivative of ${f}`);
  }
}

/** d e / d v. Throws Unsupported for functions without a derivative here. */
export function differentiate(e: Expr, v: string): Expr {
  switch (e.k) {
    case 'num': return ZERO;
    case 'var': return e.name === v ? ONE : ZERO;
    case 'D': return differentiate(differentiate(e.body, e.v), v);
    case 'sum': {
      if (e.v === v || freeVars(e.lo).has(v) || freeVars(e.hi).has(v)) throw new Unsupported('derivative of a sum in its bounds');
      return { k: 'sum', v: e.v, lo: e.lo, hi: e.hi, body: differentiate(e.body, v) };
    }
    case 'prod': throw new Unsupported('derivative of a product');
    case 'op': break;
  }
  if (isImaginaryUnit(e) || !freeVars(e).has(v)) return ZERO;
  const [a, b] = e.args;
  const d = (x: Expr): Expr => differentiate(x, v);
  switch (e.op) {
    case 'add': return add(...e.args.map(d));
    case 'sub': return add(d(a), neg(d(b)));
    case 'neg': return neg(d(a));
    case 'mul': return add(...e.args.map((_x, k) => mul(...e.args.map((y, j) => (j === k ? d(y) : y)))));
    case 'div': return div(add(mul(d(a), b), neg(mul(a, d(b)))), sq(b));
    case 'pow': {
      const da = d(a);
      const db = d(b);
      if (isNum(db, 0)) return mul(b, op('pow', a, op('sub', b, ONE)), da);
      if (isNum(da, 0)) return mul(e, op('ln', a), db);
      return mul(e, add(mul(db, op('ln', a)), div(mul(b, da), a)));
    }
    case 'root': return d(op('pow', a, op('div', ONE, b)));
    case 'logb': return d(op('div', op('ln', a), op('ln', b)));
    default: {
      if (e.args.length !== 1) throw new Unsupported(`derivative of ${e.op}`);
      return mul(outer(e.op, a), d(a));
    }
  }
}
