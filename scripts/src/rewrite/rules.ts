// Rewrite rules over Expr: each rewrites one node into an equal expression (on the positive
// reals at least: domain-restricted identities such as ln(ab) = ln a + ln b are allowed, and
// every generated expression is checked numerically against its seed before it is kept).
// A rule returns undefined when it does not apply. Groups: algebraic, trigonometric
// (incl. hyperbolic), exponential/logarithmic, inverse functions, calculus (derivative rules,
// and the reverse direction: a term replaced by the derivative of an antiderivative).
import { type Expr, exprKey, num, op } from 'mathsense-server/api/math';
import { D, ONE, TWO, ZERO, add, depth, div, factors, fn, fold, half, halfPi, hasVar, intValue, isHalfPi, isInt, isNum, isOp, isPi, mul, neg, pow, same, sub, type OpNode } from './build.js';

export type RuleGroup = 'algebra' | 'trig' | 'explog' | 'inverse' | 'calculus';

export interface RuleContext {
  rnd: () => number;
  /** Free variables of the whole formula (rules that introduce a variable take one of these). */
  vars: string[];
  /** Variables of the derivatives the node is inside (no new derivative is created there). */
  inDerivative: boolean;
}

export interface Rule {
  name: string;
  group: RuleGroup;
  /** Node heads the rule can match: op names, 'num', 'var', 'D', or '*' for any node. */
  heads: string[];
  /** Relative choice weight among the rules that match a node. */
  weight: number;
  /** Grows a formula from nothing in it (x → e^{ln x}, 1 → sin²t + cos²t, g → d/dx G): used sparingly. */
  insertion: boolean;
  apply(e: Expr, c: RuleContext): Expr | undefined;
}

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)];

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** The argument of a one-argument op named `name`. */
function arg(e: Expr, name: string): Expr | undefined {
  return isOp(e, name) && e.args.length === 1 ? e.args[0] : undefined;
}

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

/** `t` = coefficient · base with an integer coefficient (1 when there is none). */
function coefficient(t: Expr): [number, Expr] {
  if (isOp(t, 'mul') && t.args.length >= 2 && isInt(t.args[0])) return [(t.args[0] as { v: number }).v, t.args.length === 2 ? t.args[1] : mul(...t.args.slice(1))];
  if (isOp(t, 'neg')) { const [c, b] = coefficient(t.args[0]); return [-c, b]; }
  return [1, t];
}

function withCoefficient(c: number, b: Expr): Expr | undefined {
  if (c === 0) return undefined;
  if (c === 1) return b;
  if (c === -1) return neg(b);
  return c > 0 ? mul(num(c), b) : neg(mul(num(-c), b));
}

/** Replaces args i (and j) of an n-ary node by `r`; a single remaining argument stands alone. */
function replaceArgs(e: OpNode, idx: number[], r: Expr | undefined): Expr {
  const rest = e.args.filter((_, k) => !idx.includes(k));
  const args = r ? [...rest.slice(0, Math.min(...idx)), r, ...rest.slice(Math.min(...idx))] : rest;
  if (args.length === 0) return e.op === 'add' ? ZERO : ONE;
  return args.length === 1 ? args[0] : op(e.op, ...args);
}

/** First pair (i, j) of distinct args satisfying `f`. */
function findPair(args: Expr[], f: (a: Expr, b: Expr) => boolean): [number, number] | undefined {
  for (let i = 0; i < args.length; i++) for (let j = 0; j < args.length; j++) if (i !== j && f(args[i], args[j])) return [i, j];
  return undefined;
}

const INSERTIONS = new Set(['insert-identity', 'insert-cancelling-pair', 'split-constant', 'insert-pythagorean', 'insert-exp-log', 'insert-inverse-pair', 'derivative-of-antiderivative']);

const rule = (name: string, group: RuleGroup, heads: string[], apply: Rule['apply'], weight = 1): Rule => ({ name, group, heads, weight, apply, insertion: INSERTIONS.has(name) });

// ---------------------------------------------------------------- algebra

