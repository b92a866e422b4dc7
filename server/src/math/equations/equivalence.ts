// Confirms that two displays say the same thing before anything claims so. A fingerprint
// collision (fingerprint.ts: a few sample points, any renaming) is evidence, not proof; here
// the two displays must agree under one renaming of their variables, at many fresh points:
// * every relation is matched one by one (`u_t = u_{xx}, \quad u(0) = g` is two relations,
//   matched to two), with the same kind of relation (`a < b` also matches `b > a`);
// * an equation matches when its difference is a nonzero constant multiple of the other's
//   (a positive one for inequalities); an identity matches on its class with the elementary
//   functions perturbed (perturb.ts), else on its sides' values and forms (the operations and
//   numbers of each side: values alone cannot tell `(a+b)+c = a+(b+c)` from any other identity
//   in three variables); without variables the forms must agree too;
// * the renaming is one-to-one and keeps each variable's kind: Latin to Latin, Greek to Greek,
//   upper case to upper case, integer to integer; a symbol with a letter subscript (`u_x`, a
//   partial derivative or a component) only to such a symbol, bases and subscripts renamed
//   consistently (`x_0` is an ordinary variable); a variable that is a side by itself (what
//   `f = u + iv` defines) only to one that is a side by itself;
// * every variable written must matter, and a derivative must be of an expression in its own
//   variable: `y\frac{dy}{dx}` read with `y` independent of `x` (so zero) is not the author's
//   reading, and nothing is confirmed;
// * a display too small to say anything (`u_s = 0`, `n = r + k`) is never claimed the same as another;
// * letters that merely sit in the same places make no map: a relation that is not an identity
//   is about particular quantities (two steps of one proof, `p_k = s_k m_k` and `c_k = w_k d_k`;
//   Bézout's `1 = ax + by` and a line), so its letters may be renamed only where what stays
//   fixed (operations and numbers) is more than twice the letters renamed; an identity is a
//   law, whatever its letters are called;
// * juxtaposed letters keep their order: `L_y R_y L_{Sy} x = x` is not `L_{Sy} R_y L_y x = x`.
// Anything the evaluator cannot read: not confirmed (silence is the safe answer).
import { type Expr, type VarRole, derivativeOfUnknown, freeVars, op } from '../expr.js';
import { GREEK_LOWER } from './canonicalLatex.js';
import { type Complex, ComplexEvaluator } from './complexEval.js';
import type { DisplayRelations } from './equation.js';
import { perturbed } from './perturb.js';
import { seededRandom } from '../../util/random.js';
import type { Relation } from '../steps.js';

export interface ConfirmOptions {
  /** Sample points (default 16). */
  points?: number;
  /** Seed of the points (the stricter check in `npm run eval` uses other points). */
  seed?: number;
  /** Real values are drawn from [lo, hi) (default 0.2 … 1.4). */
  range?: [number, number];
}

const MAX_VARIABLES = 8;
const MAX_RENAMINGS = 20000;
const REL_TOL = 1e-7;

const evaluator = new ComplexEvaluator();

type Kind = string;

/** Latin/Greek, case, integer role and whether a letter subscript makes it a compound symbol. */
function kindOf(name: string, role: VarRole | undefined): { kind: Kind; base?: string; sub?: string } {
  const u = name.indexOf('_');
  const base = u > 0 ? name.slice(0, u) : name;
  const sub = u > 0 ? name.slice(u + 1) : '';
  const greek = GREEK_LOWER.has(base.toLowerCase()) || GREEK_LOWER.has(base);
  const upper = base[0] !== undefined && base[0] !== base[0].toLowerCase();
  const compound = sub !== '' && !/^\d+$/.test(sub);
  const kind = `${greek ? 'g' : 'l'}${upper ? 'U' : 'l'}${role === 'int' ? 'i' : 'r'}${compound ? 's' : ''}`;
  return compound ? { kind, base, sub } : { kind };
}

/** Relations oriented one way: `a > b` is `b < a`, so only `<`, `<=`, `=`, `!=`, `approx` remain. */
function oriented(sides: Expr[], rels: Relation[]): { sides: Expr[]; rels: Relation[] } {
  if (rels.length === 1 && (rels[0] === '>' || rels[0] === '>=')) return { sides: [sides[1], sides[0]], rels: [rels[0] === '>' ? '<' : '<='] };
  return { sides, rels };
}

