// Exponential and logarithm rules: exp of sums, differences and multiples, logs of products,
// quotients and powers (on the positive reals), powers as exp, change of base.
import { op } from 'mathsense-server/api/math';
import { add, div, fn, isInt, isNum, isOp, mul, neg, ONE, pow, sub, TWO, ZERO, type OpNode } from '../build.js';
import { type Rule, rule } from './rule.js';
import { arg, findPair, replaceArgs } from './match.js';
import { exp, ln } from './functions.js';

export const explog: Rule[] = [
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
