// Numeric fingerprints: an expression evaluated (complex, principal branches) at fixed seeded
// points, so equivalent forms collide: `(a+b)^2` and `a^2+2ab+b^2`, `e^{i\theta}` and
// `\cos\theta + i\sin\theta`, `\frac{d}{dx}\sin x` and `\cos x`.
// * Renaming: variables are assigned to slots (slot j takes its own value at each point). With
//   up to four variables every assignment is tried and the smallest value vector wins, so the
//   fingerprint does not depend on the names at all: `x^2 - y^2` and `y^2 - x^2` are renamings
//   of each other and collide *by design* (with `rename: false` slots go by name and they
//   differ). With more variables the order comes from `canonicalExpr` (shape, then appearance).
// * Variables the value does not depend on (`x - x + y`) take no slot.
// * Points: each variable in (0.15, 0.85), inside the real domains of asin, acos, atanh, ln, …;
//   index-like variables (role `int`) take integers 2…7. Any non-finite value: no fingerprint.
// * Equations: the difference of the first and last side up to a nonzero constant factor, so
//   `x = 2` ~ `2x = 4` and `a = b` ~ `b = a`; an identity (difference ≡ 0) has no difference
//   fingerprint and is represented by its sides' classes.
// `key` quantises every value to 9 significant digits after values within their propagated
// rounding error of zero are set to zero (on E-Gen's clusters 9 digits keep every member match
// that 7 digits find and separate more near-constant seeds, such as tanh(x/7 + 9) and
// sinh(x/9)^6 - 2; 10 digits start to lose members); `sameClass` compares with a tolerance
// (relative 1e-7 by default) for lookups that must not depend on a rounding boundary.
import { type Expr, type VarRole, freeVars, op } from '../expr.js';
import { seededRandom } from '../../util/random.js';
import { type Complex, ComplexEvaluator, type Value } from './complexEval.js';
import { canonicalExpr } from './canonicalExpr.js';
import { hasFunctions, perturbed } from './perturb.js';

export interface Fingerprint {
  /** Quantised values, hashed: equal for equivalent expressions (Map lookup). */
  key: string;
  /** re, im of the value at each point (normalised for an equation difference). */
  values: Float64Array;
}

export interface FingerprintOptions {
  /** Invariant to renaming variables (default true). */
  rename?: boolean;
  /** `int` variables are sampled at integers (factorials, sums, binomials). */
  roles?: ReadonlyMap<string, VarRole>;
}

export const POINTS = 6;
const MAX_PERMUTED = 4;
const MAX_VARIABLES = 40;
/** A value within this many times its rounding-error bound of zero is zero. */
const ZERO_NOISE = 1e3;
const DIGITS = 9;

/** Slot values: REAL[p][j] in (0.15, 0.85), INT[p][j] in 2…7. Fixed for all time (keys are stored). */
const REAL: number[][] = [];
const INT: number[][] = [];
{
  const r = seededRandom(0x6571f1);
  for (let p = 0; p < POINTS; p++) {
    REAL.push([]);
    INT.push([]);
    for (let j = 0; j < MAX_VARIABLES; j++) {
      REAL[p].push(0.15 + 0.7 * r());
      INT[p].push(2 + Math.floor(r() * 6));
    }
  }
}
/** The value an inert variable is held at, and the probe that finds it inert. */
const HOLD = 0.5;
const PROBES = [0.2718, 0.7071];

const evaluator = new ComplexEvaluator();

function envFor(order: readonly string[], p: number, roles: ReadonlyMap<string, VarRole> | undefined, inert: readonly string[]): Map<string, Complex> {
  const env = new Map<string, Complex>();
  order.forEach((v, j) => env.set(v, { re: roles?.get(v) === 'int' ? INT[p][j] : REAL[p][j], im: 0 }));
  for (const v of inert) env.set(v, { re: roles?.get(v) === 'int' ? 3 : HOLD, im: 0 });
  return env;
}