interface ChainValues {
  rels: Relation[];
  /** Each side's form (the same at every point). */
  forms: string[];
  /** Per point: each side's value. */
  sides: Complex[][];
  /** Per point: first side minus last, and the same with functions perturbed. */
  diff: Complex[];
  pdiff: Complex[];
}

const isZero = (z: Complex, scale: number) => Math.abs(z.re) + Math.abs(z.im) <= 1e-9 * Math.max(1, scale);
const close = (a: Complex, b: Complex) => Math.abs(a.re - b.re) + Math.abs(a.im - b.im) <= REL_TOL * Math.max(1e-3, Math.abs(a.re) + Math.abs(a.im), Math.abs(b.re) + Math.abs(b.im));

function mag(z: Complex): number { return Math.abs(z.re) + Math.abs(z.im); }

/** Each value of a is the same constant k times b's (k ≠ 0; k > 0 real when `positive`). */
function proportional(a: Complex[], b: Complex[], positive: boolean): boolean {
  let k: Complex | undefined;
  for (let p = 0; p < a.length; p++) {
    const za = isZero(a[p], mag(a[p])) || mag(a[p]) < 1e-12;
    const zb = mag(b[p]) < 1e-12;
    if (za !== zb) return false;
    if (za) continue;
    const d = b[p].re * b[p].re + b[p].im * b[p].im;
    const r = { re: (a[p].re * b[p].re + a[p].im * b[p].im) / d, im: (a[p].im * b[p].re - a[p].re * b[p].im) / d };
    if (!k) k = r;
    else if (!close(k, r)) return false;
  }
  if (!k) return false;
  return !positive || (Math.abs(k.im) <= REL_TOL * Math.abs(k.re) && k.re > 0);
}

function allZero(xs: Complex[], ref: Complex[][]): boolean {
  return xs.every((x, p) => isZero(x, Math.max(...ref[p].map(mag))));
}

/** The operations and numbers of an expression, sorted (its form with the variables left out). */
function census(e: Expr, out: string[] = []): string[] {
  switch (e.k) {
    case 'num': out.push(String(e.v)); break;
    case 'var': break;
    case 'op': out.push(e.op); for (const a of e.args) census(a, out); break;
    case 'D': out.push('D'); census(e.body, out); break;
    default: out.push(e.k); census(e.body, out); census(e.lo, out); census(e.hi, out);
  }
  return out;
}

/** One relation chain with its difference (first side minus last) and that difference perturbed. */
class Chain {
  readonly diff: Expr | undefined;
  readonly pdiff: Expr | undefined;
  /** Each side's form (`census`). */
  readonly forms: string[];
  constructor(readonly rels: Relation[], readonly sides: Expr[]) {
    this.diff = sides.length >= 2 ? op('sub', sides[0], sides[sides.length - 1]) : undefined;
    this.pdiff = this.diff ? perturbed(this.diff) : undefined;
    this.forms = sides.map((x) => census(x).sort().join(' '));
  }
}

function valuesAt(chains: Chain[], env: Map<string, Complex>): ChainValues[] | undefined {
  const out: ChainValues[] = [];
  for (const c of chains) {
    const sides = c.sides.map((s) => evaluator.eval(s, env));
    if (sides.some((v) => !Number.isFinite(v.re))) return undefined;
    const diff = c.diff ? evaluator.eval(c.diff, env) : { re: 0, im: 0, err: 0 };
    const pdiff = c.pdiff ? evaluator.eval(c.pdiff, env) : { re: 0, im: 0, err: 0 };
    if (!Number.isFinite(diff.re) || !Number.isFinite(pdiff.re)) return undefined;
    out.push({ rels: c.rels, forms: c.forms, sides: [sides], diff: [diff], pdiff: [pdiff] });
  }
  return out;
}

/** Appends point-wise values (one point each) into series per chain. */
function series(perPoint: ChainValues[][]): ChainValues[] {
  return perPoint[0].map((c, i) => ({
    rels: c.rels,
    forms: c.forms,
    sides: perPoint.map((pt) => pt[i].sides[0]),
    diff: perPoint.map((pt) => pt[i].diff[0]),
    pdiff: perPoint.map((pt) => pt[i].pdiff[0]),
  }));
}

