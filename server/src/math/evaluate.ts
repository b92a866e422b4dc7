// Real evaluation of Expr trees. Undefined values (outside a function's domain, division by
// zero, non-integer factorial) are NaN, and the sampler skips such points. Every call also
// records the largest magnitude seen in intermediate results: comparisons are relative to it,
// so cancellation in `(x+1)^8 - …` does not look like a difference.
import type { Expr } from './expr.js';

export type Env = Map<string, number>;

export interface EvalOptions {
  /** Base of `\log` without a subscript. */
  logBase: number;
  /** arccot convention: range (0, π) (continuous) or atan(1/x). */
  acot: 'continuous' | 'reciprocal';
}

const EPS = 2.3e-16;
/** Terms after which a series' partial sums are compared (Evaluator.infiniteSum). */
const SERIES_TERMS = [60, 240, 960];
/** Functions of integers or with jumps: an argument's rounding error does not carry through. */
const DISCRETE = new Set(['fact', 'binom', 'mod', 'gcd', 'lcm', 'floor', 'ceil', 'sign']);

/**
 * Evaluates with a first-order bound on the rounding error (`err` after each call), so two
 * sides are compared against their own noise: cancellation in `(x+1)^8 - …` or a nearly
 * singular `tan(atan(1e11))` is not mistaken for a difference.
 */
export class Evaluator {
  /** Error bound of the last `eval`. */
  err = 0;
  constructor(private readonly opts: EvalOptions = { logBase: Math.E, acot: 'continuous' }) {}

  eval(e: Expr, env: Env): number {
    const [v, err] = this.ev(e, env);
    this.err = err;
    return Number.isFinite(v) && Number.isFinite(err) ? v : NaN;
  }

  private ev(e: Expr, env: Env): [number, number] {
    switch (e.k) {
      case 'num': return [e.v, EPS * Math.abs(e.v)];
      case 'var': { const v = env.get(e.name); return v === undefined ? [NaN, 0] : [v, EPS * Math.abs(v)]; }
      case 'D': return this.derivative(e.body, e.v, env);
      case 'sum': case 'prod': return this.series(e, env);
      case 'op': return this.op(e.op, e.args, env);
    }
  }

  private derivative(body: Expr, v: string, env: Env): [number, number] {
    const x = env.get(v);
    if (x === undefined) return [NaN, 0];
    let fmax = 0;
    const at = (t: number): number => { const m = new Map(env); m.set(v, t); const y = this.ev(body, m)[0]; fmax = Math.max(fmax, Math.abs(y)); return y; };
    const five = (h: number): number => (-at(x + 2 * h) + 8 * at(x + h) - 8 * at(x - h) + at(x - 2 * h)) / (12 * h);
    // two step sizes must agree, else the point is too close to a pole or a kink: undefined
    const h = 1e-3 * Math.max(1e-2, Math.abs(x));
    const d1 = five(h);
    const d2 = five(h / 2);
    if (!(Math.abs(d1 - d2) <= 1e-7 * Math.max(1, Math.abs(d1), Math.abs(d2)))) return [NaN, 0];
    // truncation (the two estimates' difference) plus rounding (eps |f| / h)
    return [d2, Math.abs(d1 - d2) + (20 * EPS * fmax) / h];
  }

