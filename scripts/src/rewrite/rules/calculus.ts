// Calculus rules: a derivative node rewritten one step at a time (chain, product, quotient,
// linearity) or evaluated, and the reverse: a term replaced by the derivative of an antiderivative.
import { type Expr, num } from 'mathsense-server/api/math';
import { add, D, depth, div, fn, fold, hasVar, intValue, isInt, isNum, isOp, mul, neg, ONE, pow, same, sub, TWO, ZERO } from '../build.js';
import { type Rule, rule } from './rule.js';
import { pick } from './match.js';
import { cos, exp, ln, sin, sq } from './functions.js';

// Kept apart from the server's math/equations/differentiate.ts: these rules rewrite one step at a time for the training data's intermediate forms, and merging would change that data.
/** f'(u) for the elementary functions. */
const DERIVATIVE: Partial<Record<string, (u: Expr) => Expr>> = {
  sin: (u) => cos(u),
  cos: (u) => neg(sin(u)),
  tan: (u) => sq(fn('sec', u)),
  cot: (u) => neg(sq(fn('csc', u))),
  sec: (u) => mul(fn('sec', u), fn('tan', u)),
  csc: (u) => neg(mul(fn('csc', u), fn('cot', u))),
  exp: (u) => exp(u),
  ln: (u) => div(ONE, u),
  sqrt: (u) => div(ONE, mul(TWO, fn('sqrt', u))),
  sinh: (u) => fn('cosh', u),
  cosh: (u) => fn('sinh', u),
  tanh: (u) => sq(fn('sech', u)),
  asin: (u) => div(ONE, fn('sqrt', sub(ONE, sq(u)))),
  acos: (u) => neg(div(ONE, fn('sqrt', sub(ONE, sq(u))))),
  atan: (u) => div(ONE, add(ONE, sq(u))),
  asinh: (u) => div(ONE, fn('sqrt', add(sq(u), ONE))),
  acosh: (u) => div(ONE, fn('sqrt', sub(sq(u), ONE))),
  atanh: (u) => div(ONE, sub(ONE, sq(u))),
};

/** One rule application at a derivative node d/dv body (chain, product, quotient, linearity). */
function derivativeStep(body: Expr, v: string): Expr | undefined {
  const Dv = (b: Expr) => D(b, v);
  if (!hasVar(body, v)) return ZERO;
  if (body.k === 'var') return ONE;
  if (body.k !== 'op') return undefined;
  const a = body.args;
  /** f'(u) · du/dx, without the factor when u is the variable itself. */
  const chain = (outer: Expr, u: Expr) => (u.k === 'var' && u.name === v ? outer : mul(outer, Dv(u)));
  switch (body.op) {
    case 'add': return add(...a.map(Dv));
    case 'sub': return sub(Dv(a[0]), Dv(a[1]));
    case 'neg': return neg(Dv(a[0]));
    case 'mul': {
      const consts = a.filter((f) => !hasVar(f, v));
      const vary = a.filter((f) => hasVar(f, v));
      if (consts.length) return mul(...consts, Dv(vary.length === 1 ? vary[0] : mul(...vary)));
      const [f, ...rest] = a;
      const g = rest.length === 1 ? rest[0] : mul(...rest);
      return add(mul(Dv(f), g), mul(f, Dv(g)));
    }
    case 'div': {
      const [f, g] = a;
      if (!hasVar(g, v)) return div(Dv(f), g);
      return div(sub(mul(Dv(f), g), mul(f, Dv(g))), sq(g));
    }
    case 'pow': {
      const [u, n] = a;
      if (!hasVar(n, v)) return chain(mul(n, pow(u, fold('sub', n, ONE))), u);
      if (!hasVar(u, v)) return chain(mul(body, ln(u)), n);
      return Dv(exp(mul(n, ln(u))));
    }
    default: {
      const f = DERIVATIVE[body.op];
      return f && a.length === 1 ? chain(f(a[0]), a[0]) : undefined;
    }
  }
}

/** The full symbolic derivative (every D node created by the steps expanded), or undefined. */
function derivative(body: Expr, v: string, budget = { n: 200 }): Expr | undefined {
  if (--budget.n < 0) return undefined;
  const r = derivativeStep(body, v);
  if (!r) return undefined;
  const expand = (e: Expr): Expr | undefined => {
    if (e.k === 'D') return derivative(e.body, e.v, budget);
    if (e.k !== 'op') return e;
    const args: Expr[] = [];
    for (const x of e.args) { const y = expand(x); if (!y) return undefined; args.push(y); }
    return { ...e, args };
  };
  return expand(r);
}

