// Deciding a step by sampling. Both sides are evaluated at seeded random points: positive reals
// first (in several regions: (0.1,0.9), (1.1,3), (3,10), mixed), then negative reals only when
// too few positive points are defined; integers for index-like variables. A step is refuted only
// when *every* region with defined points violates it with a clear margin, so an identity that
// holds on part of the sampled domain (asin(sin x) = x, sqrt(x^2) = x) is never flagged.
import { freeVars, hasDerivative } from './expr.js';
import { Evaluator, type Env, type EvalOptions } from './evaluate.js';
import type { Domains } from './domain.js';
import { hashText } from './latexText.js';
import { isRounding } from './printed.js';
import type { Relation } from './steps.js';
import { seededRandom } from '../util/random.js';
import type { Sides } from './stepReading.js';
import type { StepInput, Verdict } from './verdictTypes.js';

const POINTS_PER_REGION = 10;
const POSITIVE: Array<[number, number] | 'mixed'> = [[0.1, 0.9], [1.1, 3], [3, 10], 'mixed'];
/**
 * An inequality often holds only for large values (`46 |z|^3 < |z|^4` when |z| > 46, stated in
 * the text as "|z| = 46 + ε"): it is refuted only if it fails far out on the axis too.
 */
const POSITIVE_INEQUALITY: Array<[number, number] | 'mixed'> = [...POSITIVE, [30, 300], [300, 30_000]];
/** Only when too few positive points are defined: small values and negative reals. */
const NEGATIVE: Array<[number, number] | 'mixed'> = [[0.005, 0.1], [-0.1, -0.005], [-0.9, -0.1], [-3, -1.1], [-10, -3], 'mixed'];
const MORE_POINTS = 30;

/** Random numbers seeded by `seed`: the same step samples the same points every time. */
export function rng(seed: string): () => number {
  return seededRandom(parseInt(hashText(seed).slice(0, 6), 36));
}

type PointResult = 'ok' | 'bad' | 'unsure' | 'undefined';

/**
 * Compares at one point against the propagated rounding error `noise` of both sides: equal
 * within a small multiple of it, different only beyond a large multiple (a clear margin).
 */
export function compare(rel: Relation, a: number, b: number, noise: number, tol: number, margin: number, m?: number): PointResult {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return 'undefined';
  const d = a - b;
  const mag = Math.max(Math.abs(a), Math.abs(b));
  const small = Math.max(1e3 * noise, tol * mag, 1e-300);
  const large = Math.max(1e6 * noise, margin * mag, 1e-12);
  switch (rel) {
    case '=': return Math.abs(d) <= small ? 'ok' : Math.abs(d) > large ? 'bad' : 'unsure';
    case '!=': return Math.abs(d) <= small ? 'bad' : Math.abs(d) > large ? 'ok' : 'unsure';
    case '<=': case '<': return d <= small ? 'ok' : d > large ? 'bad' : 'unsure';
    case '>=': case '>': return -d <= small ? 'ok' : -d > large ? 'bad' : 'unsure';
    case 'equiv': {
      if (m === undefined || !Number.isInteger(m) || m === 0 || !Number.isInteger(a) || !Number.isInteger(b)) return 'undefined';
      if (Math.abs(a) > 2 ** 52 || Math.abs(b) > 2 ** 52) return 'undefined';
      return (((a - b) % m) + m) % m === 0 ? 'ok' : 'bad';
    }
    default: return 'undefined';
  }
}

interface Sample {
  env: Env; res: PointResult; a: number; b: number;
  /** Drawn far out on the axis (inequalities): near-equal sides there say nothing either way. */
  far?: boolean;
}