  private series(e: Expr & { k: 'sum' | 'prod' }, env: Env): [number, number] {
    const lo = this.ev(e.lo, env)[0];
    const hi = this.ev(e.hi, env)[0];
    if (hi === Infinity && e.k === 'sum' && Number.isInteger(lo)) return this.infiniteSum(e.body, e.v, lo, env);
    // reversed bounds (`\\sum_{y = n - 1}^0`) mean different things to different authors: undefined
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi - lo > 2000 || hi < lo) return [NaN, 0];
    const m = new Map(env);
    let acc = e.k === 'sum' ? 0 : 1;
    let err = 0;
    for (let i = lo; i <= hi; i++) {
      m.set(e.v, i);
      const [t, te] = this.ev(e.body, m);
      if (e.k === 'sum') { acc += t; err += te + EPS * Math.abs(acc); } else { err = Math.abs(acc) * te + Math.abs(t) * err + EPS * Math.abs(acc * t); acc *= t; }
    }
    return [acc, err];
  }

  /**
   * A series `\\sum_{n = lo}^{\\infty}`, known only where it converges fast: partial sums after
   * SERIES_TERMS[0], [1] and [2] terms must settle like a geometric sequence of differences, whose
   * remaining tail is then added and counted as error. A slow series (`\\sum 1/n^2`), an
   * alternating one that settles slowly, or a divergent one is undefined: too slow to tell apart.
   */
  private infiniteSum(body: Expr, v: string, lo: number, env: Env): [number, number] {
    const m = new Map(env);
    const partial: number[] = [];
    let acc = 0;
    let err = 0;
    let n = 0;
    // terms lost in the rounding of the sum several times running: it has settled (`\\frac{x^n}{n!}`
    // stops before n! overflows)
    let negligible = 0;
    let early = 0;
    for (const stop of SERIES_TERMS) {
      for (; n < stop; n++) {
        m.set(v, lo + n);
        const [t, te] = this.ev(body, m);
        if (!Number.isFinite(t) || !Number.isFinite(te)) return [NaN, 0];
        acc += t;
        err += te + EPS * Math.abs(acc);
        negligible = n >= SERIES_TERMS[0] && Math.abs(t) <= EPS * Math.abs(acc) ? negligible + 1 : 0;
        if (negligible >= 8) return [acc, err];
        if (n === SERIES_TERMS[0] / 2) early = Math.abs(t);
        // terms that have not shrunk twentyfold since halfway: too slow to settle in the terms summed
        if (n === SERIES_TERMS[0] - 1 && early > 0 && Math.abs(t) > 0.05 * early) return [NaN, 0];
      }
      partial.push(acc);
    }
    const [s1, s2, s3] = partial;
    const d1 = s2 - s1;
    const d2 = s3 - s2;
    const scale = Math.max(1, Math.abs(s3));
    if (Math.abs(d2) <= 1e-13 * scale) return [s3, err + Math.abs(d2)];
    const r = d2 / d1;
    if (!(r >= 0 && r < 0.25)) return [NaN, 0];
    const tail = (d2 * r) / (1 - r);
    if (Math.abs(tail) > 1e-10 * scale) return [NaN, 0];
    return [s3 + tail, err + Math.abs(tail)];
  }

  private op(o: string, args: Expr[], env: Env): [number, number] {
    const [a, ea] = this.ev(args[0], env);
    switch (o) {
      case 'add': case 'sub': {
        let s = a;
        let err = ea;
        for (let i = 1; i < args.length; i++) {
          const [b, eb] = this.ev(args[i], env);
          s = o === 'add' ? s + b : s - b;
          err += eb + EPS * Math.abs(s);
        }
        return [s, err];
      }
      case 'mul': {
        let s = a;
        let err = ea;
        for (let i = 1; i < args.length; i++) {
          const [b, eb] = this.ev(args[i], env);
          err = Math.abs(s) * eb + Math.abs(b) * err;
          s *= b;
          err += EPS * Math.abs(s);
        }
        return [s, err];
      }
      case 'div': {
        const [b, eb] = this.ev(args[1], env);
        if (b === 0) return [NaN, 0];
        const r = a / b;
        return [r, (ea + Math.abs(r) * eb) / Math.abs(b) + EPS * Math.abs(r)];
      }
      case 'neg': return [-a, ea];
      case 'pow': {
        const [b, eb] = this.ev(args[1], env);
        const r = power(a, b);
        const la = a === 0 ? 0 : Math.log(Math.abs(a));
        return [r, Math.abs(r) * ((a === 0 ? 0 : Math.abs(b) * ea / Math.abs(a)) + Math.abs(la) * eb + EPS)];
      }
      default: {
        const extra = args.length > 1 ? args.slice(1).map((x) => this.ev(x, env)) : [];
        const f = (t: number): number => this.apply(o, t, extra.map((x) => x[0]));
        const r = f(a);
        let err = EPS * Math.abs(r) + extra.reduce((n, x) => n + x[1], 0);
        if (ea > 0 && !DISCRETE.has(o)) {
          // first-order propagation of the argument's error through f
          let d = Math.abs(f(a + ea) - r);
          if (!Number.isFinite(d)) d = Math.abs(f(a - ea) - r);
          if (!Number.isFinite(d)) return [NaN, 0];
          err += d;
        }
        return [r, err];
      }
    }
  }

  private apply(o: string, a: number, rest: number[]): number {
    switch (o) {
      case 'sqrt': return a < 0 ? NaN : Math.sqrt(a);
      case 'root': return root(a, rest[0]);
      case 'exp': return Math.exp(a);
      case 'ln': return a <= 0 ? NaN : Math.log(a);
      case 'log': return a <= 0 ? NaN : Math.log(a) / Math.log(this.opts.logBase);
      case 'log2': return a <= 0 ? NaN : Math.log2(a);
      case 'log10': return a <= 0 ? NaN : Math.log10(a);
      case 'logb': { const b = rest[0]; return a <= 0 || b <= 0 || b === 1 ? NaN : Math.log(a) / Math.log(b); }
      case 'sin': return Math.sin(a);
      case 'cos': return Math.cos(a);
      case 'tan': return nearPole(Math.cos(a)) ? NaN : Math.tan(a);
      case 'cot': return nearPole(Math.sin(a)) ? NaN : Math.cos(a) / Math.sin(a);
      case 'sec': return nearPole(Math.cos(a)) ? NaN : 1 / Math.cos(a);
      case 'csc': return nearPole(Math.sin(a)) ? NaN : 1 / Math.sin(a);
      case 'asin': return Math.asin(a);
      case 'acos': return Math.acos(a);
      case 'atan': return Math.atan(a);
      case 'acot': return this.opts.acot === 'continuous' || a === 0 ? Math.PI / 2 - Math.atan(a) : Math.atan(1 / a);
      case 'asec': return Math.acos(1 / a);
      case 'acsc': return Math.asin(1 / a);
      case 'sinh': return Math.sinh(a);
      case 'cosh': return Math.cosh(a);
      case 'tanh': return Math.tanh(a);
      case 'coth': return a === 0 ? NaN : 1 / Math.tanh(a);
      case 'sech': return 1 / Math.cosh(a);
      case 'csch': return a === 0 ? NaN : 1 / Math.sinh(a);
      case 'asinh': return Math.asinh(a);
      case 'acosh': return Math.acosh(a);
      case 'atanh': return Math.atanh(a);
      case 'acoth': return Math.atanh(1 / a);
      case 'asech': return Math.acosh(1 / a);
      case 'acsch': return Math.asinh(1 / a);
      case 'abs': return Math.abs(a);
      case 'floor': return Math.floor(a);
      case 'ceil': return Math.ceil(a);
      case 'sign': return Math.sign(a);
      case 'sq': return a * a;
      case 'fact': return factorial(a);
      case 'binom': return binomial(a, rest[0]);
      case 'max': return Math.max(a, ...rest);
      case 'min': return Math.min(a, ...rest);
      case 'mod': { const b = rest[0]; return !Number.isInteger(a) || !Number.isInteger(b) || b === 0 ? NaN : ((a % b) + b) % b; }
      case 'gcd': return intOp(a, rest[0], gcd);
      case 'lcm': return intOp(a, rest[0], (x, y) => (x === 0 || y === 0 ? 0 : Math.abs(x * y) / gcd(x, y)));
      default: return NaN;
    }
  }
}

