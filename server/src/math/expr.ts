// The expression trees the checker evaluates: real-valued arithmetic, elementary functions,
// derivatives and finite sums/products. Anything else (free functions, sets, limits,
// integrals, matrices, …) never becomes an Expr: the parser reports it as unsupported and the
// step's verdict is unknown.

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'var'; name: string }
  | { k: 'op'; op: string; args: Expr[] }
  /** d/dv body */
  | { k: 'D'; body: Expr; v: string }
  /** Sum or product of body over v from lo to hi (integers). */
  | { k: 'sum' | 'prod'; body: Expr; v: string; lo: Expr; hi: Expr };

/** How a variable is used: decides which values it is sampled at. */
export type VarRole = 'real' | 'int';

export class Unsupported extends Error {}

export function num(v: number): Expr { return { k: 'num', v }; }
export function op(o: string, ...args: Expr[]): Expr { return { k: 'op', op: o, args }; }

/** Free variables (bound sum/derivative variables excluded). */
export function freeVars(e: Expr, out = new Set<string>(), bound: ReadonlySet<string> = new Set()): Set<string> {
  switch (e.k) {
    case 'num': break;
    case 'var': if (!bound.has(e.name)) out.add(e.name); break;
    case 'op': for (const a of e.args) freeVars(a, out, bound); break;
    case 'D': freeVars(e.body, out, bound); if (!bound.has(e.v)) out.add(e.v); break;
    case 'sum': case 'prod': {
      freeVars(e.lo, out, bound);
      freeVars(e.hi, out, bound);
      freeVars(e.body, out, new Set([...bound, e.v]));
      break;
    }
  }
  return out;
}

export function hasDerivative(e: Expr): boolean {
  switch (e.k) {
    case 'D': return true;
    case 'op': return e.args.some(hasDerivative);
    case 'sum': case 'prod': return hasDerivative(e.body);
    default: return false;
  }
}

export function exprKey(e: Expr): string {
  switch (e.k) {
    case 'num': return String(e.v);
    case 'var': return e.name;
    case 'op': return `${e.op}(${e.args.map(exprKey).join(',')})`;
    case 'D': return `D(${exprKey(e.body)},${e.v})`;
    default: return `${e.k}(${exprKey(e.body)},${e.v},${exprKey(e.lo)},${exprKey(e.hi)})`;
  }
}

/**
 * A derivative of something in other variables than its own (`\frac{dy}{dx}` with `y` a plain
 * variable: zero as written, though the author means a function of `x`). Such an expression is
 * not read the way it was meant. (`\frac{d}{dx} 2` is zero as meant.)
 */
export function derivativeOfUnknown(e: Expr): boolean {
  switch (e.k) {
    case 'num': case 'var': return false;
    case 'op': return e.args.some(derivativeOfUnknown);
    case 'D': { for (const v of freeVars(e.body)) if (v !== e.v) return true; return derivativeOfUnknown(e.body); }
    default: return derivativeOfUnknown(e.body) || derivativeOfUnknown(e.lo) || derivativeOfUnknown(e.hi);
  }
}

/**
 * A derivative of letters in which its own variable does not occur (`\\frac{\\partial r}{\\partial x}`,
 * `\\frac{\\partial}{\\partial x} \\frac{1}{r}`): zero as written, but nobody differentiates to say
 * so. Those letters depend on the variable (`r = |\\mathbf r|`), and the step is not read as meant.
 */
export function derivativeOfAbsent(e: Expr): boolean {
  switch (e.k) {
    case 'num': case 'var': return false;
    case 'op': return e.args.some(derivativeOfAbsent);
    case 'D': { const vs = freeVars(e.body); return (vs.size > 0 && !vs.has(e.v)) || derivativeOfAbsent(e.body); }
    default: return derivativeOfAbsent(e.body) || derivativeOfAbsent(e.lo) || derivativeOfAbsent(e.hi);
  }
}
