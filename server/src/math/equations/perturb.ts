// Expressions read with every elementary function slightly changed (f(x) + δ_f·x² + δ_f/3,
// a different δ for each function). A trigonometric or hyperbolic identity no longer holds
// (`\cosh^2 u - \sinh^2 u - 1` is not zero any more) while rewriting that does not use the
// functions' own laws still does (term order, moving terms across `=`, renaming, `\sin^2 x`
// against `(\sin x)^2`). So two identities with the same constant side (`… = 1`) are told
// apart, and the same identity written twice is recognised.
import { type Expr, num, op } from '../expr.js';

const FUNCTIONS = new Set(['exp', 'ln', 'log', 'log2', 'log10', 'sqrt', 'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'asin', 'acos', 'atan',
  'acot', 'asec', 'acsc', 'sinh', 'cosh', 'tanh', 'coth', 'sech', 'csch', 'asinh', 'acosh', 'atanh', 'acoth', 'asech', 'acsch']);

/** A fixed δ in [0.11, 0.3) per function name (stored keys depend on it: never change). */
function delta(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return 0.11 + ((h >>> 0) % 1901) / 10000;
}

/** Whether the expression applies any function that `perturbed` changes. */
export function hasFunctions(e: Expr): boolean {
  switch (e.k) {
    case 'num': case 'var': return false;
    case 'op': return FUNCTIONS.has(e.op) || e.args.some(hasFunctions);
    case 'D': return hasFunctions(e.body);
    default: return hasFunctions(e.body) || hasFunctions(e.lo) || hasFunctions(e.hi);
  }
}

/** The expression with each elementary function f replaced by f(x) + δ_f·x² + δ_f/3. */
export function perturbed(e: Expr): Expr {
  switch (e.k) {
    case 'num': case 'var': return e;
    case 'op': {
      const args = e.args.map(perturbed);
      const applied: Expr = { k: 'op', op: e.op, args };
      if (!FUNCTIONS.has(e.op) || args.length !== 1) return applied;
      const d = delta(e.op);
      return op('add', applied, op('mul', num(d), op('pow', args[0], num(2))), num(d / 3));
    }
    case 'D': return { k: 'D', v: e.v, body: perturbed(e.body) };
    default: return { k: e.k, v: e.v, body: perturbed(e.body), lo: perturbed(e.lo), hi: perturbed(e.hi) };
  }
}
