// Random seed expressions from a small grammar: trees of depth 2–5 over 1–3 variables with
// arithmetic, powers and roots, exp/log, trigonometric, hyperbolic and inverse functions, and
// (sometimes) a derivative at the top, like the seeds of E-Gen's clusters. Only seeds that are
// defined and not constant on the sample domain are kept (see verify.ts).
import { type Expr, num } from 'mathsense-server/api/math';
import { D, PI, add, depth, div, fn, half, mul, neg, pow, same, sub } from './build.js';
import { usableSeed } from './verify.js';

/** Variable names drawn for a seed; the canonical text renames them anyway, the printer shows them. */
const NAMES = ['x', 'y', 'z', 't', 'a', 'b', 'u', 'r', 's', 'theta', 'phi', 'alpha'];

const UNARY: Array<[string, number]> = [
  ['sin', 6], ['cos', 6], ['tan', 3], ['cot', 1], ['sec', 1], ['csc', 1], ['exp', 5], ['ln', 5], ['sqrt', 4],
  ['asin', 1], ['acos', 1], ['atan', 2], ['sinh', 1.5], ['cosh', 1.5], ['tanh', 1], ['neg', 2],
];
const BINARY: Array<[string, number]> = [['add', 20], ['sub', 8], ['mul', 18], ['div', 10], ['pow', 10]];

function weighted<T>(xs: Array<[T, number]>, rnd: () => number): T {
  const total = xs.reduce((n, [, w]) => n + w, 0);
  let r = rnd() * total;
  for (const [x, w] of xs) { r -= w; if (r < 0) return x; }
  return xs[xs.length - 1][0];
}

export interface SeedOptions {
  minDepth?: number;
  maxDepth?: number;
  /** Probability of a derivative d/dv at the top. */
  derivative?: number;
}

class Grammar {
  constructor(private readonly rnd: () => number, private readonly vars: string[]) {}

  private leaf(): Expr {
    const r = this.rnd();
    if (r < 0.76) return this.variable();
    if (r < 0.96) return num(1 + Math.floor(this.rnd() * 9));
    return PI;
  }

  /** An exponent: small integers mostly, sometimes 1/2 or a variable. */
  private exponent(): Expr {
    const r = this.rnd();
    if (r < 0.75) return num([2, 2, 2, 3, 3, 4, -1, -2][Math.floor(this.rnd() * 8)]);
    if (r < 0.88) return half();
    return this.leaf();
  }

  tree(d: number): Expr {
    if (d <= 0) return this.leaf();
    if (this.rnd() < 0.35) {
      const f = weighted(UNARY, this.rnd);
      const a = this.tree(d - 1);
      return f === 'neg' ? neg(a) : fn(f, a);
    }
    const o = weighted(BINARY, this.rnd);
    switch (o) {
      case 'pow': return pow(this.tree(d - 1), this.exponent());
      case 'sub': case 'div': {
        // `x - x`, `x / x`, `3 - 2`: not how formulas are written
        const a = this.tree(d - 1);
        let b = this.tree(d - 1 - Math.floor(this.rnd() * 2));
        for (let k = 0; k < 3 && same(a, b); k++) b = this.tree(d - 1);
        if (same(a, b)) b = num(2 + Math.floor(this.rnd() * 8));
        if (a.k === 'num' && b.k === 'num') b = this.variable();
        return o === 'sub' ? sub(a, b) : div(a, b);
      }
      default: {
        const n = this.rnd() < 0.75 ? 2 : 3;
        const args = Array.from({ length: n }, (_, i) => this.tree(i === 0 ? d - 1 : d - 1 - Math.floor(this.rnd() * 2)));
        // `7 + 3`, `8 π`: constants are not combined with each other, one becomes a variable
        if (args.filter((a) => a.k === 'num').length > 1) args[args.findIndex((a) => a.k === 'num')] = this.variable();
        return o === 'add' ? add(...args) : mul(...args);
      }
    }
  }

  private variable(): Expr {
    return { k: 'var', name: this.vars[Math.floor(this.rnd() * this.vars.length)] };
  }
}

/** One random seed; retries until the grammar gives a usable one. Deterministic for `rnd`. */
export function randomSeed(rnd: () => number, opts: SeedOptions = {}): Expr {
  const minDepth = opts.minDepth ?? 2;
  const maxDepth = opts.maxDepth ?? 5;
  for (;;) {
    const nVars = 1 + Math.floor(rnd() * rnd() * 3.2);
    const pool = [...NAMES];
    const vars: string[] = [];
    for (let i = 0; i < Math.min(3, nVars); i++) vars.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]);
    const target = minDepth + Math.floor(rnd() * (maxDepth - minDepth + 1));
    let e = new Grammar(rnd, vars).tree(target);
    if (rnd() < (opts.derivative ?? 0.12)) e = D(e, vars[0]);
    const d = depth(e);
    if (d < minDepth || d > maxDepth + 1) continue;
    if (!usableSeed(e)) continue;
    return e;
  }
}
