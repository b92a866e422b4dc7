// Small constructors and queries over Expr for the rewrite rules: n-ary add/mul, folding of
// integer constants, structural equality, subterm positions. π is the number Math.PI, as the
// parser makes it (the LaTeX printer writes it back as `\pi`).
import { type Expr, exprKey, freeVars, num, op } from 'mathsense-server/api/math';

export const PI = num(Math.PI);
export const ZERO = num(0);
export const ONE = num(1);
export const TWO = num(2);

export const add = (...a: Expr[]): Expr => (a.length === 1 ? a[0] : op('add', ...a));
export const mul = (...a: Expr[]): Expr => (a.length === 1 ? a[0] : op('mul', ...a));
export const sub = (a: Expr, b: Expr): Expr => op('sub', a, b);
export const neg = (a: Expr): Expr => op('neg', a);
export const div = (a: Expr, b: Expr): Expr => op('div', a, b);
export const pow = (a: Expr, b: Expr): Expr => op('pow', a, b);
export const fn = (name: string, a: Expr): Expr => op(name, a);
export const D = (body: Expr, v: string): Expr => ({ k: 'D', body, v });
export const half = (): Expr => div(ONE, TWO);
export const halfPi = (): Expr => div(PI, TWO);

/** A matched op node. The brand keeps a failed `isOp(e, 'sub')` from narrowing `e` to "not an op". */
export type OpNode = Extract<Expr, { k: 'op' }> & { readonly __matched: true };
type NumNode = Extract<Expr, { k: 'num' }> & { readonly __matched: true };

export function isOp(e: Expr, name?: string): e is OpNode {
  return e.k === 'op' && (name === undefined || e.op === name);
}

export function isNum(e: Expr, v?: number): e is NumNode {
  return e.k === 'num' && (v === undefined || e.v === v);
}

export function isInt(e: Expr): boolean {
  return e.k === 'num' && Number.isInteger(e.v);
}

export const same = (a: Expr, b: Expr): boolean => exprKey(a) === exprKey(b);

export function isPi(e: Expr): boolean {
  return e.k === 'num' && e.v === Math.PI;
}

/** `π/2` written as div(π, 2) or as the number. */
export function isHalfPi(e: Expr): boolean {
  return (isOp(e, 'div') && isPi(e.args[0]) && isNum(e.args[1], 2)) || (e.k === 'num' && e.v === Math.PI / 2);
}

/** Does `e` depend on variable `v`? */
export const hasVar = (e: Expr, v: string): boolean => freeVars(e).has(v);

/** Node count (rules that grow an expression are refused past a size limit). */
export function size(e: Expr): number {
  switch (e.k) {
    case 'num': case 'var': return 1;
    case 'op': return 1 + e.args.reduce((n, a) => n + size(a), 0);
    case 'D': return 1 + size(e.body);
    default: return 1 + size(e.body) + size(e.lo) + size(e.hi);
  }
}

export function depth(e: Expr): number {
  switch (e.k) {
    case 'num': case 'var': return 0;
    case 'op': return 1 + Math.max(...e.args.map(depth));
    case 'D': return 1 + depth(e.body);
    default: return 1 + depth(e.body);
  }
}

/** An integer result of small integers, else undefined (only exact, small constants are folded). */
function foldInt(o: string, a: number, b: number): number | undefined {
  let r: number;
  switch (o) {
    case 'add': r = a + b; break;
    case 'sub': r = a - b; break;
    case 'mul': r = a * b; break;
    case 'div': if (b === 0 || a % b !== 0) return undefined; r = a / b; break;
    case 'pow': if (b < 0 || b > 12) return undefined; r = a ** b; break;
    default: return undefined;
  }
  return Number.isInteger(r) && Math.abs(r) <= 10000 ? r : undefined;
}

/** add/sub/mul/div/pow of two integers as one integer when exact; `0 + e`, `1·e` simplified. */
export function fold(o: 'add' | 'sub' | 'mul' | 'div' | 'pow', a: Expr, b: Expr): Expr {
  if (isInt(a) && isInt(b)) {
    const r = foldInt(o, (a as { v: number }).v, (b as { v: number }).v);
    if (r !== undefined) return num(r);
  }
  if (o === 'add' && isNum(a, 0)) return b;
  if ((o === 'add' || o === 'sub') && isNum(b, 0)) return a;
  if (o === 'mul' && isNum(a, 1)) return b;
  if ((o === 'mul' || o === 'div' || o === 'pow') && isNum(b, 1)) return a;
  return op(o, a, b);
}

/** The integer value of `e` (a number, or `neg` of one), else undefined. */
export function intValue(e: Expr): number | undefined {
  if (e.k === 'num' && Number.isInteger(e.v)) return e.v;
  if (isOp(e, 'neg') && e.args[0].k === 'num' && Number.isInteger(e.args[0].v)) return -e.args[0].v;
  return undefined;
}

/** The factors of a product (a non-product is its own single factor). */
export const factors = (e: Expr): Expr[] => (isOp(e, 'mul') ? e.args : [e]);

/** Children of a node that rules may rewrite (bodies of sums and products are left alone). */
function children(e: Expr): Expr[] {
  if (e.k === 'op') return e.args;
  if (e.k === 'D') return [e.body];
  return [];
}

export type Path = number[];

/** Every position in `e`, root first (`[]`). */
export function positions(e: Expr, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  children(e).forEach((c, i) => positions(c, [...prefix, i], out));
  return out;
}

export function at(e: Expr, p: Path): Expr {
  let cur = e;
  for (const i of p) cur = children(cur)[i];
  return cur;
}

/** `e` with the subterm at `p` replaced by `r` (a new tree; `e` is not modified). */
export function replaceAt(e: Expr, p: Path, r: Expr, i = 0): Expr {
  if (i === p.length) return r;
  if (e.k === 'op') return { ...e, args: e.args.map((a, j) => (j === p[i] ? replaceAt(a, p, r, i + 1) : a)) };
  if (e.k === 'D') return { ...e, body: replaceAt(e.body, p, r, i + 1) };
  return e;
}

/** The variables of the derivatives enclosing position `p`. */
export function derivativeVarsAbove(e: Expr, p: Path): string[] {
  const out: string[] = [];
  let cur = e;
  for (const i of p) {
    if (cur.k === 'D') out.push(cur.v);
    cur = children(cur)[i];
  }
  return out;
}