function chainsMatch(a: ChainValues, b: ChainValues): boolean {
  if (a.rels.length !== b.rels.length || a.rels.some((r, i) => r !== b.rels[i])) return false;
  if (a.sides[0].length !== b.sides[0].length) return false;
  const n = a.sides[0].length;
  // forms side by side (in order or reversed): what tells identities apart where values cannot
  const sameForms = (rev: boolean) => a.forms.every((f, i) => f === b.forms[rev ? n - 1 - i : i]);
  if (n > 2) {
    // a chain `a = b = c`: side by side, in order or reversed; a chain of identities (every side
    // the same value) also in form
    const same = (rev: boolean) => a.sides.every((pt, p) => pt.every((v, i) => close(v, b.sides[p][rev ? n - 1 - i : i])));
    const identities = allZero(a.diff, a.sides);
    const ok = (rev: boolean) => same(rev) && (!identities || sameForms(rev));
    return ok(false) || (a.rels.every((r) => r === '=') && ok(true));
  }
  const ordered = a.rels[0] === '<' || a.rels[0] === '<=';
  const aId = allZero(a.diff, a.sides);
  const bId = allZero(b.diff, b.sides);
  if (aId !== bId) return false;
  if (!aId) return proportional(a.diff, b.diff, ordered);
  const apId = allZero(a.pdiff, a.sides);
  const bpId = allZero(b.pdiff, b.sides);
  if (apId !== bpId) return false;
  if (!apId) return proportional(a.pdiff, b.pdiff, false);
  // an identity in arithmetic alone: the same value and the same form on the same (or swapped)
  // sides (`(a+b)+c = a+(b+c)` is not `p+u+v = \frac12(p+2u) + \frac12(p+2v)`)
  const sameSides = (rev: boolean) => sameForms(rev) && a.sides.every((pt, p) => close(pt[0], b.sides[p][rev ? 1 : 0]) && close(pt[1], b.sides[p][rev ? 0 : 1]));
  return sameSides(false) || (!ordered && sameSides(true));
}

