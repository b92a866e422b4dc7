// Complex evaluation of Expr trees with principal branches, so `e^{i\theta}` equals
// `\cos\theta + i\sin\theta` and `\arccos 2` has a value. Real arguments inside a function's
// real domain take the real library functions (exact agreement with the checker's Evaluator);
// elsewhere the principal complex branch. Derivatives are differentiated symbolically first.
// Every value carries a first-order bound on its rounding error (`err`), so callers can tell
// an exact zero (`\sin^2 t + \cos^2 t - 1`) from a small value.
import type { Expr } from '../expr.js';
import { num, op } from '../expr.js';
import { Evaluator } from '../evaluate.js';
import { differentiate } from './differentiate.js';
import { isImaginaryUnit } from './notation.js';

export interface Complex { re: number; im: number }

export type ComplexEnv = ReadonlyMap<string, Complex>;

const EPS = 2.3e-16;
const NAN: Complex = { re: NaN, im: NaN };

const c = (re: number, im = 0): Complex => ({ re, im });
export const abs = (a: Complex): number => Math.hypot(a.re, a.im);
const add = (a: Complex, b: Complex): Complex => c(a.re + b.re, a.im + b.im);
const sub = (a: Complex, b: Complex): Complex => c(a.re - b.re, a.im - b.im);
const mul = (a: Complex, b: Complex): Complex => (a.im === 0 && b.im === 0 ? c(a.re * b.re) : c(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re));
const ONE = c(1);
const I = c(0, 1);