function clean(x: number, err: number): number {
  return Math.abs(x) <= ZERO_NOISE * err ? 0 : x;
}

function isZero(v: Value): boolean {
  return clean(v.re, v.err) === 0 && clean(v.im, v.err) === 0;
}

/** Variables the value does not depend on (checked at two probe values each). */
function inertVariables(e: Expr, vars: readonly string[], roles: ReadonlyMap<string, VarRole> | undefined): string[] {
  if (vars.length === 0) return [];
  const base = envFor(vars, 0, roles, []);
  const v0 = evaluator.eval(e, base);
  if (!Number.isFinite(v0.re)) return [];
  const out: string[] = [];
  for (const v of vars) {
    if (roles?.get(v) === 'int') continue;
    const same = PROBES.every((t) => {
      const env = new Map(base);
      env.set(v, { re: t, im: 0 });
      const w = evaluator.eval(e, env);
      const tol = ZERO_NOISE * (v0.err + w.err);
      return Number.isFinite(w.re) && Math.abs(w.re - v0.re) <= tol && Math.abs(w.im - v0.im) <= tol;
    });
    if (same) out.push(v);
  }
  return out;
}

function* permutations(xs: readonly string[]): Generator<string[]> {
  if (xs.length <= 1) { yield [...xs]; return; }
  for (let k = 0; k < xs.length; k++) {
    const rest = [...xs.slice(0, k), ...xs.slice(k + 1)];
    for (const p of permutations(rest)) yield [xs[k], ...p];
  }
}

const quantise = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(DIGITS)));

/** One assignment of variables to slots, evaluated point by point. */
class Candidate {
  readonly values = new Float64Array(2 * POINTS);
  /** The normalising value (the first nonzero one), for an equation difference. */
  private ref: [number, number] | undefined;
  failed = false;

  constructor(readonly order: readonly string[]) {}

  /** Evaluates point p (normalised when asked); false when the value is not finite. */
  point(e: Expr, p: number, inert: readonly string[], opts: FingerprintOptions, normalise: boolean): boolean {
    const v = evaluator.eval(e, envFor(this.order, p, opts.roles, inert));
    if (!Number.isFinite(v.re) || !Number.isFinite(v.im)) { this.failed = true; return false; }
    let x = clean(v.re, v.err);
    let y = clean(v.im, v.err);
    if (normalise) {
      // up to a nonzero constant factor: divide by the first nonzero value
      if (!this.ref && (x !== 0 || y !== 0)) { this.ref = [x, y]; x = 1; y = 0; }
      else if (this.ref) {
        const [a, b] = this.ref;
        const d = a * a + b * b;
        [x, y] = [(x * a + y * b) / d, (y * a - x * b) / d];
      }
    }
    this.values[2 * p] = x;
    this.values[2 * p + 1] = y;
    return true;
  }

  get zero(): boolean { return !this.ref; }
}

