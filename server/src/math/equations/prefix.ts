// E-Gen's prefix notation ↔ Expr. E-Gen writes one expression per line in prefix order with
// binary `+ - * / pow`, unary functions by name, `d x e` for the derivative of e with respect
// to x, integers and decimals (negative numbers as one token), `pi`, and the variable `x`.
// E-Gen also writes `d u e` with an expression u equal to x (`d sin asin x e`): that parses to
// (de/dx) / (du/dx), so such lines do not print back to the same text.
// Used to evaluate the formula encoder and the fingerprints on E-Gen's clusters.
import { type Expr, freeVars, num, op } from '../expr.js';
import { IMAGINARY_UNIT, isImaginaryUnit } from './notation.js';
import { plainNumber } from './toLatex.js';

const BINARY: Record<string, string> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', pow: 'pow' };
const BINARY_TOKEN: Record<string, string> = { add: '+', sub: '-', mul: '*', div: '/', pow: 'pow' };
export const PREFIX_UNARY = new Set(['ln', 'exp', 'sqrt', 'abs', 'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'asin', 'acos', 'atan', 'acot', 'asec',
  'acsc', 'sinh', 'cosh', 'tanh', 'coth', 'sech', 'csch', 'asinh', 'acosh', 'atanh', 'acoth', 'asech', 'acsch']);
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
const VARIABLE = /^[a-zA-Z]$/;

/** Parses one line of prefix notation; throws an Error naming the problem. */
export function parsePrefix(line: string): Expr {
  const toks = line.trim().split(/\s+/);
  let k = 0;
  const next = (): Expr => {
    if (k >= toks.length) throw new Error(`prefix: unexpected end of "${line}"`);
    const t = toks[k++];
    const b = BINARY[t];
    if (b) { const a = next(); return op(b, a, next()); }
    if (PREFIX_UNARY.has(t)) return op(t, next());
    if (t === 'd') {
      const v = toks[k];
      if (v !== undefined && VARIABLE.test(v)) { k++; return { k: 'D', v, body: next() }; }
      // E-Gen also rewrites the variable of `d x f` into an equal expression u (`d sin asin x f`):
      // df/du, which is (df/dx) / (du/dx) by the chain rule
      const u = next();
      const vars = freeVars(u);
      if (vars.size !== 1) throw new Error(`prefix: derivative with respect to ${toPrefix(u)} in "${line}"`);
      const x = [...vars][0];
      return op('div', { k: 'D', v: x, body: next() }, { k: 'D', v: x, body: u });
    }
    if (t === 'pi') return num(Math.PI);
    if (t === 'e') return num(Math.E);
    if (t === 'i') return IMAGINARY_UNIT;
    if (NUMBER.test(t)) return num(Number(t));
    if (VARIABLE.test(t)) return { k: 'var', name: t };
    throw new Error(`prefix: unknown token "${t}"`);
  };
  const e = next();
  if (k !== toks.length) throw new Error(`prefix: trailing tokens in "${line}"`);
  return e;
}

/** Prefix notation of an expression; throws for what E-Gen cannot write (sums, binomials, …). */
export function toPrefix(e: Expr): string {
  const out: string[] = [];
  const walk = (x: Expr): void => {
    switch (x.k) {
      case 'num':
        out.push(x.v === Math.PI ? 'pi' : x.v === Math.E ? 'e' : plainNumber(x.v));
        return;
      case 'var': out.push(x.name); return;
      case 'D': out.push('d', x.v); walk(x.body); return;
      case 'op': {
        if (isImaginaryUnit(x)) { out.push('i'); return; }
        const b = BINARY_TOKEN[x.op];
        if (b && x.args.length >= 2) {
          // n-ary sums and products nest to the left: + + a b c
          for (let j = 1; j < x.args.length; j++) out.push(b);
          walk(x.args[0]);
          for (let j = 1; j < x.args.length; j++) walk(x.args[j]);
          return;
        }
        if (x.op === 'neg' && x.args.length === 1) { out.push('*', '-1'); walk(x.args[0]); return; }
        if (PREFIX_UNARY.has(x.op) && x.args.length === 1) { out.push(x.op); walk(x.args[0]); return; }
        throw new Error(`prefix: cannot write ${x.op}`);
      }
      default: throw new Error(`prefix: cannot write ${x.k}`);
    }
  };
  walk(e);
  return out.join(' ');
}
