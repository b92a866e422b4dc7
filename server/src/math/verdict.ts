// The verdict on one step. Both sides are parsed and evaluated at seeded random points:
// positive reals first (in several regions: (0.1,0.9), (1.1,3), (3,10), mixed), then negative
// reals only when too few positive points are defined; integers for index-like variables.
// A step is refuted only when *every* region with defined points violates it with a clear
// margin, so an identity that holds on part of the sampled domain (asin(sin x) = x,
// sqrt(x^2) = x) is never flagged. Refutations are then withdrawn where the step is
// probably not meant as an identity (sides in different variables, a justification that
// cites a hypothesis).
import { type Expr, Unsupported, exprKey, freeVars, hasDerivative } from './expr.js';
import { Evaluator, type Env, type EvalOptions } from './evaluate.js';
import { type MacroTable, expandMacros } from './macros.js';
import { newContext, parseLatex, toExpr, type ParseContext } from './parse.js';
import { readDomains, type Domains } from './domain.js';
import { hashText } from './latexText.js';
import { normalizeLatex } from './normalize.js';
import type { Relation } from './steps.js';

export type VerdictKind = 'proven' | 'equal' | 'refuted' | 'unknown' | 'skipped';

export interface Verdict {
  kind: VerdictKind;
  reason: string;
  /** Counterexample (refuted): variable values and both sides' values there. */
  point?: Array<[string, number]>;
  left?: number;
  right?: number;
}

export interface StepInput {
  lhs: string;
  rhs: string;
  rel: Relation;
  mod?: string;
  annotation?: string;
  /** Prose before the display (domain statements). */
  context?: string;
  implied?: boolean;
  justified?: boolean;
}

const POINTS_PER_REGION = 10;
const POSITIVE: Array<[number, number] | 'mixed'> = [[0.1, 0.9], [1.1, 3], [3, 10], 'mixed'];
/** Only when too few positive points are defined: small values and negative reals. */
const NEGATIVE: Array<[number, number] | 'mixed'> = [[0.005, 0.1], [-0.1, -0.005], [-0.9, -0.1], [-3, -1.1], [-10, -3], 'mixed'];
const MORE_POINTS = 30;

const HYPOTHESIS = /\\(eq)?ref|\\cite|\\overset|\b(by|since|hypothes|assum|using|use|given|from|substitut|definition|defin|where|if|when|for|as|put|set|let|choos|take|induct|lemma|theorem|proposition|corollary|equation|because|with|note|recall|apply|applying)/i;

/** Prose that says the letters are not real numbers (or arithmetic is modular). */
export function contextSignature(context: string): string {
  return JSON.stringify([...readDomains(context)]) + (NON_REAL_CONTEXT.test(context) ? 'N' : '');
}

