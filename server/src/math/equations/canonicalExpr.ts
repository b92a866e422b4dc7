// A canonical form of an Expr that does not depend on variable names: sums and products are
// flattened (`a - b` is `a + (-b)`), their operands sorted by a shape key in which every
// variable reads `?`, and variables renamed by order of first appearance in the sorted tree.
// It decides the order of variables where the fingerprint does not try every assignment
// (more than four variables), and gives the rewrite engine a stable form to deduplicate on.
import { type Expr, num } from '../expr.js';
import { VARIABLE_NAMES } from './canonicalLatex.js';

const COMMUTATIVE = new Set(['add', 'mul', 'max', 'min', 'gcd', 'lcm']);

function flatten(e: Expr): Expr {
  switch (e.k) {
    case 'num': case 'var': return e;
    case 'D': return { k: 'D', v: e.v, body: flatten(e.body) };
    case 'sum': case 'prod': return { k: e.k, v: e.v, body: flatten(e.body), lo: flatten(e.lo), hi: flatten(e.hi) };
    case 'op': break;
  }
  let args = e.args.map(flatten);
  let o = e.op;
  if (o === 'sub' && args.length === 2) { o = 'add'; args = [args[0], negate(args[1])]; }
  if (o === 'neg' && args.length === 1) return negate(args[0]);
  if (o === 'add' || o === 'mul') args = args.flatMap((a) => (a.k === 'op' && a.op === o ? a.args : [a]));
  return { k: 'op', op: o, args };
}

function negate(a: Expr): Expr {
  if (a.k === 'num') return num(-a.v);
  if (a.k === 'op' && a.op === 'neg') return a.args[0];
  return { k: 'op', op: 'neg', args: [a] };
}

/** A key of the tree's shape with every variable written `?` (bound variables too). */
export function shapeKey(e: Expr): string {
  switch (e.k) {
    case 'num': return String(e.v);
    case 'var': return '?';
    case 'op': return `${e.op}(${e.args.map(shapeKey).join(',')})`;
    case 'D': return `D(${shapeKey(e.body)})`;
    default: return `${e.k}(${shapeKey(e.body)},${shapeKey(e.lo)},${shapeKey(e.hi)})`;
  }
}

function sortOperands(e: Expr): Expr {
  switch (e.k) {
    case 'num': case 'var': return e;
    case 'D': return { k: 'D', v: e.v, body: sortOperands(e.body) };
    case 'sum': case 'prod': return { k: e.k, v: e.v, body: sortOperands(e.body), lo: sortOperands(e.lo), hi: sortOperands(e.hi) };
    case 'op': {
      const args = e.args.map(sortOperands);
      if (!COMMUTATIVE.has(e.op)) return { k: 'op', op: e.op, args };
      const keyed = args.map((a) => ({ a, key: shapeKey(a) }));
      // stable: operands of equal shape keep their written order
      keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      return { k: 'op', op: e.op, args: keyed.map((x) => x.a) };
    }
  }
}

/** Variables (free and bound) in order of first appearance, depth first. */
function appearance(e: Expr, out: string[] = []): string[] {
  const see = (v: string): void => { if (!out.includes(v)) out.push(v); };
  switch (e.k) {
    case 'num': break;
    case 'var': see(e.name); break;
    case 'op': for (const a of e.args) appearance(a, out); break;
    case 'D': see(e.v); appearance(e.body, out); break;
    default: see(e.v); appearance(e.lo, out); appearance(e.hi, out); appearance(e.body, out);
  }
  return out;
}

export function renameVariables(e: Expr, names: ReadonlyMap<string, string>): Expr {
  const r = (v: string): string => names.get(v) ?? v;
  switch (e.k) {
    case 'num': return e;
    case 'var': return { k: 'var', name: r(e.name) };
    case 'op': return { k: 'op', op: e.op, args: e.args.map((a) => renameVariables(a, names)) };
    case 'D': return { k: 'D', v: r(e.v), body: renameVariables(e.body, names) };
    default: return { k: e.k, v: r(e.v), body: renameVariables(e.body, names), lo: renameVariables(e.lo, names), hi: renameVariables(e.hi, names) };
  }
}

export function canonicalName(n: number): string {
  return n < VARIABLE_NAMES.length ? VARIABLE_NAMES[n] : `x_${n - VARIABLE_NAMES.length + 1}`;
}

export interface CanonicalExpr {
  expr: Expr;
  /** The original names, in canonical order (the k-th was renamed to `canonicalName(k)`). */
  variables: string[];
}

/** Flattened, operands sorted by shape, variables renamed x, y, z, … by first appearance. */
export function canonicalExpr(e: Expr): CanonicalExpr {
  const sorted = sortOperands(flatten(e));
  const variables = appearance(sorted);
  const names = new Map(variables.map((v, k) => [v, canonicalName(k)]));
  return { expr: renameVariables(sorted, names), variables };
}