/** g ↦ G with G' = g (w.r.t. v), for a table of elementary g; a constant factor is kept outside. */
function antiderivative(g: Expr, v: string): Expr | undefined {
  const x: Expr = { k: 'var', name: v };
  const isX = (e: Expr) => e.k === 'var' && e.name === v;
  if (isX(g)) return div(sq(x), TWO);
  if (isOp(g, 'mul') && g.args.length >= 2) {
    const consts = g.args.filter((f) => !hasVar(f, v));
    const vary = g.args.filter((f) => hasVar(f, v));
    if (consts.length && vary.length === 1) { const G = antiderivative(vary[0], v); return G && mul(...consts, G); }
    return undefined;
  }
  if (!isOp(g)) return undefined;
  const a = g.args[0];
  if (g.op === 'pow' && isX(a)) {
    const n = intValue(g.args[1]);
    if (n === -1) return ln(x);
    if (n !== undefined) return div(pow(x, num(n + 1)), num(n + 1));
    return undefined;
  }
  if (g.op === 'div' && isNum(a, 1) && isX(g.args[1])) return ln(x);
  if (g.op === 'div' && isNum(a, 1) && isOp(g.args[1], 'add') && g.args[1].args.length === 2 && isNum(g.args[1].args[0], 1) && same(g.args[1].args[1], sq(x))) return fn('atan', x);
  if (g.op === 'pow' && isNum(g.args[1], 2) && isOp(a, 'sec') && isX(a.args[0])) return fn('tan', x);
  if (g.args.length !== 1) return undefined;
  if (isX(a)) {
    switch (g.op) {
      case 'cos': return sin(x);
      case 'sin': return neg(cos(x));
      case 'exp': return exp(x);
      case 'cosh': return fn('sinh', x);
      case 'sinh': return fn('cosh', x);
      case 'ln': return sub(mul(x, ln(x)), x);
      case 'sqrt': return mul(div(TWO, num(3)), pow(x, div(num(3), TWO)));
      default: return undefined;
    }
  }
  // e^{kx}: e^{kx}/k
  if (g.op === 'exp' && isOp(a, 'mul') && a.args.length === 2 && isInt(a.args[0]) && isX(a.args[1]) && !isNum(a.args[0], 0)) return div(g, a.args[0]);
  return undefined;
}

export const calculus: Rule[] = [
  rule('derivative-step', 'calculus', ['D'], (e) => (e.k === 'D' ? derivativeStep(e.body, e.v) : undefined), 4),
  rule('derivative-evaluate', 'calculus', ['D'], (e) => (e.k === 'D' ? derivative(e.body, e.v) : undefined), 2),
  rule('derivative-linearity-reverse', 'calculus', ['add', 'sub', 'mul'], (e) => {
    if (!isOp(e)) return undefined;
    if ((e.op === 'add' || e.op === 'sub') && e.args.length === 2) {
      const [a, b] = e.args;
      if (a.k === 'D' && b.k === 'D' && a.v === b.v) return D(e.op === 'add' ? add(a.body, b.body) : sub(a.body, b.body), a.v);
      return undefined;
    }
    if (e.op === 'mul' && e.args.length === 2 && e.args[1].k === 'D' && !hasVar(e.args[0], e.args[1].v)) {
      return D(mul(e.args[0], e.args[1].body), e.args[1].v);
    }
    return undefined;
  }),
  rule('derivative-of-antiderivative', 'calculus', ['var', 'op'], (e, c) => {
    if (c.inDerivative || depth(e) > 4) return undefined;
    // a bare variable becomes d/dx (x²/2) only now and then: it would otherwise be most insertions
    if (e.k === 'var' && c.rnd() < 0.7) return undefined;
    const options: Expr[] = [];
    for (const v of c.vars.filter((v) => hasVar(e, v))) {
      const G = antiderivative(e, v);
      // an integration constant does not change the derivative
      if (G) options.push(D(c.rnd() < 0.2 ? add(G, num(1 + Math.floor(c.rnd() * 5))) : G, v));
    }
    // a term constant in another variable v of the formula: d/dv (g v)
    const others = c.vars.filter((v) => !hasVar(e, v));
    if (others.length && !isNum(e) && (options.length === 0 || c.rnd() < 0.3)) {
      const v = pick(others, c.rnd);
      options.push(D(mul(e, { k: 'var', name: v }), v));
    }
    return options.length ? pick(options, c.rnd) : undefined;
  }, 1),
];
