// What the rule groups share for reading a matched node and rebuilding it: a one-argument op's
// argument, a pair of arguments, n-ary arguments replaced; and a random pick.
import { type Expr, op } from 'mathsense-server/api/math';
import { isOp, ONE, ZERO, type OpNode } from '../build.js';

/** A random element of `xs`. */
export const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)];

/** The argument of a one-argument op named `name`. */
export function arg(e: Expr, name: string): Expr | undefined {
  return isOp(e, name) && e.args.length === 1 ? e.args[0] : undefined;
}

/** Replaces args i (and j) of an n-ary node by `r`; a single remaining argument stands alone. */
export function replaceArgs(e: OpNode, idx: number[], r: Expr | undefined): Expr {
  const rest = e.args.filter((_, k) => !idx.includes(k));
  const args = r ? [...rest.slice(0, Math.min(...idx)), r, ...rest.slice(Math.min(...idx))] : rest;
  if (args.length === 0) return e.op === 'add' ? ZERO : ONE;
  return args.length === 1 ? args[0] : op(e.op, ...args);
}

/** First pair (i, j) of distinct args satisfying `f`. */
export function findPair(args: Expr[], f: (a: Expr, b: Expr) => boolean): [number, number] | undefined {
  for (let i = 0; i < args.length; i++) for (let j = 0; j < args.length; j++) if (i !== j && f(args[i], args[j])) return [i, j];
  return undefined;
}