const algebra: Rule[] = [
  rule('add-commute', 'algebra', ['add'], (e, c) => {
    if (!isOp(e) || e.args.length < 2) return undefined;
    const a = shuffled(e.args, c.rnd);
    if (a.every((x, i) => x === e.args[i])) a.push(a.shift()!);
    return op('add', ...a);
  }, 2),
  rule('mul-commute', 'algebra', ['mul'], (e, c) => {
    if (!isOp(e) || e.args.length < 2) return undefined;
    const a = shuffled(e.args, c.rnd);
    if (a.every((x, i) => x === e.args[i])) a.push(a.shift()!);
    return op('mul', ...a);
  }, 2),
  rule('assoc-flatten', 'algebra', ['add', 'mul'], (e) => {
    if (!isOp(e) || !e.args.some((a) => isOp(a, e.op))) return undefined;
    return op(e.op, ...e.args.flatMap((a) => (isOp(a, e.op) ? a.args : [a])));
  }),
  rule('assoc-group', 'algebra', ['add', 'mul'], (e, c) => {
    if (!isOp(e) || e.args.length < 3) return undefined;
    const i = Math.floor(c.rnd() * (e.args.length - 1));
    return op(e.op, ...e.args.slice(0, i), op(e.op, e.args[i], e.args[i + 1]), ...e.args.slice(i + 2));
  }),
  rule('sub-as-add-negative', 'algebra', ['sub'], (e, c) => {
    if (!isOp(e, 'sub')) return undefined;
    return add(e.args[0], c.rnd() < 0.5 ? neg(e.args[1]) : mul(num(-1), e.args[1]));
  }, 2),
  rule('add-negative-as-sub', 'algebra', ['add'], (e) => {
    if (!isOp(e, 'add') || e.args.length < 2) return undefined;
    const i = e.args.findIndex((a, k) => k > 0 && (isOp(a, 'neg') || (isOp(a, 'mul') && isNum(a.args[0], -1))));
    if (i < 0) return undefined;
    const t = e.args[i] as OpNode;
    const b = t.op === 'neg' ? t.args[0] : mul(...t.args.slice(1));
    const rest = e.args.filter((_, k) => k !== i);
    return sub(rest.length === 1 ? rest[0] : add(...rest), b);
  }, 2),
  rule('neg-as-times-minus-one', 'algebra', ['neg'], (e) => (isOp(e, 'neg') ? mul(num(-1), e.args[0]) : undefined)),
  rule('times-minus-one-as-neg', 'algebra', ['mul'], (e) => {
    if (!isOp(e, 'mul') || !isNum(e.args[0], -1)) return undefined;
    return neg(mul(...e.args.slice(1)));
  }),
  rule('double-negation', 'algebra', ['neg'], (e) => arg(arg(e, 'neg') ?? ZERO, 'neg')),
  rule('neg-into-product', 'algebra', ['neg', 'mul'], (e) => {
    const a = arg(e, 'neg');
    if (a && isOp(a, 'mul') && !isNum(a.args[0])) return mul(neg(a.args[0]), ...a.args.slice(1));
    if (isOp(e, 'mul') && isOp(e.args[0], 'neg')) return neg(mul(e.args[0].args[0], ...e.args.slice(1)));
    return undefined;
  }),
  rule('neg-distribute', 'algebra', ['neg', 'sub'], (e, c) => {
    const a = arg(e, 'neg');
    if (a && isOp(a, 'sub')) return sub(a.args[1], a.args[0]);
    if (a && isOp(a, 'add')) return a.args.length === 2 && c.rnd() < 0.5 ? sub(neg(a.args[0]), a.args[1]) : add(...a.args.map(neg));
    if (isOp(e, 'sub') && c.rnd() < 0.3) return neg(sub(e.args[1], e.args[0]));
    return undefined;
  }),
  rule('sub-regroup', 'algebra', ['sub', 'add'], (e) => {
    if (isOp(e, 'sub') && isOp(e.args[1], 'add') && e.args[1].args.length === 2) return sub(sub(e.args[0], e.args[1].args[0]), e.args[1].args[1]);
    if (isOp(e, 'sub') && isOp(e.args[0], 'sub')) return sub(e.args[0].args[0], add(e.args[0].args[1], e.args[1]));
    if (isOp(e, 'add') && e.args.length === 2 && isOp(e.args[1], 'sub')) return sub(add(e.args[0], e.args[1].args[0]), e.args[1].args[1]);
    return undefined;
  }),
  rule('div-as-mul-inverse', 'algebra', ['div'], (e) => {
    if (!isOp(e, 'div')) return undefined;
    return isNum(e.args[0], 1) ? pow(e.args[1], num(-1)) : mul(e.args[0], pow(e.args[1], num(-1)));
  }, 2),
  rule('mul-inverse-as-div', 'algebra', ['mul', 'pow'], (e) => {
    if (isOp(e, 'pow')) {
      const n = intValue(e.args[1]);
      if (n === undefined || n >= 0) return undefined;
      return div(ONE, n === -1 ? e.args[0] : pow(e.args[0], num(-n)));
    }
    if (!isOp(e, 'mul')) return undefined;
    const i = e.args.findIndex((a) => isOp(a, 'pow') && intValue(a.args[1]) === -1);
    if (i < 0) return undefined;
    const rest = e.args.filter((_, k) => k !== i);
    return div(rest.length === 1 ? rest[0] : mul(...rest), (e.args[i] as OpNode).args[0]);
  }, 2),
  rule('div-as-mul-reciprocal', 'algebra', ['div', 'mul'], (e) => {
    if (isOp(e, 'div') && !isNum(e.args[0], 1)) return mul(e.args[0], div(ONE, e.args[1]));
    if (isOp(e, 'mul') && e.args.length === 2 && isOp(e.args[1], 'div') && isNum(e.args[1].args[0], 1)) return div(e.args[0], e.args[1].args[1]);
    return undefined;
  }),
  rule('split-fraction', 'algebra', ['div'], (e) => {
    if (!isOp(e, 'div')) return undefined;
    const [n, d] = e.args;
    if (isOp(n, 'add')) return add(...n.args.map((t) => div(t, d)));
    if (isOp(n, 'sub')) return sub(div(n.args[0], d), div(n.args[1], d));
    return undefined;
  }, 2),
  rule('combine-fractions', 'algebra', ['add', 'sub'], (e) => {
    if (isOp(e, 'sub') && isOp(e.args[0], 'div') && isOp(e.args[1], 'div') && same(e.args[0].args[1], e.args[1].args[1])) {
      return div(sub(e.args[0].args[0], e.args[1].args[0]), e.args[0].args[1]);
    }
    if (!isOp(e, 'add')) return undefined;
    const p = findPair(e.args, (a, b) => isOp(a, 'div') && isOp(b, 'div') && same(a.args[1], b.args[1]));
    if (!p) return undefined;
    const [a, b] = p.map((i) => e.args[i] as OpNode);
    return replaceArgs(e, p, div(add(a.args[0], b.args[0]), a.args[1]));
  }, 2),
  rule('common-denominator', 'algebra', ['add', 'sub'], (e) => {
    if (!isOp(e) || e.args.length !== 2 || (e.op !== 'add' && e.op !== 'sub')) return undefined;
    const [a, b] = e.args;
    const f = (x: Expr, y: Expr) => (e.op === 'add' ? add(x, y) : sub(x, y));
    if (isOp(a, 'div') && isOp(b, 'div')) {
      if (same(a.args[1], b.args[1])) return undefined;
      return div(f(mul(a.args[0], b.args[1]), mul(b.args[0], a.args[1])), mul(a.args[1], b.args[1]));
    }
    if (isOp(b, 'div')) return div(f(mul(a, b.args[1]), b.args[0]), b.args[1]);
    if (isOp(a, 'div')) return div(f(a.args[0], mul(b, a.args[1])), a.args[1]);
    return undefined;
  }),
  rule('mul-div-assoc', 'algebra', ['mul', 'div'], (e) => {
    if (isOp(e, 'mul')) {
      const i = e.args.findIndex((a) => isOp(a, 'div'));
      if (i < 0) return undefined;
      const d = e.args[i] as OpNode;
      const others = e.args.filter((_, k) => k !== i);
      return div(mul(...others, ...(isNum(d.args[0], 1) ? [] : [d.args[0]])), d.args[1]);
    }
    if (isOp(e, 'div') && isOp(e.args[0], 'mul') && e.args[0].args.length >= 2) {
      const [first, ...rest] = e.args[0].args;
      return mul(first, div(rest.length === 1 ? rest[0] : mul(...rest), e.args[1]));
    }
    return undefined;
  }, 2),
  rule('nested-fraction', 'algebra', ['div'], (e) => {
    if (!isOp(e, 'div')) return undefined;
    const [a, b] = e.args;
    if (isOp(b, 'div')) return div(mul(a, b.args[1]), b.args[0]);
    if (isOp(a, 'div')) return div(a.args[0], mul(a.args[1], b));
    if (isOp(b, 'mul') && b.args.length === 2) return div(div(a, b.args[0]), b.args[1]);
    return undefined;
  }),
  rule('distribute', 'algebra', ['mul'], (e, c) => {
    if (!isOp(e, 'mul')) return undefined;
    const sums = e.args.map((a, i) => (isOp(a, 'add') || isOp(a, 'sub') ? i : -1)).filter((i) => i >= 0);
    if (sums.length === 0) return undefined;
    const i = pick(sums, c.rnd);
    const s = e.args[i] as OpNode;
    const others = e.args.filter((_, k) => k !== i);
    const times = (t: Expr) => (i === 0 ? mul(t, ...others) : mul(...others, t));
    return s.op === 'add' ? add(...s.args.map(times)) : sub(times(s.args[0]), times(s.args[1]));
  }, 3),
  rule('factor-out', 'algebra', ['add', 'sub'], (e, c) => {
    if (!isOp(e) || (e.op !== 'add' && e.op !== 'sub')) return undefined;
    const fs = e.args.map((t) => factors(t).map(exprKey));
    const counts = new Map<string, number[]>();
    fs.forEach((keys, i) => { for (const k of new Set(keys)) counts.set(k, [...(counts.get(k) ?? []), i]); });
    const common = [...counts.entries()].filter(([, idx]) => idx.length >= 2 && (e.op === 'add' || idx.length === 2));
    if (common.length === 0) return undefined;
    const [key, idx] = pick(common, c.rnd);
    const without = (t: Expr): Expr => {
      const f = factors(t);
      const k = f.findIndex((x) => exprKey(x) === key);
      const rest = f.filter((_, j) => j !== k);
      return rest.length === 0 ? ONE : rest.length === 1 ? rest[0] : mul(...rest);
    };
    const factor = factors(e.args[idx[0]]).find((x) => exprKey(x) === key)!;
    if (e.op === 'sub') return mul(factor, sub(without(e.args[0]), without(e.args[1])));
    return replaceArgs(e, idx, mul(factor, add(...idx.map((i) => without(e.args[i])))));
  }, 2),
  rule('collect-like-terms', 'algebra', ['add'], (e) => {
    if (!isOp(e, 'add')) return undefined;
    const p = findPair(e.args, (a, b) => same(coefficient(a)[1], coefficient(b)[1]));
    if (!p) return undefined;
    const [ca, base] = coefficient(e.args[p[0]]);
    const [cb] = coefficient(e.args[p[1]]);
    return replaceArgs(e, p, withCoefficient(ca + cb, base));
  }, 2),
  rule('double-as-sum', 'algebra', ['mul'], (e) => {
    if (!isOp(e, 'mul') || e.args.length !== 2 || !isNum(e.args[0], 2)) return undefined;
    return add(e.args[1], e.args[1]);
  }),
  rule('square-expand', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow') || !isNum(e.args[1], 2)) return undefined;
    const b = e.args[0];
    if (isOp(b, 'add') && b.args.length === 2) {
      const [x, y] = b.args;
      return add(pow(x, TWO), mul(TWO, x, y), pow(y, TWO));
    }
    if (isOp(b, 'sub')) {
      const [x, y] = b.args;
      return add(sub(pow(x, TWO), mul(TWO, x, y)), pow(y, TWO));
    }
    return undefined;
  }, 2),
  rule('square-factor', 'algebra', ['add'], (e) => {
    if (!isOp(e, 'add') || e.args.length !== 3) return undefined;
    const sq = e.args.map((t, i) => (isOp(t, 'pow') && isNum(t.args[1], 2) ? i : -1)).filter((i) => i >= 0);
    if (sq.length !== 2) return undefined;
    const [x, y] = sq.map((i) => (e.args[i] as OpNode).args[0]);
    const mid = e.args[3 - sq[0] - sq[1]];
    const keys = factors(mid).map(exprKey).sort();
    if (keys.join('|') !== [exprKey(TWO), exprKey(x), exprKey(y)].sort().join('|')) return undefined;
    return pow(add(x, y), TWO);
  }),
  rule('difference-of-squares', 'algebra', ['sub', 'mul'], (e) => {
    if (isOp(e, 'sub') && isOp(e.args[0], 'pow') && isNum(e.args[0].args[1], 2)) {
      const x = e.args[0].args[0];
      const y = isOp(e.args[1], 'pow') && isNum(e.args[1].args[1], 2) ? e.args[1].args[0] : isNum(e.args[1], 1) ? ONE : undefined;
      if (!y) return undefined;
      return mul(add(x, y), sub(x, y));
    }
    if (isOp(e, 'mul') && e.args.length === 2) {
      const [a, b] = e.args;
      if (isOp(a, 'add') && isOp(b, 'sub') && a.args.length === 2 && same(a.args[0], b.args[0]) && same(a.args[1], b.args[1])) {
        return sub(pow(a.args[0], TWO), pow(a.args[1], TWO));
      }
    }
    return undefined;
  }),
  rule('power-as-product', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow') || !(isNum(e.args[1], 2) || isNum(e.args[1], 3))) return undefined;
    const x = e.args[0];
    return (e.args[1] as { v: number }).v === 2 ? mul(x, x) : mul(x, x, x);
  }, 2),
  rule('product-as-power', 'algebra', ['mul'], (e) => {
    if (!isOp(e, 'mul')) return undefined;
    const p = findPair(e.args, (a, b) => same(a, b) && !isNum(a));
    if (!p) return undefined;
    const x = e.args[p[0]];
    const k = e.args.filter((a) => same(a, x)).length;
    const idx = e.args.map((a, i) => (same(a, x) ? i : -1)).filter((i) => i >= 0);
    return replaceArgs(e, idx, pow(x, num(k)));
  }, 2),
  rule('add-exponents', 'algebra', ['mul', 'div'], (e) => {
    const base = (t: Expr): Expr => (isOp(t, 'pow') ? t.args[0] : t);
    const expo = (t: Expr): Expr => (isOp(t, 'pow') ? t.args[1] : ONE);
    if (isOp(e, 'div')) {
      const [a, b] = e.args;
      if (isNum(base(a)) || !same(base(a), base(b)) || (!isOp(a, 'pow') && !isOp(b, 'pow'))) return undefined;
      return pow(base(a), fold('sub', expo(a), expo(b)));
    }
    if (!isOp(e, 'mul')) return undefined;
    const p = findPair(e.args, (a, b) => !isNum(base(a)) && same(base(a), base(b)) && (isOp(a, 'pow') || isOp(b, 'pow')));
    if (!p) return undefined;
    const [a, b] = p.map((i) => e.args[i]);
    return replaceArgs(e, p, pow(base(a), fold('add', expo(a), expo(b))));
  }, 2),
  rule('split-exponent', 'algebra', ['pow'], (e, c) => {
    if (!isOp(e, 'pow')) return undefined;
    const [x, n] = e.args;
    if (isOp(n, 'add') && n.args.length === 2) return mul(pow(x, n.args[0]), pow(x, n.args[1]));
    if (isOp(n, 'sub')) return div(pow(x, n.args[0]), pow(x, n.args[1]));
    const k = intValue(n);
    if (k !== undefined && k >= 2 && k <= 6 && !isNum(x)) {
      const j = 1 + Math.floor(c.rnd() * (k - 1));
      return mul(j === 1 ? x : pow(x, num(j)), k - j === 1 ? x : pow(x, num(k - j)));
    }
    return undefined;
  }, 2),
  rule('power-of-power', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow') || !isOp(e.args[0], 'pow')) return undefined;
    return pow(e.args[0].args[0], fold('mul', e.args[0].args[1], e.args[1]));
  }, 2),
  rule('unnest-power', 'algebra', ['pow'], (e, c) => {
    if (!isOp(e, 'pow')) return undefined;
    const [x, n] = e.args;
    if (isOp(n, 'mul') && n.args.length === 2) return pow(pow(x, n.args[0]), n.args[1]);
    const k = intValue(n);
    if (k !== undefined && k >= 4 && k % 2 === 0) return c.rnd() < 0.5 ? pow(pow(x, TWO), num(k / 2)) : pow(pow(x, num(k / 2)), TWO);
    return undefined;
  }),
  rule('power-of-product', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow')) return undefined;
    const [b, n] = e.args;
    if (isOp(b, 'mul')) return mul(...b.args.map((f) => pow(f, n)));
    if (isOp(b, 'div')) return div(pow(b.args[0], n), pow(b.args[1], n));
    return undefined;
  }, 2),
  rule('product-of-powers', 'algebra', ['mul', 'div'], (e) => {
    if (isOp(e, 'div') && isOp(e.args[0], 'pow') && isOp(e.args[1], 'pow') && same(e.args[0].args[1], e.args[1].args[1])) {
      return pow(div(e.args[0].args[0], e.args[1].args[0]), e.args[0].args[1]);
    }
    if (!isOp(e, 'mul')) return undefined;
    const p = findPair(e.args, (a, b) => isOp(a, 'pow') && isOp(b, 'pow') && same(a.args[1], b.args[1]) && !same(a.args[0], b.args[0]));
    if (!p) return undefined;
    const [a, b] = p.map((i) => e.args[i] as OpNode);
    return replaceArgs(e, p, pow(mul(a.args[0], b.args[0]), a.args[1]));
  }),
  rule('root-as-power', 'algebra', ['sqrt', 'root'], (e) => {
    if (isOp(e, 'sqrt')) return pow(e.args[0], half());
    if (isOp(e, 'root')) return pow(e.args[0], div(ONE, e.args[1]));
    return undefined;
  }, 2),
  rule('power-as-root', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow')) return undefined;
    const [x, n] = e.args;
    if (isNum(n, 0.5) || (isOp(n, 'div') && isNum(n.args[0], 1) && isNum(n.args[1], 2))) return fn('sqrt', x);
    if (isOp(n, 'div') && isNum(n.args[0], 1) && isInt(n.args[1])) return op('root', x, n.args[1]);
    return undefined;
  }, 2),
  rule('root-of-product', 'algebra', ['sqrt', 'mul', 'div'], (e) => {
    const a = arg(e, 'sqrt');
    if (a && isOp(a, 'mul')) return mul(...a.args.map((f) => fn('sqrt', f)));
    if (a && isOp(a, 'div')) return div(fn('sqrt', a.args[0]), fn('sqrt', a.args[1]));
    if (isOp(e, 'mul')) {
      const p = findPair(e.args, (x, y) => isOp(x, 'sqrt') && isOp(y, 'sqrt'));
      if (!p) return undefined;
      return replaceArgs(e, p, fn('sqrt', mul(...p.map((i) => (e.args[i] as OpNode).args[0]))));
    }
    if (isOp(e, 'div') && isOp(e.args[0], 'sqrt') && isOp(e.args[1], 'sqrt')) return fn('sqrt', div(e.args[0].args[0], e.args[1].args[0]));
    return undefined;
  }),
  rule('square-of-root', 'algebra', ['pow'], (e) => {
    if (!isOp(e, 'pow') || !isNum(e.args[1], 2)) return undefined;
    return arg(e.args[0], 'sqrt');
  }),
  rule('remove-identity', 'algebra', ['add', 'sub', 'mul', 'div', 'pow'], (e) => {
    if (!isOp(e)) return undefined;
    switch (e.op) {
      case 'add': { const i = e.args.findIndex((a) => isNum(a, 0)); return i < 0 ? undefined : replaceArgs(e, [i], undefined); }
      case 'mul': { const i = e.args.findIndex((a) => isNum(a, 1)); return i < 0 ? undefined : replaceArgs(e, [i], undefined); }
      case 'sub': return isNum(e.args[1], 0) ? e.args[0] : undefined;
      case 'div': case 'pow': return isNum(e.args[1], 1) ? e.args[0] : undefined;
      default: return undefined;
    }
  }, 3),
  rule('insert-identity', 'algebra', ['var', 'op', 'D'], (e, c) => {
    const r = c.rnd();
    return r < 0.3 ? add(e, ZERO) : r < 0.6 ? mul(ONE, e) : r < 0.8 ? div(e, ONE) : pow(e, ONE);
  }, 0.1),
  rule('cancel', 'algebra', ['sub', 'div', 'add', 'mul'], (e) => {
    if (isOp(e, 'sub') && same(e.args[0], e.args[1])) return ZERO;
    if (isOp(e, 'div') && same(e.args[0], e.args[1]) && !isNum(e.args[0], 0)) return ONE;
    if (isOp(e, 'add')) {
      const p = findPair(e.args, (a, b) => (isOp(b, 'neg') && same(b.args[0], a)) || (isOp(b, 'mul') && b.args.length === 2 && isNum(b.args[0], -1) && same(b.args[1], a)));
      return p ? replaceArgs(e, p, undefined) : undefined;
    }
    if (isOp(e, 'mul')) {
      const p = findPair(e.args, (a, b) => (isOp(b, 'pow') && intValue(b.args[1]) === -1 && same(b.args[0], a)) || (isOp(b, 'div') && isNum(b.args[0], 1) && same(b.args[1], a)));
      return p ? replaceArgs(e, p, undefined) : undefined;
    }
    return undefined;
  }, 3),
  rule('insert-cancelling-pair', 'algebra', ['num'], (e, c) => {
    if (c.vars.length === 0) return undefined;
    const t: Expr = { k: 'var', name: pick(c.vars, c.rnd) };
    if (isNum(e, 0)) return sub(t, t);
    if (isNum(e, 1)) return div(t, t);
    return undefined;
  }, 0.1),
  rule('fold-constants', 'algebra', ['add', 'sub', 'mul', 'div', 'pow', 'neg'], (e) => {
    if (!isOp(e)) return undefined;
    if (e.op === 'neg') return isInt(e.args[0]) ? num(-(e.args[0] as { v: number }).v) : undefined;
    if (e.op === 'add' || e.op === 'mul') {
      const ints = e.args.map((a, i) => (isInt(a) ? i : -1)).filter((i) => i >= 0);
      if (ints.length < 2) return undefined;
      const v = ints.reduce((acc, i) => (e.op === 'add' ? acc + (e.args[i] as { v: number }).v : acc * (e.args[i] as { v: number }).v), e.op === 'add' ? 0 : 1);
      if (Math.abs(v) > 10000) return undefined;
      return replaceArgs(e, ints, num(v));
    }
    if (!isInt(e.args[0]) || !isInt(e.args[1])) return undefined;
    const r = fold(e.op as 'sub' | 'div' | 'pow', e.args[0], e.args[1]);
    return r.k === 'num' ? r : undefined;
  }, 2),
  rule('split-constant', 'algebra', ['num'], (e, c) => {
    const v = intValue(e);
    if (v === undefined || v < 2 || v > 100) return undefined;
    const ds = [...Array(v).keys()].filter((d) => d >= 2 && d < v && v % d === 0);
    if (ds.length && c.rnd() < 0.5) { const d = pick(ds, c.rnd); return mul(num(d), num(v / d)); }
    const k = 1 + Math.floor(c.rnd() * (v - 1));
    return add(num(k), num(v - k));
  }, 0.2),
];