export function sampleValue(r: () => number, region: [number, number] | 'mixed', dom: { lo: number; hi: number } | undefined, negative: boolean): number {
  const k = region === 'mixed' ? -1 : (negative ? NEGATIVE : POSITIVE_INEQUALITY).indexOf(region);
  let [lo, hi] = region === 'mixed' ? (negative ? [-10, 10] : [0.1, 10]) : region;
  if (dom) {
    let { lo: L, hi: H } = dom;
    if (!Number.isFinite(L) && Number.isFinite(H) && H > 0) L = 0;
    if (Number.isFinite(L) && Number.isFinite(H)) {
      // thirds of the stated interval, whole interval for the mixed region
      const w = H - L;
      [lo, hi] = k < 0 ? [L, H] : [L + (w * (k % 3)) / 3, L + (w * ((k % 3) + 1)) / 3];
      lo += w * 1e-3; hi -= w * 1e-3;
    } else if (Number.isFinite(L)) {
      if (L > 0) { lo = Math.abs(lo) + L; hi = Math.abs(hi) + L; } else { lo = Math.max(lo, L + 1e-3); hi = Math.max(hi, lo + 1); }
    } else if (Number.isFinite(H)) {
      [lo, hi] = [H - Math.abs(hi), H - Math.abs(lo)];
      if (lo > hi) [lo, hi] = [hi, lo];
    }
  }
  if (region === 'mixed' && !negative && !dom) return Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo)));
  return lo + r() * (hi - lo);
}

export function intValue(r: () => number, dom: { lo: number; hi: number } | undefined): number {
  let lo = 1;
  let hi = 9;
  if (dom) {
    lo = Number.isFinite(dom.lo) ? Math.ceil(dom.lo) : lo;
    hi = Number.isFinite(dom.hi) ? Math.floor(dom.hi) : lo + 8;
    if (hi < lo) hi = lo;
  }
  return lo + Math.floor(r() * (hi - lo + 1));
}

class Sampler {
  constructor(private readonly sides: Sides, private readonly rel: Relation, private readonly vars: string[],
    private readonly domains: Domains, private readonly tol: number, private readonly margin: number) {}

  at(env: Env, ev: Evaluator): Sample {
    const a = ev.eval(this.sides.lhs, env);
    const ea = ev.err;
    const b = ev.eval(this.sides.rhs, env);
    const noise = ea + ev.err;
    const m = this.sides.mod ? ev.eval(this.sides.mod, env) : undefined;
    return { env, a, b, res: compare(this.rel, a, b, noise, this.tol, this.margin, m) };
  }

  regions(ev: Evaluator, seed: string, negative: boolean): Sample[][] {
    const r = rng(seed + (negative ? '-' : '+'));
    const out: Sample[][] = [];
    const inequality = this.rel === '<' || this.rel === '<=' || this.rel === '>' || this.rel === '>=';
    for (const [index, region] of (negative ? NEGATIVE : inequality ? POSITIVE_INEQUALITY : POSITIVE).entries()) {
      const far = !negative && index >= POSITIVE.length;
      const samples: Sample[] = [];
      // a narrow domain leaves few defined points: sample more before giving up on the region
      for (let p = 0; p < POINTS_PER_REGION || (p < POINTS_PER_REGION + MORE_POINTS && samples.filter((s) => s.res !== 'undefined').length < 4); p++) {
        const env: Env = new Map();
        for (const v of this.vars) {
          const dom = this.domains.get(v);
          env.set(v, this.sides.ctx.roles.get(v) === 'int' ? intValue(r, dom) : sampleValue(r, region, dom, negative));
        }
        const sample = this.at(env, ev);
        if (far) sample.far = true;
        samples.push(sample);
      }
      out.push(samples);
    }
    return out;
  }
}

/** Rounds the counterexample to few decimals while it stays a counterexample. */
function roundPoint(s: Sample, sampler: Sampler, ev: Evaluator, ints: Set<string>): Sample {
  for (const digits of [1, 2, 3]) {
    const env: Env = new Map();
    for (const [k, v] of s.env) env.set(k, ints.has(k) ? v : Number(v.toFixed(digits)));
    const t = sampler.at(env, ev);
    if (t.res === 'bad') return t;
  }
  return s;
}

/**
 * Relative tolerance for decimals in the step: a decimal may be rounded (`23.85 \\%`,
 * `= 0.9576`), so sides that agree to within a few times its rounding are not told apart.
 */