export const NON_REAL_CONTEXT = /characteristic|\\pmod|\\bmod|\bmod(ulo)?\b|finite field|\\mathbb\s*\{?F|\\mathbf\s*\{?F|\bgroups?\b|\brings?\b|\bideals?\b|\bmodules?\b|sheaf|sheaves|scheme|morphism|functor|categor|intersection|divisor|permutation|ordinal|cardinal|boolean|lattice|operators?\b|\bmatri(x|ces)\b|quaternion|\bfield\b|semigroup|monoid|\bchar\b|homotop|complex|roots? of unity|\\mathbb\s*\{?Z\}?\s*\//i;

function rng(seed: string): () => number {
  let a = parseInt(hashText(seed).slice(0, 6), 36) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type PointResult = 'ok' | 'bad' | 'unsure' | 'undefined';

interface Sides { lhs: Expr; rhs: Expr; mod?: Expr; ctx: ParseContext }

function prepare(tex: string, macros: MacroTable): string | undefined {
  const s = expandMacros(tex, macros);
  if (s === undefined) return undefined;
  return normalizeLatex(s);
}

function parseSides(step: StepInput, macros: MacroTable): Sides | string {
  const texts = [step.lhs, step.rhs, ...(step.mod ? [step.mod] : [])].map((t) => prepare(t, macros));
  if (texts.some((t) => t === undefined || t === '')) return 'empty side or runaway macro';
  if (texts.some((t) => /\\(ldots|cdots|dots|vdots|ddots)\b|\.\.\./.test(t!))) return 'elided terms (…)';
  if (texts.some((t) => /\d\s+\d/.test(t!))) return 'juxtaposed numbers';
  if (texts.some((t) => /(?<!\^\s*)\*|\\ast\b|\\star\b|\\circ\b|\\oplus|\\otimes/.test(t!))) return 'a binary operation (∗, ∘, ⊕, ⊗)';
  const jsons = texts.map((t) => parseLatex(t!));
  if (jsons.some((j) => j === null || JSON.stringify(j).includes('"Error"'))) return 'cannot parse';
  const ctx = newContext(jsons, texts.some((t) => t!.includes('/')));
  try {
    const [lhs, rhs, mod] = jsons.map((j) => toExpr(j, ctx));
    return { lhs, rhs, mod, ctx };
  } catch (e) {
    if (e instanceof Unsupported) return e.message;
    throw e;
  }
}

/**
 * Compares at one point against the propagated rounding error `noise` of both sides: equal
 * within a small multiple of it, different only beyond a large multiple (a clear margin).
 */
function compare(rel: Relation, a: number, b: number, noise: number, tol: number, margin: number, m?: number): PointResult {
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

interface Sample { env: Env; res: PointResult; a: number; b: number }

function sampleValue(r: () => number, region: [number, number] | 'mixed', dom: { lo: number; hi: number } | undefined, negative: boolean): number {
  const k = region === 'mixed' ? -1 : (negative ? NEGATIVE : POSITIVE).indexOf(region);
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

function intValue(r: () => number, dom: { lo: number; hi: number } | undefined): number {
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
    for (const region of negative ? NEGATIVE : POSITIVE) {
      const samples: Sample[] = [];
      // a narrow domain leaves few defined points: sample more before giving up on the region
      for (let p = 0; p < POINTS_PER_REGION || (p < POINTS_PER_REGION + MORE_POINTS && samples.filter((s) => s.res !== 'undefined').length < 4); p++) {
        const env: Env = new Map();
        for (const v of this.vars) {
          const dom = this.domains.get(v);
          env.set(v, this.sides.ctx.roles.get(v) === 'int' ? intValue(r, dom) : sampleValue(r, region, dom, negative));
        }
        samples.push(this.at(env, ev));
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

function decide(sides: Sides, step: StepInput, domains: Domains, opts: EvalOptions, seed: string): Verdict {
  const vars = [...new Set([...freeVars(sides.lhs), ...freeVars(sides.rhs), ...(sides.mod ? freeVars(sides.mod) : [])])].sort();
  const deriv = hasDerivative(sides.lhs) || hasDerivative(sides.rhs);
  const tol = deriv ? 1e-8 : 1e-11;
  const margin = deriv ? 1e-6 : 1e-8;
  const ev = new Evaluator(opts);
  const sampler = new Sampler(sides, step.rel, vars, domains, tol, margin);
  if (vars.length === 0) {
    const s = sampler.at(new Map(), ev);
    // `= 0.2773`: a rounded or truncated decimal is an approximation, not a mistake
    const dec = [step.lhs, step.rhs].map((t) => /^\s*-?\d*\.(\d+)\s*$/.exec(t)?.[1].length).find((d) => d !== undefined);
    if (dec !== undefined && s.res === 'bad' && Math.abs(s.a - s.b) < 10 ** -dec) return { kind: 'equal', reason: 'equal up to the rounding of a decimal' };
    if (s.res === 'ok') return { kind: 'equal', reason: 'both sides evaluate to the same number' };
    if (s.res === 'bad') return { kind: 'refuted', reason: 'the sides evaluate to different numbers', point: [], left: s.a, right: s.b };
    return { kind: 'unknown', reason: 'cannot evaluate' };
  }
  let regions = sampler.regions(ev, seed, false).map((r) => r.filter((s) => s.res !== 'undefined')).filter((r) => r.length >= 2);
  if (regions.reduce((n, r) => n + r.length, 0) < 3) {
    regions = sampler.regions(ev, seed, true).map((r) => r.filter((s) => s.res !== 'undefined')).filter((r) => r.length >= 2);
  }
  const total = regions.reduce((n, r) => n + r.length, 0);
  if (total < 3) return { kind: 'unknown', reason: 'undefined at almost every sampled point' };
  if (regions.every((r) => r.every((s) => s.res === 'ok'))) return { kind: 'equal', reason: `holds at ${total} sampled points` };
  // a region fails when no point satisfies the relation and most violate it clearly
  const fails = (r: Sample[]): boolean => r.every((s) => s.res !== 'ok') && r.filter((s) => s.res === 'bad').length >= 0.7 * r.length;
  if (regions.every(fails)) {
    const ints = new Set(vars.filter((v) => sides.ctx.roles.get(v) === 'int'));
    const s = roundPoint(regions[0].find((x) => x.res === 'bad')!, sampler, ev, ints);
    return { kind: 'refuted', reason: 'fails at every sampled point', point: [...s.env], left: s.a, right: s.b };
  }
  return { kind: 'unknown', reason: 'holds on part of the sampled domain only' };
}

/** Checks one step. Pure: the same input always gives the same verdict (seeded sampling). */
export function checkStep(step: StepInput, macros: MacroTable): Verdict {
  if (step.rel === 'approx' || step.rel === 'other') return { kind: 'skipped', reason: 'not an algebraic relation' };
  if (step.implied) return { kind: 'skipped', reason: 'a consequence, not an identity' };
  if (step.rel === 'equiv' && !step.mod) return { kind: 'skipped', reason: '≡ without a modulus' };
  const sides = parseSides(step, macros);
  if (typeof sides === 'string') return { kind: 'unknown', reason: sides };
  if (exprKey(sides.lhs) === exprKey(sides.rhs) && step.rel !== '!=' && step.rel !== '<' && step.rel !== '>') {
    return { kind: 'proven', reason: 'the same expression' };
  }
  const domains = readDomains(`${step.annotation ?? ''} ${step.context ?? ''}`);
  const seed = `${step.lhs}\u0000${step.rel}\u0000${step.rhs}`;
  let v = decide(sides, step, domains, { logBase: Math.E, acot: 'continuous' }, seed);
  if (v.kind === 'refuted') {
    // notation with more than one convention: refute only if every reading fails
    const key = exprKey(sides.lhs) + exprKey(sides.rhs);
    const variants: EvalOptions[] = [];
    for (const logBase of sides.ctx.logAmbiguous ? [Math.E, 10, 2] : [Math.E]) {
      for (const acot of key.includes('acot(') ? ['continuous', 'reciprocal'] as const : ['continuous'] as const) variants.push({ logBase, acot });
    }
    for (const o of variants.slice(1)) {
      if (decide(sides, step, domains, o, seed).kind !== 'refuted') return { kind: 'unknown', reason: 'holds under another convention (\\log base, arccot range)' };
    }
  }
  if (v.kind === 'refuted') v = withdraw(v, sides, step);
  return v;
}

/** Withdraws a numeric refutation where the step is probably not meant as an identity. */
function withdraw(v: Verdict, sides: Sides, step: StepInput): Verdict {
  if (step.justified || (step.annotation && HYPOTHESIS.test(step.annotation))) {
    return { kind: 'unknown', reason: 'justified by a hypothesis or reference' };
  }
  if (freeVars(sides.lhs).has('C') && freeVars(sides.rhs).has('C')) return { kind: 'unknown', reason: 'C may be an arbitrary constant' };
  if (freeVars(sides.lhs).has('i') || freeVars(sides.rhs).has('i')) return { kind: 'unknown', reason: 'i may be the imaginary unit' };
  if (step.context && NON_REAL_CONTEXT.test(step.context)) return { kind: 'unknown', reason: 'the surrounding text is not about real numbers (structure or modular arithmetic)' };
  const l = [...freeVars(sides.lhs)].sort().join(',');
  const r = [...freeVars(sides.rhs)].sort().join(',');
  if (l !== r) return { kind: 'unknown', reason: 'sides in different variables: an equation or substitution, not an identity' };
  return v;
}

export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}

const REL_TEXT: Partial<Record<Relation, string>> = { '<=': '≤', '<': '<', '>=': '≥', '>': '>', '!=': '≠', equiv: '≡' };

/** `does not follow: at x = 0.7 left side 1.53, right side 0.24` */
export function verdictMessage(v: Verdict, rel: Relation): string {
  if (v.kind !== 'refuted') return v.reason;
  const at = v.point && v.point.length ? `at ${v.point.map(([k, x]) => `${displayVar(k)} = ${formatNumber(x)}`).join(', ')} ` : '';
  const need = REL_TEXT[rel] ? ` (needs left ${REL_TEXT[rel]} right)` : '';
  return `does not follow: ${at}left side ${formatNumber(v.left!)}, right side ${formatNumber(v.right!)}${need}`;
}

/** `x_{"n"}` → `x_n` for messages. */
export function displayVar(name: string): string {
  return name.replace(/_\{(.*)\}$/, (_m, s: string) => `_${s.replace(/"/g, '')}`);
}
