// Trigonometric and hyperbolic rules: Pythagorean identities, quotient and reciprocal
// definitions, double angles and angle sums, parity, cofunctions, hyperbolic functions as exp.
import { type Expr } from 'mathsense-server/api/math';
import { add, div, fn, halfPi, intValue, isHalfPi, isNum, isOp, isPi, mul, neg, ONE, same, sub, TWO, ZERO } from '../build.js';
import { type Rule, rule } from './rule.js';
import { arg, findPair, pick, replaceArgs } from './match.js';
import { cos, sin, sq } from './functions.js';

/** `f(a)^n` → a, for a function name and integer exponent. */
function powOf(e: Expr, name: string, n: number): Expr | undefined {
  if (!isOp(e, 'pow') || !isNum(e.args[1], n)) return undefined;
  return arg(e.args[0], name);
}

/** `2a` written as 2·a, a·2 or a + a: the a. */
function doubled(e: Expr): Expr | undefined {
  if (isOp(e, 'mul') && e.args.length === 2) {
    if (isNum(e.args[0], 2)) return e.args[0 + 1];
    if (isNum(e.args[1], 2)) return e.args[0];
  }
  if (isOp(e, 'add') && e.args.length === 2 && same(e.args[0], e.args[1])) return e.args[0];
  return undefined;
}

