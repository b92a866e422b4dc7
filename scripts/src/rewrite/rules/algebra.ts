// Algebraic rules: commutativity and associativity, signs, fractions, distribution and
// factoring, like terms, powers and roots, identities and constants (inserted and removed).
import { type Expr, exprKey, num, op } from 'mathsense-server/api/math';
import { add, div, factors, fn, fold, half, intValue, isInt, isNum, isOp, mul, neg, ONE, pow, same, sub, TWO, ZERO, type OpNode } from '../build.js';
import { type Rule, rule } from './rule.js';
import { arg, findPair, pick, replaceArgs } from './match.js';

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
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

export const algebra: Rule[] = [
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