/** Quantised comparison of point p: negative when a is smaller. */
function comparePoint(a: Candidate, b: Candidate, p: number): number {
  for (const k of [2 * p, 2 * p + 1]) {
    const x = quantise(a.values[k]);
    const y = quantise(b.values[k]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function fnv(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

function keyOf(values: Float64Array): string {
  const s = Array.from(values, quantise).join(',');
  return fnv(s, 0x811c9dc5).toString(36) + fnv(s, 0x2f6b1d3a).toString(36);
}

function fingerprintOf(e: Expr, opts: FingerprintOptions, normalise: boolean): Fingerprint | undefined {
  const vars = [...freeVars(e)];
  if (vars.length > MAX_VARIABLES) return undefined;
  const inert = inertVariables(e, vars, opts.roles);
  const active = vars.filter((v) => !inert.includes(v));
  const rename = opts.rename ?? true;
  let orders: string[][];
  if (!rename) orders = [[...active].sort()];
  else if (active.length <= MAX_PERMUTED) orders = [...permutations(active)];
  else orders = [canonicalExpr(e).variables.filter((v) => active.includes(v))];
  // the lexicographically smallest value vector over the assignments, point by point: after the
  // first point or two a single assignment is left, and only it is evaluated further
  let cands = orders.map((o) => new Candidate(o));
  for (let p = 0; p < POINTS && cands.length > 0; p++) {
    cands = cands.filter((c) => c.point(e, p, inert, opts, normalise));
    if (cands.length <= 1) continue;
    let best = cands[0];
    for (const c of cands) if (comparePoint(c, best, p) < 0) best = c;
    cands = cands.filter((c) => comparePoint(c, best, p) === 0);
  }
  const win = cands[0];
  if (!win || (normalise && win.zero)) return undefined;
  return { key: keyOf(win.values), values: win.values };
}

/** The fingerprint of an expression, or undefined when it is not finite at the sample points. */
export function expressionFingerprint(e: Expr, opts: FingerprintOptions = {}): Fingerprint | undefined {
  return fingerprintOf(e, opts, false);
}

export interface EquationFingerprints {
  /** The fingerprint of each side (same index as the sides), undefined where a side has none. */
  sides: Array<Fingerprint | undefined>;
  /** First side minus last, up to a constant factor; absent for identities and undefined values. */
  difference?: Fingerprint;
  /**
   * For an identity in elementary functions: the difference with the functions perturbed
   * (perturb.ts), key prefixed `I`: the identity's own class, so `\cosh^2 u - \sinh^2 u = 1`
   * finds its rewritings and not every identity whose side is 1.
   */
  identityClass?: Fingerprint;
}

/** Fingerprints of the sides of an equation (or `=` chain) and of its difference. */
export function equationFingerprints(sides: readonly Expr[], opts: FingerprintOptions = {}): EquationFingerprints {
  const out: EquationFingerprints = { sides: sides.map((s) => expressionFingerprint(s, opts)) };
  if (sides.length >= 2) {
    const diff = op('sub', sides[0], sides[sides.length - 1]);
    if (!isIdentity(diff, opts)) {
      // a difference that is a nonzero constant (`0 = 1` as read) says nothing about the equation
      const d = fingerprintOf(diff, opts, true);
      if (d && !constantValues(d.values)) out.difference = d;
    }
    else if (hasFunctions(diff)) {
      const p = perturbed(diff);
      const f = isIdentity(p, opts) ? undefined : fingerprintOf(p, opts, true);
      if (f) out.identityClass = { key: `I${f.key}`, values: f.values };
    }
  }
  return out;
}

/** The same value at every point: a constant (of an expression), or a difference that never vanishes. */
export function constantValues(v: Float64Array): boolean {
  for (let k = 2; k < v.length; k++) if (Math.abs(v[k] - v[k % 2]) > 1e-9 * Math.max(1, Math.abs(v[k]))) return false;
  return true;
}

/** The difference vanishes at every point (within rounding): an identity. */
function isIdentity(diff: Expr, opts: FingerprintOptions): boolean {
  const vars = [...freeVars(diff)].sort();
  for (let p = 0; p < POINTS; p++) {
    const v = evaluator.eval(diff, envFor(vars, p, opts.roles, []));
    if (!Number.isFinite(v.re) || !isZero(v)) return false;
  }
  return true;
}

/** Same class within a relative tolerance (robust where `key` falls on a rounding boundary). */
export function sameClass(a: Fingerprint, b: Fingerprint, tol = 1e-7): boolean {
  if (a.values.length !== b.values.length) return false;
  for (let k = 0; k < a.values.length; k++) {
    const x = a.values[k];
    const y = b.values[k];
    if (Math.abs(x - y) > tol * Math.max(Math.abs(x), Math.abs(y)) + 1e-12) return false;
  }
  return true;
}