/** Each chain of a matched to a distinct chain of b. */
function displaysMatch(a: ChainValues[], b: ChainValues[]): boolean {
  const used = new Array<boolean>(b.length).fill(false);
  const go = (i: number): boolean => {
    if (i === a.length) return true;
    for (let j = 0; j < b.length; j++) {
      if (used[j] || !chainsMatch(a[i], b[j])) continue;
      used[j] = true;
      if (go(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return go(0);
}

/** Nodes of the expression, each letter weighing what `letter` says. */
function nodes(e: Expr, letter: (name: string) => number): number {
  switch (e.k) {
    case 'num': return 1;
    case 'var': return letter(e.name);
    case 'op': return 1 + e.args.reduce((n, a) => n + nodes(a, letter), 0);
    case 'D': return 1 + nodes(e.body, letter);
    default: return 1 + nodes(e.body, letter) + nodes(e.lo, letter) + nodes(e.hi, letter);
  }
}

/** Nodes of the expression; a symbol with a letter subscript (`u_{xx}`) counts twice: its subscript says something. */
const size = (e: Expr) => nodes(e, (name) => (/_[^0-9]/.test(name) ? 2 : 1));

/** Too small to claim anything about: `u_s = 0` or `n = r + k` is "the same" as any equation of that shape. */
const MIN_SIZE = 5;

/** The letters of each product written as a juxtaposition of lone letters, in the order written (renamed by `name`). */
function products(chains: Chain[], name: (v: string) => string): string[][] {
  const out: string[][] = [];
  const walk = (e: Expr): void => {
    if (e.k === 'op') {
      if (e.op === 'mul') {
        const atoms = e.args.flatMap((x) => (x.k === 'var' ? [name(x.name)] : []));
        if (atoms.length >= 2) out.push(atoms);
      }
      e.args.forEach(walk);
    } else if (e.k === 'D') walk(e.body);
    else if (e.k === 'sum' || e.k === 'prod') { walk(e.body); walk(e.lo); walk(e.hi); }
  };
  for (const c of chains) c.sides.forEach(walk);
  return out;
}

/**
 * Whether every product of lone letters that the other display also writes with the same
 * letters is written there in the same order somewhere: juxtaposition need not commute
 * (operators, matrices, group elements), so `L_y R_y x` is not `R_y L_y x`.
 */
function sameOrders(a: string[][], b: string[][]): boolean {
  const key = (p: string[]) => [...p].sort().join(' ');
  const text = (p: string[]) => p.join(' ');
  const oneWay = (xs: string[][], ys: string[][]) => xs.every((p) => {
    const k = key(p);
    const same = ys.filter((q) => key(q) === k);
    return same.length === 0 || same.some((q) => text(q) === text(p));
  });
  return oneWay(a, b) && oneWay(b, a);
}

/** Operations and numbers: what stays when every letter is renamed. */
function fixedNodes(chains: Chain[]): number {
  return chains.reduce((n, c) => n + c.sides.reduce((m, s) => m + nodes(s, () => 0), 0), 0);
}

function prepare(d: DisplayRelations): { chains: Chain[]; vars: string[] } {
  const chains = d.chains.map((c) => { const o = oriented(c.sides, c.relations); return new Chain(o.rels, o.sides); });
  const vars = new Set<string>();
  for (const c of chains) for (const s of c.sides) freeVars(s, vars);
  return { chains, vars: [...vars].sort() };
}

/** Whether some written variable does not change any side's value (probed at two values). */
function hasInertVariable(chains: Chain[], vars: string[], base: Map<string, Complex>): boolean {
  const v0 = valuesAt(chains, base);
  if (!v0) return true;
  for (const v of vars) {
    const moved = [0.37, 1.13].some((t) => {
      const env = new Map(base);
      const cur = base.get(v)!;
      env.set(v, { re: Number.isInteger(cur.re) ? cur.re + 1 : t, im: 0 });
      const w = valuesAt(chains, env);
      // a side's value, or the perturbed difference (an identity's sides may be constant)
      return !!w && w.some((c, i) => c.sides[0].some((x, k) => !close(x, v0[i].sides[0][k])) || !close(c.pdiff[0], v0[i].pdiff[0]));
    });
    if (!moved) return true;
  }
  return false;
}

/**
 * Whether displays a and b say the same thing (see the module comment). Never throws.
 */
export function confirmSameDisplay(a: DisplayRelations, b: DisplayRelations, opts: ConfirmOptions = {}): boolean {
  try {
    return confirm(a, b, opts);
  } catch {
    return false;
  }
}

function confirm(a: DisplayRelations, b: DisplayRelations, opts: ConfirmOptions): boolean {
  if (a.chains.length !== b.chains.length || a.chains.length === 0) return false;
  for (const d of [a, b]) {
    const sides = d.chains.flatMap((c) => c.sides);
    if (sides.some(derivativeOfUnknown) || sides.reduce((n, s) => n + size(s), 0) < MIN_SIZE) return false;
  }
  const pa = prepare(a);
  const pb = prepare(b);
  if (pa.vars.length !== pb.vars.length || pa.vars.length > MAX_VARIABLES) return false;
  // a side that is a lone variable names what the relation defines (`f = u + iv`): such a
  // variable is renamed only to one that is defined the same way
  const heads = (cs: Chain[]) => new Set(cs.flatMap((c) => c.sides.flatMap((x) => (x.k === 'var' ? [x.name] : []))));
  const ha = heads(pa.chains), hb = heads(pb.chains);
  const ka = pa.vars.map((v) => ({ ...kindOf(v, a.roles.get(v)), head: ha.has(v) }));
  const kb = pb.vars.map((v) => ({ ...kindOf(v, b.roles.get(v)), head: hb.has(v) }));
  const census = (ks: Array<{ kind: Kind }>) => ks.map((k) => k.kind).sort().join(',');
  if (census(ka) !== census(kb)) return false;
  // b's variables at fixed points; a's take the values of the variables they are renamed to
  const n = opts.points ?? 16;
  const [lo, hi] = opts.range ?? [0.2, 1.4];
  const rnd = seededRandom(opts.seed ?? 0x5a3e17);
  const points: Array<Map<string, Complex>> = [];
  for (let p = 0; p < n; p++) {
    const env = new Map<string, Complex>();
    pb.vars.forEach((v, j) => env.set(v, { re: kb[j].kind.includes('i') ? 2 + Math.floor(rnd() * 6) : lo + (hi - lo) * rnd(), im: 0 }));
    points.push(env);
  }
  if (hasInertVariable(pb.chains, pb.vars, points[0])) return false;
  // inertness of a's variables does not depend on which b values they take: probe at distinct values
  const probe = new Map<string, Complex>();
  pa.vars.forEach((v, j) => probe.set(v, ka[j].kind.includes('i') ? { re: 2 + (j % 5), im: 0 } : { re: 0.25 + 0.11 * j, im: 0 }));
  if (hasInertVariable(pa.chains, pa.vars, probe)) return false;
  const bValues: ChainValues[][] = [];
  for (const env of points) {
    const v = valuesAt(pb.chains, env);
    if (!v) return false;
    bValues.push(v);
  }
  const bSeries = series(bValues);
  // without variables every nonzero constant is a multiple of every other: the forms must agree
  if (pa.vars.length === 0) {
    const forms = (cs: Chain[]) => cs.map((c) => [...c.forms].sort().join(' | ')).sort().join(' || ');
    if (forms(pa.chains) !== forms(pb.chains)) return false;
  }
  // renamings that keep kinds, with compound symbols' bases and subscripts renamed consistently
  const target = new Array<number>(pa.vars.length).fill(-1);
  const taken = new Array<boolean>(pb.vars.length).fill(false);
  const bases = new Map<string, string>(), basesInv = new Map<string, string>();
  const subs = new Map<string, string>(), subsInv = new Map<string, string>();
  let tried = 0;
  const bind = (m: Map<string, string>, inv: Map<string, string>, x: string, y: string): boolean | undefined => {
    const have = m.get(x);
    if (have !== undefined) return have === y ? false : undefined;
    if (inv.has(y)) return undefined;
    m.set(x, y); inv.set(y, x);
    return true;
  };
  // an identity holds whatever its letters are; any other relation is about particular quantities
  const identity = bSeries.every((c) => allZero(c.diff, c.sides));
  const bProducts = products(pb.chains, (v) => v);
  /** What the renaming in `target` must also keep (see the module comment). */
  const keepsRoles = (): boolean => {
    const to = new Map(pa.vars.map((v, j) => [v, pb.vars[target[j]]]));
    if (!sameOrders(products(pa.chains, (v) => to.get(v) ?? v), bProducts)) return false;
    if (identity) return true;
    const renamed = pa.vars.filter((v, j) => v !== pb.vars[target[j]]).length;
    return renamed === 0 || Math.min(fixedNodes(pa.chains), fixedNodes(pb.chains)) > 2 * renamed;
  };
  const test = (): boolean => {
    if (++tried > MAX_RENAMINGS) throw new Error('too many renamings');
    const perPoint: ChainValues[][] = [];
    for (let p = 0; p < n; p++) {
      const env = new Map<string, Complex>();
      pa.vars.forEach((v, j) => env.set(v, points[p].get(pb.vars[target[j]])!));
      const v = valuesAt(pa.chains, env);
      if (!v) return false;
      perPoint.push(v);
      // an early look after the first point: most renamings fail there
      if (p === 0 && !displaysMatch(series(perPoint), series([bValues[0]]))) return false;
    }
    return displaysMatch(series(perPoint), bSeries) && keepsRoles();
  };
  const go = (i: number): boolean => {
    if (i === pa.vars.length) return test();
    for (let j = 0; j < pb.vars.length; j++) {
      if (taken[j] || ka[i].kind !== kb[j].kind || ka[i].head !== kb[j].head) continue;
      let nb: boolean | undefined = false, ns: boolean | undefined = false;
      if (ka[i].base !== undefined) {
        nb = bind(bases, basesInv, ka[i].base!, kb[j].base!);
        if (nb === undefined) continue;
        ns = bind(subs, subsInv, ka[i].sub!, kb[j].sub!);
        if (ns === undefined) { if (nb) { basesInv.delete(bases.get(ka[i].base!)!); bases.delete(ka[i].base!); } continue; }
      }
      taken[j] = true; target[i] = j;
      const ok = go(i + 1);
      taken[j] = false; target[i] = -1;
      if (nb) { basesInv.delete(bases.get(ka[i].base!)!); bases.delete(ka[i].base!); }
      if (ns) { subsInv.delete(subs.get(ka[i].sub!)!); subs.delete(ka[i].sub!); }
      if (ok) return true;
    }
    return false;
  };
  return go(0);
}