function nearPole(d: number): boolean {
  return Math.abs(d) < 1e-9;
}

function power(a: number, b: number): number {
  if (a === 0 && b <= 0) return NaN;
  if (a < 0 && !Number.isInteger(b)) return NaN;
  return Math.pow(a, b);
}

function root(a: number, n: number): number {
  if (!Number.isInteger(n) || n <= 0) return NaN;
  if (a < 0) return n % 2 === 1 ? -Math.pow(-a, 1 / n) : NaN;
  return Math.pow(a, 1 / n);
}

function factorial(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 170) return NaN;
  let r = 1;
  for (let i = 2; i <= n; i++) r *= i;
  return r;
}

function binomial(n: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(k) || n < 0) return NaN;
  if (k < 0 || k > n) return 0;
  k = Math.min(k, n - k);
  // past ~1100 factors the value overflows anyway: no billion-step loop on ProofWiki's huge binomials
  if (k > 1100) return Infinity;
  let r = 1;
  for (let i = 1; i <= k && Number.isFinite(r); i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

function gcd(a: number, b: number): number {
  a = Math.abs(a); b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

function intOp(a: number, b: number, f: (x: number, y: number) => number): number {
  return Number.isInteger(a) && Number.isInteger(b) ? f(a, b) : NaN;
}
