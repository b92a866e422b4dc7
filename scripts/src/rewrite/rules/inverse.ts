// Inverse-function rules: f(f⁻¹(x)) cancelled or inserted, complementary inverses, area
// functions as logs, trigonometric functions of inverse ones.
import { type Expr } from 'mathsense-server/api/math';
import { add, div, fn, half, halfPi, isHalfPi, isNum, isOp, mul, ONE, sub, type OpNode } from '../build.js';
import { type Rule, rule } from './rule.js';
import { arg, pick } from './match.js';
import { ln, sq } from './functions.js';

/** f with its inverse: f(f⁻¹(x)) = x wherever f⁻¹ is defined; f⁻¹(f(x)) = x on the principal branch. */
const INVERSE: Array<[string, string]> = [
  ['sin', 'asin'], ['cos', 'acos'], ['tan', 'atan'], ['cot', 'acot'], ['sinh', 'asinh'], ['cosh', 'acosh'], ['tanh', 'atanh'], ['exp', 'ln'],
];
const INVERSE_OF = new Map([...INVERSE, ...INVERSE.map(([f, g]) => [g, f] as [string, string])]);
export const inverse: Rule[] = [
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