function div(a: Complex, b: Complex): Complex {
  if (b.im === 0) return b.re === 0 ? NAN : c(a.re / b.re, a.im / b.re);
  const d = b.re * b.re + b.im * b.im;
  return c((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
}

function exp(a: Complex): Complex {
  if (a.im === 0) return c(Math.exp(a.re));
  const m = Math.exp(a.re);
  return c(m * Math.cos(a.im), m * Math.sin(a.im));
}

function ln(a: Complex): Complex {
  if (a.im === 0 && a.re > 0) return c(Math.log(a.re));
  if (a.re === 0 && a.im === 0) return NAN;
  // a signed zero must not pick the other side of the branch cut: ln(-3 - 0i) is ln 3 + iπ
  return c(Math.log(abs(a)), Math.atan2(a.im === 0 ? 0 : a.im, a.re));
}

function sqrt(a: Complex): Complex {
  if (a.im === 0) return a.re >= 0 ? c(Math.sqrt(a.re)) : c(0, Math.sqrt(-a.re));
  const m = abs(a);
  const re = Math.sqrt((m + a.re) / 2);
  const im = Math.sqrt((m - a.re) / 2);
  return c(re, a.im < 0 ? -im : im);
}

function pow(a: Complex, b: Complex): Complex {
  // integer powers by multiplication: exact for negative bases, no branch cut
  if (b.im === 0 && Number.isInteger(b.re) && Math.abs(b.re) <= 64) {
    if (a.re === 0 && a.im === 0) return b.re > 0 ? c(0) : NAN;
    let r = ONE;
    let base = a;
    for (let n = Math.abs(b.re); n > 0; n >>= 1) {
      if (n & 1) r = mul(r, base);
      base = mul(base, base);
    }
    return b.re < 0 ? div(ONE, r) : r;
  }
  if (a.im === 0 && b.im === 0 && a.re > 0) return c(Math.pow(a.re, b.re));
  if (a.re === 0 && a.im === 0) return b.re > 0 ? c(0) : NAN;
  return exp(mul(b, ln(a)));
}

const sin = (a: Complex): Complex => (a.im === 0 ? c(Math.sin(a.re)) : c(Math.sin(a.re) * Math.cosh(a.im), Math.cos(a.re) * Math.sinh(a.im)));
const cos = (a: Complex): Complex => (a.im === 0 ? c(Math.cos(a.re)) : c(Math.cos(a.re) * Math.cosh(a.im), -Math.sin(a.re) * Math.sinh(a.im)));
const sinh = (a: Complex): Complex => (a.im === 0 ? c(Math.sinh(a.re)) : c(Math.sinh(a.re) * Math.cos(a.im), Math.cosh(a.re) * Math.sin(a.im)));
const cosh = (a: Complex): Complex => (a.im === 0 ? c(Math.cosh(a.re)) : c(Math.cosh(a.re) * Math.cos(a.im), Math.sinh(a.re) * Math.sin(a.im)));

/** a / b, undefined near a pole (|b| tiny), like the checker's tan near π/2. */
function ratio(a: Complex, b: Complex): Complex {
  return abs(b) < 1e-9 ? NAN : div(a, b);
}

function asin(a: Complex): Complex {
  if (a.im === 0 && Math.abs(a.re) <= 1) return c(Math.asin(a.re));
  // -i ln(iz + sqrt(1 - z²))
  const w = ln(add(mul(I, a), sqrt(sub(ONE, mul(a, a)))));
  return c(w.im, -w.re);
}

function acos(a: Complex): Complex {
  if (a.im === 0 && Math.abs(a.re) <= 1) return c(Math.acos(a.re));
  return sub(c(Math.PI / 2), asin(a));
}

function atan(a: Complex): Complex {
  if (a.im === 0) return c(Math.atan(a.re));
  // (i/2) (ln(1 - iz) - ln(1 + iz))
  const iz = mul(I, a);
  const w = sub(ln(sub(ONE, iz)), ln(add(ONE, iz)));
  return c(-w.im / 2, w.re / 2);
}

function asinh(a: Complex): Complex {
  if (a.im === 0) return c(Math.asinh(a.re));
  return ln(add(a, sqrt(add(mul(a, a), ONE))));
}

function acosh(a: Complex): Complex {
  if (a.im === 0 && a.re >= 1) return c(Math.acosh(a.re));
  return ln(add(a, mul(sqrt(add(a, ONE)), sqrt(sub(a, ONE)))));
}

function atanh(a: Complex): Complex {
  if (a.im === 0 && Math.abs(a.re) < 1) return c(Math.atanh(a.re));
  if (a.im === 0 && Math.abs(a.re) === 1) return NAN;
  const w = sub(ln(add(ONE, a)), ln(sub(ONE, a)));
  return c(w.re / 2, w.im / 2);
}

const recip = (a: Complex): Complex => div(ONE, a);

/** The unary functions at a complex argument (principal branches). */
function apply1(o: string, a: Complex): Complex {
  switch (o) {
    case 'neg': return c(-a.re, a.im === 0 ? 0 : -a.im);
    case 'exp': return exp(a);
    case 'ln': case 'log': return ln(a);
    case 'log2': return div(ln(a), c(Math.LN2));
    case 'log10': return div(ln(a), c(Math.LN10));
    case 'sqrt': return sqrt(a);
    case 'sq': return mul(a, a);
    case 'abs': return c(abs(a));
    case 'sin': return sin(a);
    case 'cos': return cos(a);
    case 'tan': return ratio(sin(a), cos(a));
    case 'cot': return ratio(cos(a), sin(a));
    case 'sec': return ratio(ONE, cos(a));
    case 'csc': return ratio(ONE, sin(a));
    case 'asin': return asin(a);
    case 'acos': return acos(a);
    case 'atan': return atan(a);
    // arccot z = arctan(1/z) (range (-π/2, π/2], arccot 0 = π/2), as in SymPy and Mathematica
    case 'acot': return a.re === 0 && a.im === 0 ? c(Math.PI / 2) : atan(recip(a));
    case 'asec': return acos(recip(a));
    case 'acsc': return asin(recip(a));
    case 'sinh': return sinh(a);
    case 'cosh': return cosh(a);
    case 'tanh': return ratio(sinh(a), cosh(a));
    case 'coth': return ratio(cosh(a), sinh(a));
    case 'sech': return ratio(ONE, cosh(a));
    case 'csch': return ratio(ONE, sinh(a));
    case 'asinh': return asinh(a);
    case 'acosh': return acosh(a);
    case 'atanh': return atanh(a);
    case 'acoth': return atanh(recip(a));
    case 'asech': return acosh(recip(a));
    case 'acsch': return asinh(recip(a));
    default: return NAN;
  }
}

/** Real-only functions (floor, factorial, gcd, …) are left to the checker's real evaluator. */
const REAL_ONLY = new Set(['floor', 'ceil', 'sign', 'fact', 'binom', 'max', 'min', 'mod', 'gcd', 'lcm']);

export interface Value extends Complex {
  /** First-order bound on the rounding error of the value. */
  err: number;
}

/** Evaluates expressions at complex points; undefined values are NaN. */
export class ComplexEvaluator {
  private readonly real = new Evaluator();
  private readonly derivatives = new WeakMap<Expr, Expr | null>();

  eval(e: Expr, env: ComplexEnv): Value {
    const v = this.ev(e, env);
    return Number.isFinite(v.re) && Number.isFinite(v.im) && Number.isFinite(v.err) ? v : { re: NaN, im: NaN, err: NaN };
  }

  private ev(e: Expr, env: ComplexEnv): Value {
    switch (e.k) {
      case 'num': return { re: e.v, im: 0, err: EPS * Math.abs(e.v) };
      case 'var': {
        const v = env.get(e.name);
        return v ? { re: v.re, im: v.im, err: EPS * abs(v) } : { re: NaN, im: NaN, err: 0 };
      }
      case 'D': {
        let d = this.derivatives.get(e);
        if (d === undefined) {
          try { d = differentiate(e.body, e.v); } catch { d = null; }
          this.derivatives.set(e, d);
        }
        return d ? this.ev(d, env) : { re: NaN, im: NaN, err: 0 };
      }
      case 'sum': case 'prod': return this.series(e, env);
      case 'op': return this.op(e, env);
    }
  }

  private series(e: Expr & { k: 'sum' | 'prod' }, env: ComplexEnv): Value {
    const lo = this.ev(e.lo, env);
    const hi = this.ev(e.hi, env);
    if (lo.im !== 0 || hi.im !== 0 || !Number.isInteger(lo.re) || !Number.isInteger(hi.re) || hi.re < lo.re || hi.re - lo.re > 2000) return { re: NaN, im: NaN, err: 0 };
    const m = new Map(env);
    let acc: Complex = e.k === 'sum' ? c(0) : ONE;
    let err = 0;
    for (let i = lo.re; i <= hi.re; i++) {
      m.set(e.v, c(i));
      const t = this.ev(e.body, m);
      if (e.k === 'sum') { acc = add(acc, t); err += t.err + EPS * abs(acc); } else { err = abs(acc) * t.err + abs(t) * err; acc = mul(acc, t); err += EPS * abs(acc); }
    }
    return { ...acc, err };
  }

  private op(e: Expr & { k: 'op' }, env: ComplexEnv): Value {
    const o = e.op;
    if (e.args.length === 0) return isImaginaryUnit(e) ? { re: 0, im: 1, err: 0 } : { re: NaN, im: NaN, err: 0 };
    const a = this.ev(e.args[0], env);
    switch (o) {
      case 'add': case 'sub': {
        let s: Complex = a;
        let err = a.err;
        for (let k = 1; k < e.args.length; k++) {
          const b = this.ev(e.args[k], env);
          s = o === 'add' ? add(s, b) : sub(s, b);
          err += b.err + EPS * abs(s);
        }
        return { ...s, err };
      }
      case 'mul': {
        let s: Complex = a;
        let err = a.err;
        for (let k = 1; k < e.args.length; k++) {
          const b = this.ev(e.args[k], env);
          err = abs(s) * b.err + abs(b) * err;
          s = mul(s, b);
          err += EPS * abs(s);
        }
        return { ...s, err };
      }
      case 'div': {
        const b = this.ev(e.args[1], env);
        const r = div(a, b);
        const mb = abs(b);
        return { ...r, err: (a.err + abs(r) * b.err) / mb + EPS * abs(r) };
      }
      case 'pow': {
        const b = this.ev(e.args[1], env);
        const r = pow(a, b);
        const ma = abs(a);
        const la = ma === 0 ? 0 : Math.abs(Math.log(ma)) + Math.PI;
        return { ...r, err: abs(r) * ((ma === 0 ? 0 : abs(b) * a.err / ma) + la * b.err + EPS) };
      }
      case 'root': {
        const n = this.ev(e.args[1], env);
        if (n.im !== 0 || !Number.isInteger(n.re) || n.re <= 0) return { re: NaN, im: NaN, err: 0 };
        // a real odd root of a negative number is real, as for the checker
        const r = a.im === 0 && a.re < 0 && n.re % 2 === 1 ? c(-Math.pow(-a.re, 1 / n.re)) : pow(a, c(1 / n.re));
        return { ...r, err: abs(r) * (a.err / Math.max(abs(a), 1e-300) / n.re + EPS) };
      }
      case 'logb': {
        const b = this.ev(e.args[1], env);
        const r = div(ln(a), ln(b));
        return { ...r, err: (a.err / Math.max(abs(a), 1e-300) + abs(r) * b.err / Math.max(abs(b), 1e-300)) / Math.max(abs(ln(b)), 1e-300) + EPS * abs(r) };
      }
      default: {
        if (REAL_ONLY.has(o)) return this.realOnly(e, a, env);
        if (e.args.length !== 1) return { re: NaN, im: NaN, err: 0 };
        const r = apply1(o, a);
        let err = EPS * abs(r);
        if (a.err > 0) {
          // first-order propagation of the argument's error through the function
          const d = abs(sub(apply1(o, c(a.re + a.err, a.im)), r));
          err += Number.isFinite(d) ? d : Infinity;
        }
        return { ...r, err };
      }
    }
  }

  private realOnly(e: Expr & { k: 'op' }, a: Value, env: ComplexEnv): Value {
    const args = [a, ...e.args.slice(1).map((x) => this.ev(x, env))];
    if (args.some((x) => x.im !== 0)) return { re: NaN, im: NaN, err: 0 };
    const v = this.real.eval(op(e.op, ...args.map((x) => num(x.re))), new Map());
    return { re: v, im: 0, err: EPS * Math.abs(v) + args.reduce((n, x) => n + x.err, 0) };
  }
}