/** Reciprocal pairs: f = 1 / g. */
const RECIPROCAL: Array<[string, string]> = [['sec', 'cos'], ['csc', 'sin'], ['cot', 'tan'], ['sech', 'cosh'], ['csch', 'sinh'], ['coth', 'tanh']];
/** Quotients: f = num / den. */
const QUOTIENT: Array<[string, string, string]> = [['tan', 'sin', 'cos'], ['cot', 'cos', 'sin'], ['tanh', 'sinh', 'cosh'], ['coth', 'cosh', 'sinh']];
/** Odd functions (f(-x) = -f(x)) and even ones (f(-x) = f(x)). */
const ODD = ['sin', 'tan', 'cot', 'csc', 'sinh', 'tanh', 'asin', 'atan', 'asinh'];
const EVEN = ['cos', 'sec', 'cosh'];
export const trig: Rule[] = [
  rule('pythagorean-identity', 'trig', ['add'], (e) => {
    if (!isOp(e, 'add')) return undefined;
    const p = findPair(e.args, (a, b) => { const s = powOf(a, 'sin', 2); const co = powOf(b, 'cos', 2); return !!s && !!co && same(s, co); });
    return p ? replaceArgs(e, p, ONE) : undefined;
  }, 3),
  rule('insert-pythagorean', 'trig', ['num'], (e, c) => {
    if (!isNum(e, 1) || c.vars.length === 0) return undefined;
    const t: Expr = { k: 'var', name: pick(c.vars, c.rnd) };
    return add(sq(sin(t)), sq(cos(t)));
  }, 0.3),
  rule('square-sin-cos', 'trig', ['pow', 'sub'], (e) => {
    const s = powOf(e, 'sin', 2);
    if (s) return sub(ONE, sq(cos(s)));
    const co = powOf(e, 'cos', 2);
    if (co) return sub(ONE, sq(sin(co)));
    if (isOp(e, 'sub') && isNum(e.args[0], 1)) {
      const s2 = powOf(e.args[1], 'sin', 2);
      if (s2) return sq(cos(s2));
      const c2 = powOf(e.args[1], 'cos', 2);
      if (c2) return sq(sin(c2));
    }
    return undefined;
  }, 2),
  rule('quotient-definition', 'trig', QUOTIENT.map((q) => q[0]).concat(['div']), (e) => {
    if (isOp(e, 'div')) {
      for (const [f, n, d] of QUOTIENT) {
        const a = arg(e.args[0], n);
        if (a && same(a, arg(e.args[1], d) ?? ZERO)) return fn(f, a);
      }
      return undefined;
    }
    for (const [f, n, d] of QUOTIENT) { const a = arg(e, f); if (a) return div(fn(n, a), fn(d, a)); }
    return undefined;
  }, 3),
  rule('reciprocal-function', 'trig', RECIPROCAL.map((r) => r[0]).concat(['div', 'pow']), (e) => {
    if (isOp(e, 'div') && isNum(e.args[0], 1)) {
      for (const [f, g] of RECIPROCAL) { const a = arg(e.args[1], g); if (a) return fn(f, a); }
      return undefined;
    }
    if (isOp(e, 'pow') && intValue(e.args[1]) === -1) {
      for (const [f, g] of RECIPROCAL) { const a = arg(e.args[0], g); if (a) return fn(f, a); }
      return undefined;
    }
    for (const [f, g] of RECIPROCAL) { const a = arg(e, f); if (a) return div(ONE, fn(g, a)); }
    return undefined;
  }, 3),
  rule('tan-sec-identity', 'trig', ['add', 'pow'], (e) => {
    for (const [t, s] of [['tan', 'sec'], ['cot', 'csc']]) {
      const a = powOf(e, s, 2);
      if (a) return add(ONE, sq(fn(t, a)));
      if (isOp(e, 'add')) {
        const p = findPair(e.args, (x, y) => isNum(x, 1) && !!powOf(y, t, 2));
        if (p) return replaceArgs(e, p, sq(fn(s, powOf(e.args[p[1]], t, 2)!)));
      }
    }
    return undefined;
  }, 2),
  rule('double-angle', 'trig', ['sin', 'cos', 'sinh', 'cosh', 'mul', 'sub'], (e, c) => {
    const s = arg(e, 'sin');
    if (s && doubled(s)) { const a = doubled(s)!; return mul(TWO, sin(a), cos(a)); }
    const co = arg(e, 'cos');
    if (co && doubled(co)) {
      const a = doubled(co)!;
      const r = c.rnd();
      return r < 0.4 ? sub(sq(cos(a)), sq(sin(a))) : r < 0.7 ? sub(mul(TWO, sq(cos(a))), ONE) : sub(ONE, mul(TWO, sq(sin(a))));
    }
    const sh = arg(e, 'sinh');
    if (sh && doubled(sh)) { const a = doubled(sh)!; return mul(TWO, fn('sinh', a), fn('cosh', a)); }
    const ch = arg(e, 'cosh');
    if (ch && doubled(ch)) { const a = doubled(ch)!; return add(sq(fn('cosh', a)), sq(fn('sinh', a))); }
    if (isOp(e, 'mul') && e.args.length === 3 && isNum(e.args[0], 2)) {
      for (const [f, g] of [['sin', 'cos'], ['sinh', 'cosh']]) {
        const x = e.args.slice(1).map((t) => arg(t, f)).find(Boolean);
        const y = e.args.slice(1).map((t) => arg(t, g)).find(Boolean);
        if (x && y && same(x, y)) return fn(f, mul(TWO, x));
      }
    }
    if (isOp(e, 'sub')) {
      const a = powOf(e.args[0], 'cos', 2);
      if (a && same(a, powOf(e.args[1], 'sin', 2) ?? ZERO)) return cos(mul(TWO, a));
    }
    return undefined;
  }, 2),
  rule('angle-sum', 'trig', ['sin', 'cos'], (e) => {
    const s = arg(e, 'sin');
    const co = arg(e, 'cos');
    const x = s ?? co;
    if (!x || !(isOp(x, 'add') || isOp(x, 'sub')) || x.args.length < 2) return undefined;
    const a = x.args[0];
    const b = x.op === 'add' && x.args.length > 2 ? add(...x.args.slice(1)) : x.args[1];
    const plus = x.op === 'add';
    if (s) return plus ? add(mul(sin(a), cos(b)), mul(cos(a), sin(b))) : sub(mul(sin(a), cos(b)), mul(cos(a), sin(b)));
    return plus ? sub(mul(cos(a), cos(b)), mul(sin(a), sin(b))) : add(mul(cos(a), cos(b)), mul(sin(a), sin(b)));
  }),
  rule('parity', 'trig', [...ODD, ...EVEN, 'neg'], (e) => {
    if (isOp(e, 'neg')) {
      const f = e.args[0];
      if (isOp(f) && ODD.includes(f.op) && f.args.length === 1) return fn(f.op, neg(f.args[0]));
      return undefined;
    }
    if (!isOp(e) || e.args.length !== 1) return undefined;
    const a = e.args[0];
    if (isOp(a, 'neg')) return ODD.includes(e.op) ? neg(fn(e.op, a.args[0])) : EVEN.includes(e.op) ? fn(e.op, a.args[0]) : undefined;
    if (EVEN.includes(e.op) && isOp(a, 'sub')) return fn(e.op, sub(a.args[1], a.args[0]));
    return undefined;
  }, 2),
  rule('cofunction', 'trig', ['sin', 'cos', 'tan', 'cot'], (e, c) => {
    if (!isOp(e) || e.args.length !== 1) return undefined;
    const co: Record<string, string> = { sin: 'cos', cos: 'sin', tan: 'cot', cot: 'tan' };
    const other = co[e.op];
    if (!other) return undefined;
    const a = e.args[0];
    if (isOp(a, 'sub') && isHalfPi(a.args[0])) return fn(other, a.args[1]);
    return c.rnd() < 0.25 ? fn(other, sub(halfPi(), a)) : undefined;
  }),
  rule('supplement', 'trig', ['sin', 'cos'], (e) => {
    const s = arg(e, 'sin');
    if (s && isOp(s, 'sub') && isPi(s.args[0])) return sin(s.args[1]);
    const co = arg(e, 'cos');
    if (co && isOp(co, 'sub') && isPi(co.args[0])) return neg(cos(co.args[1]));
    return undefined;
  }),
  rule('hyperbolic-as-exp', 'trig', ['sinh', 'cosh', 'tanh', 'div'], (e) => {
    const ex = (a: Expr) => fn('exp', a);
    const sh = arg(e, 'sinh');
    if (sh) return div(sub(ex(sh), ex(neg(sh))), TWO);
    const ch = arg(e, 'cosh');
    if (ch) return div(add(ex(ch), ex(neg(ch))), TWO);
    const th = arg(e, 'tanh');
    if (th) return div(sub(ex(th), ex(neg(th))), add(ex(th), ex(neg(th))));
    if (isOp(e, 'div') && isNum(e.args[1], 2)) {
      const n = e.args[0];
      if ((isOp(n, 'sub') || isOp(n, 'add')) && n.args.length === 2) {
        const a = arg(n.args[0], 'exp');
        const b = arg(n.args[1], 'exp');
        if (a && b && isOp(b, 'neg') && same(b.args[0], a)) return fn(n.op === 'sub' ? 'sinh' : 'cosh', a);
      }
    }
    return undefined;
  }, 2),
  rule('hyperbolic-pythagorean', 'trig', ['sub', 'pow'], (e) => {
    if (isOp(e, 'sub')) {
      const a = powOf(e.args[0], 'cosh', 2);
      if (a && same(a, powOf(e.args[1], 'sinh', 2) ?? ZERO)) return ONE;
      return undefined;
    }
    const ch = powOf(e, 'cosh', 2);
    if (ch) return add(ONE, sq(fn('sinh', ch)));
    const sh = powOf(e, 'sinh', 2);
    if (sh) return sub(sq(fn('cosh', sh)), ONE);
    return undefined;
  }),
];