function roundingTolerance(texts: readonly string[]): number {
  let tol = 0;
  for (const t of texts) {
    for (const m of t.matchAll(/(\d*)(?:\.|\s*\\cdotp\s*)(\d+)/g)) {
      const v = Number(`${m[1] || '0'}.${m[2]}`);
      // a few roundings may add up: four times the half-unit of the last digit shown
      if (v > 0) tol = Math.max(tol, (4 * 0.5 * 10 ** -m[2].length) / v);
    }
  }
  return Math.min(tol, 1);
}

export function decide(sides: Sides, step: StepInput, domains: Domains, opts: EvalOptions, seed: string): Verdict {
  const vars = [...new Set([...freeVars(sides.lhs), ...freeVars(sides.rhs), ...(sides.mod ? freeVars(sides.mod) : [])])].sort();
  const deriv = hasDerivative(sides.lhs) || hasDerivative(sides.rhs);
  const rounding = roundingTolerance([step.lhs, step.rhs, ...sides.texts]);
  const tol = Math.max(deriv ? 1e-8 : 1e-11, rounding);
  const margin = Math.max(deriv ? 1e-6 : 1e-8, 2 * rounding);
  const ev = new Evaluator(opts);
  const sampler = new Sampler(sides, step.rel, vars, domains, tol, margin);
  if (vars.length === 0) {
    const s = sampler.at(new Map(), ev);
    if (s.res === 'ok' && rounding > 1e-11 && s.a !== s.b) return { kind: 'equal', reason: 'equal up to the rounding of a decimal' };
    // `1000\\pi = 3142`: a computed value printed rounded to the figures shown
    if (s.res !== 'ok' && step.rel === '=' && (isRounding(s.a, sides.texts[1]) || isRounding(s.b, sides.texts[0]))) return { kind: 'equal', reason: 'a value printed rounded to the figures shown' };
    if (s.res === 'ok') return { kind: 'equal', reason: 'both sides evaluate to the same number' };
    if (s.res === 'bad') return { kind: 'refuted', reason: 'the sides evaluate to different numbers', point: [], left: s.a, right: s.b };
    if (s.res === 'unsure') return { kind: 'unknown', reason: 'the sides differ by about the rounding of their decimals' };
    return { kind: 'unknown', reason: CANNOT_EVALUATE };
  }
  let regions = sampler.regions(ev, seed, false).map((r) => r.filter((s) => s.res !== 'undefined')).filter((r) => r.length >= 2);
  if (regions.reduce((n, r) => n + r.length, 0) < 3) {
    regions = sampler.regions(ev, seed, true).map((r) => r.filter((s) => s.res !== 'undefined')).filter((r) => r.length >= 2);
  }
  const total = regions.reduce((n, r) => n + r.length, 0);
  if (total < 3) return { kind: 'unknown', reason: UNDEFINED_ALMOST_EVERYWHERE };
  if (regions.every((r) => r.every((s) => s.res === 'ok'))) return { kind: 'equal', reason: `holds at ${total} sampled points` };
  // a region fails when no point satisfies the relation and most violate it clearly; far out,
  // where a constant is lost in the rounding of large values, when no point satisfies it
  const fails = (r: Sample[]): boolean => r.every((s) => s.res !== 'ok') && (r[0]?.far || r.filter((s) => s.res === 'bad').length >= 0.7 * r.length);
  if (regions.every(fails)) {
    const ints = new Set(vars.filter((v) => sides.ctx.roles.get(v) === 'int'));
    const s = roundPoint(regions[0].find((x) => x.res === 'bad')!, sampler, ev, ints);
    return { kind: 'refuted', reason: 'fails at every sampled point', point: [...s.env], left: s.a, right: s.b };
  }
  return { kind: 'unknown', reason: 'holds on part of the sampled domain only' };
}

const CANNOT_EVALUATE = 'cannot evaluate';
const UNDEFINED_ALMOST_EVERYWHERE = 'undefined at almost every sampled point';
/** Verdicts of a step that has no value where it was evaluated. */
export const UNDEFINED = new Set([CANNOT_EVALUATE, UNDEFINED_ALMOST_EVERYWHERE]);