// ---------------------------------------------------------------- trigonometric

const sin = (a: Expr) => fn('sin', a);
const cos = (a: Expr) => fn('cos', a);
const sq = (a: Expr) => pow(a, TWO);

/** Reciprocal pairs: f = 1 / g. */
const RECIPROCAL: Array<[string, string]> = [['sec', 'cos'], ['csc', 'sin'], ['cot', 'tan'], ['sech', 'cosh'], ['csch', 'sinh'], ['coth', 'tanh']];
/** Quotients: f = num / den. */
const QUOTIENT: Array<[string, string, string]> = [['tan', 'sin', 'cos'], ['cot', 'cos', 'sin'], ['tanh', 'sinh', 'cosh'], ['coth', 'cosh', 'sinh']];
/** Odd functions (f(-x) = -f(x)) and even ones (f(-x) = f(x)). */
const ODD = ['sin', 'tan', 'cot', 'csc', 'sinh', 'tanh', 'asin', 'atan', 'asinh'];
const EVEN = ['cos', 'sec', 'cosh'];

const trig: Rule[] = [
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

// ---------------------------------------------------------------- exponential and logarithm

const exp = (a: Expr) => fn('exp', a);
const ln = (a: Expr) => fn('ln', a);

const explog: Rule[] = [
  rule('exp-of-sum', 'explog', ['exp', 'mul'], (e) => {
    const a = arg(e, 'exp');
    if (a && isOp(a, 'add')) return mul(exp(a.args[0]), exp(a.args.length === 2 ? a.args[1] : add(...a.args.slice(1))));
    if (isOp(e, 'mul')) {
      const p = findPair(e.args, (x, y) => isOp(x, 'exp') && isOp(y, 'exp'));
      if (!p) return undefined;
      return replaceArgs(e, p, exp(add(...p.map((i) => (e.args[i] as OpNode).args[0]))));
    }
    return undefined;
  }, 2),
  rule('exp-of-difference', 'explog', ['exp', 'div'], (e) => {
    const a = arg(e, 'exp');
    if (a && isOp(a, 'sub')) return div(exp(a.args[0]), exp(a.args[1]));
    if (a && isOp(a, 'neg')) return div(ONE, exp(a.args[0]));
    if (isOp(e, 'div')) {
      const n = arg(e.args[0], 'exp');
      const d = arg(e.args[1], 'exp');
      if (d && n) return exp(sub(n, d));
      if (d && isNum(e.args[0], 1)) return exp(neg(d));
    }
    return undefined;
  }, 2),
  rule('exp-of-multiple', 'explog', ['exp', 'pow'], (e) => {
    const a = arg(e, 'exp');
    if (a && isOp(a, 'mul') && a.args.length === 2 && isInt(a.args[0])) return pow(exp(a.args[1]), a.args[0]);
    if (isOp(e, 'pow') && isOp(e.args[0], 'exp')) return exp(mul(e.args[1], e.args[0].args[0]));
    return undefined;
  }),
  rule('log-of-product', 'explog', ['ln', 'add'], (e) => {
    const a = arg(e, 'ln');
    if (a && isOp(a, 'mul')) return add(ln(a.args[0]), ln(a.args.length === 2 ? a.args[1] : mul(...a.args.slice(1))));
    if (isOp(e, 'add')) {
      const p = findPair(e.args, (x, y) => isOp(x, 'ln') && isOp(y, 'ln'));
      if (!p) return undefined;
      return replaceArgs(e, p, ln(mul(...p.map((i) => (e.args[i] as OpNode).args[0]))));
    }
    return undefined;
  }, 2),
  rule('log-of-quotient', 'explog', ['ln', 'sub'], (e) => {
    const a = arg(e, 'ln');
    if (a && isOp(a, 'div')) return isNum(a.args[0], 1) ? neg(ln(a.args[1])) : sub(ln(a.args[0]), ln(a.args[1]));
    if (isOp(e, 'sub') && isOp(e.args[0], 'ln') && isOp(e.args[1], 'ln')) return ln(div(e.args[0].args[0], e.args[1].args[0]));
    return undefined;
  }, 2),
  rule('log-of-power', 'explog', ['ln', 'mul', 'div'], (e) => {
    const a = arg(e, 'ln');
    if (a && isOp(a, 'pow')) return mul(a.args[1], ln(a.args[0]));
    if (a && isOp(a, 'sqrt')) return div(ln(a.args[0]), TWO);
    if (isOp(e, 'mul') && e.args.length === 2 && isOp(e.args[1], 'ln')) return ln(pow(e.args[1].args[0], e.args[0]));
    if (isOp(e, 'div') && isNum(e.args[1], 2) && isOp(e.args[0], 'ln')) return ln(fn('sqrt', e.args[0].args[0]));
    return undefined;
  }, 2),
  rule('exp-log-inverse', 'explog', ['exp', 'ln'], (e) => arg(arg(e, 'exp') ?? ZERO, 'ln') ?? arg(arg(e, 'ln') ?? ZERO, 'exp'), 3),
  rule('insert-exp-log', 'explog', ['var', 'op'], (e, c) => (c.rnd() < 0.5 ? exp(ln(e)) : ln(exp(e))), 0.12),
  rule('power-as-exp', 'explog', ['pow', 'exp'], (e) => {
    if (isOp(e, 'pow') && !isNum(e.args[0])) return exp(mul(e.args[1], ln(e.args[0])));
    const a = arg(e, 'exp');
    if (a && isOp(a, 'mul') && a.args.length === 2 && isOp(a.args[1], 'ln')) return pow(a.args[1].args[0], a.args[0]);
    return undefined;
  }),
  rule('change-of-base', 'explog', ['logb', 'div'], (e) => {
    if (isOp(e, 'logb')) return div(ln(e.args[0]), ln(e.args[1]));
    if (isOp(e, 'div') && isOp(e.args[0], 'ln') && isOp(e.args[1], 'ln')) return op('logb', e.args[0].args[0], e.args[1].args[0]);
    return undefined;
  }),
  rule('exp-log-constants', 'explog', ['exp', 'ln'], (e) => {
    if (isNum(arg(e, 'exp') ?? ONE, 0)) return ONE;
    if (isNum(arg(e, 'ln') ?? ZERO, 1)) return ZERO;
    return undefined;
  }),
];

// ---------------------------------------------------------------- inverse functions

/** f with its inverse: f(f⁻¹(x)) = x wherever f⁻¹ is defined; f⁻¹(f(x)) = x on the principal branch. */
const INVERSE: Array<[string, string]> = [
  ['sin', 'asin'], ['cos', 'acos'], ['tan', 'atan'], ['cot', 'acot'], ['sinh', 'asinh'], ['cosh', 'acosh'], ['tanh', 'atanh'], ['exp', 'ln'],
];
const INVERSE_OF = new Map([...INVERSE, ...INVERSE.map(([f, g]) => [g, f] as [string, string])]);

const inverse: Rule[] = [
  rule('inverse-cancel', 'inverse', [...INVERSE_OF.keys()], (e) => {
    if (!isOp(e) || e.args.length !== 1) return undefined;
    const g = INVERSE_OF.get(e.op);
    return g ? arg(e.args[0], g) : undefined;
  }, 3),
  rule('insert-inverse-pair', 'inverse', ['var', 'op'], (e, c) => {
    const [f, g] = pick(INVERSE.filter(([f]) => f !== 'exp' && f !== 'cot'), c.rnd);
    return c.rnd() < 0.7 ? fn(f, fn(g, e)) : fn(g, fn(f, e));
  }, 0.15),
  rule('complementary-inverse', 'inverse', ['asin', 'acos', 'acot', 'atan', 'sub'], (e) => {
    const pairs: Array<[string, string]> = [['asin', 'acos'], ['acos', 'asin'], ['atan', 'acot'], ['acot', 'atan']];
    if (isOp(e, 'sub') && isHalfPi(e.args[0]) && isOp(e.args[1])) {
      const p = pairs.find(([f]) => f === (e.args[1] as OpNode).op);
      return p ? fn(p[1], e.args[1].args[0]) : undefined;
    }
    if (!isOp(e) || e.args.length !== 1) return undefined;
    const p = pairs.find(([f]) => f === e.op);
    return p ? sub(halfPi(), fn(p[1], e.args[0])) : undefined;
  }),
  rule('arccot-as-arctan', 'inverse', ['acot', 'atan'], (e) => {
    const a = arg(e, 'acot');
    if (a) return fn('atan', div(ONE, a));
    const t = arg(e, 'atan');
    if (t && isOp(t, 'div') && isNum(t.args[0], 1)) return fn('acot', t.args[1]);
    return undefined;
  }),
  rule('area-function-as-log', 'inverse', ['asinh', 'acosh', 'atanh'], (e) => {
    const s = arg(e, 'asinh');
    if (s) return ln(add(s, fn('sqrt', add(sq(s), ONE))));
    const c = arg(e, 'acosh');
    if (c) return ln(add(c, fn('sqrt', sub(sq(c), ONE))));
    const t = arg(e, 'atanh');
    if (t) return mul(half(), ln(div(add(ONE, t), sub(ONE, t))));
    return undefined;
  }),
  rule('function-of-inverse', 'inverse', ['sin', 'cos', 'tan'], (e) => {
    const root1 = (a: Expr) => fn('sqrt', sub(ONE, sq(a)));
    const root2 = (a: Expr) => fn('sqrt', add(ONE, sq(a)));
    if (!isOp(e) || e.args.length !== 1 || !isOp(e.args[0]) || e.args[0].args.length !== 1) return undefined;
    const a = e.args[0].args[0];
    switch (`${e.op}(${e.args[0].op})`) {
      case 'sin(acos)': case 'cos(asin)': return root1(a);
      case 'cos(atan)': return div(ONE, root2(a));
      case 'sin(atan)': return div(a, root2(a));
      case 'tan(asin)': return div(a, root1(a));
      default: return undefined;
    }
  }),
];

// ---------------------------------------------------------------- calculus

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

const calculus: Rule[] = [
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

export const RULES: readonly Rule[] = [...algebra, ...trig, ...explog, ...inverse, ...calculus];

