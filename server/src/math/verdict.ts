// The verdict on one step. Both sides are parsed and evaluated at seeded random points:
// positive reals first (in several regions: (0.1,0.9), (1.1,3), (3,10), mixed), then negative
// reals only when too few positive points are defined; integers for index-like variables.
// A step is refuted only when *every* region with defined points violates it with a clear
// margin, so an identity that holds on part of the sampled domain (asin(sin x) = x,
// sqrt(x^2) = x) is never flagged. Refutations are then withdrawn where the step is
// probably not meant as an identity (sides in different variables, a justification that
// cites a hypothesis).
import { type Expr, exprKey, freeVars, hasDerivative, derivativeOfAbsent } from './expr.js';
import { Evaluator, type Env, type EvalOptions } from './evaluate.js';
import { type MacroTable, expandMacros } from './macros.js';
import { parseSides as parseLatexSides, type ParseContext } from './parse.js';
import { readDomains, type Domains } from './domain.js';
import { hashText } from './latexText.js';
import { differentials, normalizeLatex, percentCounts, type Reach } from './normalize.js';
import { isRounding, printedTolerance, printedUnit } from './printed.js';
import { identifiers, type Relation } from './steps.js';
import { seededRandom } from '../util/random.js';
import { mergeSettings, NOT_ANALYTIC, notRealNotation, readSetting, settingKey, type Setting } from './setting.js';

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
  /** What the wider setting says of the letters (blocks.ts#BlockInput.setting, setting.ts). */
  setting?: Setting;
  implied?: boolean;
  /** One of the equations being solved or substituted into (see `Step.equation`). */
  equation?: boolean;
  /**
   * Read as an identity even with sides in different variables: a row of a display whose other
   * rows, each with its own left side, hold as identities (checker.ts#identityRows).
   */
  identity?: boolean;
  justified?: boolean;
  /** `\\approx`: checked at the precision the right side prints (steps.ts#Step.printed). */
  printed?: boolean;
  /** An earlier relation of the chain is `\\approx`: the left side's printed operands are rounded too. */
  afterApprox?: boolean;
  /** Earlier relations of the chain bound it from above or below (steps.ts#Step.bound). */
  bound?: 'upper' | 'lower';
  /** Other prose of the block (annotations of its other rows): named constants. */
  notes?: string;
}

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


/** What the checker reads from the prose around a display: domains, hypotheses, constants. */
export function contextSignature(context: string): string {
  return JSON.stringify([...readDomains(context)]) + settingKey(readSetting(context)) + (GOLDEN.test(context) ? 'G' : '') + hypotheses(context).join('\u0001');
}

const ROUNDING = /\b(significant (figures|digits)|decimal places|nearest|round(ed|ing)?|truncat|approximat)/i;

/** An equals sign (not `\\le`, `:=`, `\\neq`). */
const EQUALS = /(^|[^<>!\\:])=(?!:)/;

/** The text names the golden mean: `\\phi` is that constant, not a variable. */
const GOLDEN = /golden (mean|ratio|section)/i;
const PHI = (1 + Math.sqrt(5)) / 2;

/**
 * Equations stated in the prose (`where $q = 1 - p$`, `\\(\\Delta = \\sqrt{m^2 + 4}\\)`): a step may
 * substitute them, so a step that fails only as an identity in their variables is not refuted.
 */
export function hypotheses(context: string): string[] {
  const out: string[] = [];
  const re = /\$\$([^$]{1,400})\$\$|\$([^$]{1,400})\$|\\\(([\s\S]{1,400}?)\\\)|\\\[([\s\S]{1,400}?)\\\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(context)) && out.length < 40) {
    const math = (m[1] ?? m[2] ?? m[3] ?? m[4]).trim();
    // an equals sign of the relation itself, not of an index (`\\{x_n\\}_{n=1}^\\infty`, `\\sum_{k=1}`)
    if (EQUALS.test(math.replace(/[_^]\s*\{[^{}]*\}/g, ' '))) out.push(math);
  }
  return out;
}


function rng(seed: string): () => number {
  return seededRandom(parseInt(hashText(seed).slice(0, 6), 36));
}

type PointResult = 'ok' | 'bad' | 'unsure' | 'undefined';

interface Sides {
  lhs: Expr; rhs: Expr; mod?: Expr; ctx: ParseContext;
  /** Both sides as parsed (macros expanded): a value printed by a macro (`\\loanSD{}` = 5.05) is rounded like one written out. */
  texts: string[];
}

function prepare(tex: string, macros: MacroTable, reach: Reach): string | undefined {
  const s = expandMacros(tex, macros);
  if (s === undefined) return undefined;
  return normalizeLatex(s, reach);
}

/** How the notation is read: the other readings are tried before a refutation stands. */
interface Reading {
  /** How far an unbracketed function argument reaches (`\\ln a e^x`: (ln a) e^x or ln(a e^x)). */
  reach?: Reach;
  /** Index-like letters (n, k, m, …) are integers (`\\cos n \\pi`). */
  ints?: boolean;
  constants?: ReadonlyMap<string, number>;
  /** `dx`, `\\mathrm{d}t` are differentials, one symbol each (`5 dx^2` = 5 (dx)²). */
  differentials?: boolean;
  /** `41.5\\%` is the number of percent, 41.5 (`0.415 \\times 100 = 41.5\\%`). */
  percentCount?: boolean;
}

/** Leibniz's notation for a derivative of some order: `\\frac{d^n f}{dx^n}`, `\\frac{\\partial^2 u}{\\partial x^2}`. */
const HIGHER_DERIVATIVE = /\\[dt]?frac\s*\{\s*(?:d|\\mathrm\s*\{\s*d\s*\}|\\partial)\s*\^\s*(?:\{[^{}]*\}|\w)\s*[^{}\s][^{}]*\}\s*\{\s*(?:d|\\mathrm\s*\{\s*d\s*\}|\\partial)/;
/** Three capitals multiplied together (`XAX`), or a transpose or adjoint mark on a letter or bracket. */
const NON_COMMUTING = /(?<![\\A-Za-z])[A-Z]{3,}(?![A-Za-z])|[A-Z)]\s*\^\s*(?:\{\s*)?(?:\*|\\ast|\\top|\\dagger|T|H)(?:\s*\})?(?![A-Za-z])|\^\s*\{\s*t\s*\}\s*[A-Z]/;

/** `\\sum_{k \\le m}`, `\\sum_{d \\divides n}`: a sum over a condition, not over `k = a … b`. */
const CONDITION_SUM = /\\(sum|prod)(\s|\\limits|\\nolimits)*_\s*(\{([^{}]|\{[^{}]*\})*\}|\\?[A-Za-z0-9])/g;

function parseSides(step: StepInput, macros: MacroTable, reading: Reading = {}): Sides | string {
  const texts = [step.lhs, step.rhs, ...(step.mod ? [step.mod] : [])].map((t) => prepare(t, macros, reading.reach ?? 'default'))
    .map((t) => (t === undefined ? t : reading.percentCount ? percentCounts(t) : reading.differentials ? differentials(t) : t));
  if (texts.some((t) => t === undefined || t === '')) return 'empty side or runaway macro';
  if (texts.some((t) => /\\(ldots|cdots|dots|vdots|ddots)\b|\.\.\./.test(t!))) return 'elided terms (…)';
  if (texts.some((t) => /\d\s+\d/.test(t!))) return 'juxtaposed numbers';
  // `\frac{d^{n+1} g}{dx^{n+1}}`: a derivative of order n, not a quotient of powers of d
  if (texts.some((t) => HIGHER_DERIVATIVE.test(t!))) return 'a derivative of order n';
  // `XAYAX`, `(XA)^*`, `{}^t I`: products that need not commute, transposes and adjoints are of matrices or operators
  if (texts.some((t) => NON_COMMUTING.test(t!))) return 'capitals multiplied together, a transpose or an adjoint: matrices or operators, not numbers';
  // `(x - 1)?` (a termial), `37; 55` (sexagesimal): notation the parser would misread
  if (texts.some((t) => /\?|\d\s*;\s*\d/.test(t!))) return 'an operator or a number notation it does not read (?, ;)';
  if (texts.some((t) => /(?<!\^\s*)\*|\\ast\b|\\star\b|\\circ\b|\\oplus|\\otimes/.test(t!))) return 'a binary operation (∗, ∘, ⊕, ⊗)';
  if (texts.some((t) => [...t!.matchAll(CONDITION_SUM)].some((m) => !/=/.test(m[3])))) return 'a sum or product over a condition';
  const parsed = parseLatexSides(texts as string[], reading.constants, !!reading.ints);
  if (typeof parsed === 'string') return parsed;
  const [lhs, rhs, mod] = parsed.sides;
  return { lhs, rhs, mod, ctx: parsed.ctx, texts: texts.slice(0, 2) as string[] };
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

interface Sample {
  env: Env; res: PointResult; a: number; b: number;
  /** Drawn far out on the axis (inequalities): near-equal sides there say nothing either way. */
  far?: boolean;
}

function sampleValue(r: () => number, region: [number, number] | 'mixed', dom: { lo: number; hi: number } | undefined, negative: boolean): number {
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

function decide(sides: Sides, step: StepInput, domains: Domains, opts: EvalOptions, seed: string): Verdict {
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

/** Checks one step. Pure: the same input always gives the same verdict (seeded sampling). */
export function checkStep(step: StepInput, macros: MacroTable): Verdict {
  if (step.rel === 'approx' && step.printed && !step.implied && !step.equation) return checkApprox(step, macros);
  if (step.rel === 'approx' || step.rel === 'other') return { kind: 'skipped', reason: 'not an algebraic relation' };
  if (step.implied) return { kind: 'skipped', reason: 'a consequence, not an identity' };
  if (step.equation) return { kind: 'skipped', reason: 'an equation being solved or substituted into, not an identity' };
  if (step.rel === 'equiv' && !step.mod) return { kind: 'skipped', reason: '≡ without a modulus' };
  const prose = `${step.annotation ?? ''} ${step.notes ?? ''} ${step.context ?? ''}`;
  const constants = new Map<string, number>(GOLDEN.test(prose) ? [['phi', PHI], ['varphi', PHI], ['Phi', PHI]] : []);
  const sides = parseSides(step, macros, { constants });
  if (typeof sides === 'string') return { kind: 'unknown', reason: sides };
  // where the text says the letters are not real numbers, nothing is decided either way
  const setting = mergeSettings(step.setting, readSetting(step.context ?? ''));
  // in such a setting `e` is an identity element or an idempotent, not Euler's number
  const inLetters = freeVars(sides.lhs).size + freeVars(sides.rhs).size > 0 || /(?<![\\A-Za-z])e(?![A-Za-z])/.test(`${step.lhs} ${step.rhs}`);
  if (setting.modular) return { kind: 'unknown', reason: `the text around it is about modular arithmetic ("${setting.modular}")` };
  const notReal = notRealNotation(`${step.lhs} ${step.rhs}`, setting);
  if (notReal) return { kind: 'unknown', reason: notReal };
  if (derivativeOfAbsent(sides.lhs) || derivativeOfAbsent(sides.rhs)) return { kind: 'unknown', reason: 'a derivative of letters that do not show its variable: they depend on it (∂r/∂x with r = |(x, y, z)|)' };
  if (setting.structure && inLetters) return { kind: 'unknown', reason: `the text around it says the letters are not real numbers ("${setting.structure}")` };
  if (setting.complex && inLetters && NOT_ANALYTIC.test(`${step.lhs} ${step.rhs}`)) return { kind: 'unknown', reason: 'the letters may be complex numbers, and the step has a modulus, a root, a logarithm or a fractional power' };
  if (exprKey(sides.lhs) === exprKey(sides.rhs) && step.rel !== '!=' && step.rel !== '<' && step.rel !== '>') {
    return { kind: 'proven', reason: 'the same expression' };
  }
  // the step's own annotation (`\\quad (x > 0)`) speaks last
  const domains = readDomains(`${step.context ?? ''}. ${step.annotation ?? ''}`);
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
    // notation with more than one reading: refute only if every reading fails
    const reach = 'holds under another reach of an unbracketed function argument (\\ln a e^x = (\\ln a) e^x, \\cos n (-\\pi) = \\cos(-n\\pi))';
    const ints = 'holds when n, k, m, … are integers';
    const readings: Array<[Reading, string]> = [
      [{ reach: 'short', constants }, reach], [{ reach: 'pair', constants }, reach], [{ reach: 'long', constants }, reach],
      [{ ints: true, constants }, ints], [{ ints: true, reach: 'short', constants }, ints], [{ ints: true, reach: 'pair', constants }, ints],
      [{ ints: true, reach: 'long', constants }, ints],
    ];
    const both = `${step.lhs} ${step.rhs}`;
    if (DIFFERENTIAL.test(both) && !CALCULUS.test(both)) readings.push([{ differentials: true, constants }, 'holds when dx is read as one symbol, a differential']);
    if (/\\%/.test(both)) readings.push([{ percentCount: true, constants }, 'holds when a percentage is read as its number of percent (0.415 × 100 = 41.5%)']);
    const tried = new Set([exprKey(sides.lhs) + '\u0000' + exprKey(sides.rhs) + '\u0000' + JSON.stringify([...sides.ctx.roles])]);
    for (const [r, reason] of readings) {
      const other = parseSides(step, macros, r);
      if (typeof other === 'string') continue;
      const key = exprKey(other.lhs) + '\u0000' + exprKey(other.rhs) + '\u0000' + JSON.stringify([...other.ctx.roles]);
      if (tried.has(key)) continue;
      tried.add(key);
      if (exprKey(other.lhs) === exprKey(other.rhs)) return { kind: 'unknown', reason };
      for (const o of variants) if (decide(other, step, domains, o, seed).kind !== 'refuted') return { kind: 'unknown', reason };
    }
  }
  if (v.kind === 'refuted') v = withdraw(v, sides, step, macros, domains, seed);
  if (v.kind === 'unknown' && UNDEFINED.has(v.reason) && (hasSeries(sides.lhs) || hasSeries(sides.rhs))) {
    return { kind: 'unknown', reason: 'a series that settles too slowly to sum here, or diverges' };
  }
  return v;
}

/** Whether `e` holds a series `\\sum_{n=a}^{\\infty}`. */
function hasSeries(e: Expr): boolean {
  switch (e.k) {
    case 'op': return e.args.some(hasSeries);
    case 'D': return hasSeries(e.body);
    case 'sum': case 'prod': return (e.hi.k === 'num' && e.hi.v === Infinity) || hasSeries(e.body);
    default: return false;
  }
}

/** `dx`, `\\mathrm{d}t` in a step: perhaps differentials (a reading tried before a refutation stands). */
const DIFFERENTIAL = /(?<![A-Za-z\\])(?:d|\\mathrm\s*\{\s*d\s*\})\s*[A-Za-z](?![A-Za-z])/;
/** Derivatives and integrals: there `d` belongs to the operator, and the parser reads it so. */
const CALCULUS = /\\frac\s*\{\s*(?:d|\\mathrm\s*\{\s*d\s*\})|\\partial|\\o?int\b/;

/**
 * An `\\approx` between numbers, at the precision printed: the right side stands for whatever
 * its printed operands round from (half a unit of each last digit, carried through), and so does
 * the left side when an earlier `\\approx` of the chain rounded it. `(0.6 + 0.75 + 0.9)/3 \\approx
 * 0.76` is a slip (it is 0.75); `\\sqrt 2 \\cdot 3 \\approx 1.41 \\cdot 3 \\approx 4.24` is not. In letters an
 * approximation is asymptotic or to some order: not decided.
 */
function checkApprox(step: StepInput, macros: MacroTable): Verdict {
  const sides = parseSides(step, macros);
  if (typeof sides === 'string') return { kind: 'unknown', reason: sides };
  if (freeVars(sides.lhs).size + freeVars(sides.rhs).size > 0) return { kind: 'skipped', reason: 'an approximation in letters (asymptotic, or to some order)' };
  const setting = mergeSettings(step.setting, readSetting(step.context ?? ''));
  if (setting.modular) return { kind: 'unknown', reason: `the text around it is about modular arithmetic ("${setting.modular}")` };
  if (step.annotation && (ROUNDING.test(step.annotation) || LOCAL_FACT.test(step.annotation))) return { kind: 'unknown', reason: 'its annotation says how it was rounded or what it uses' };
  const ev = new Evaluator();
  const value = (t: string): number => {
    const p = parseLatexSides([t]);
    return typeof p === 'string' || freeVars(p.sides[0]).size > 0 ? NaN : ev.eval(p.sides[0], new Map());
  };
  const [lt, rt] = sides.texts;
  const tolRight = printedTolerance(rt, value);
  if (tolRight === undefined) return { kind: 'skipped', reason: 'an approximation whose right side prints no precision' };
  const tolLeft = step.afterApprox ? printedTolerance(lt, value) ?? 0 : 0;
  const a = ev.eval(sides.lhs, new Map());
  const b = ev.eval(sides.rhs, new Map());
  if (!Number.isFinite(a) || !Number.isFinite(b)) return { kind: 'unknown', reason: 'cannot evaluate' };
  const d = Math.abs(a - b);
  const noise = 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  if (d <= (tolLeft + tolRight) * (1 + 1e-6) + noise) return { kind: 'equal', reason: 'equal at the precision printed' };
  // `\\le \\frac{720}{5040} \\approx 0.15`: a bound rounded the safe way stays a bound
  if ((step.bound === 'upper' && b > a) || (step.bound === 'lower' && b < a)) return { kind: 'equal', reason: 'a bound, rounded the way it bounds' };
  // cut off rather than rounded (`2/3 \\approx 0.66`): within one unit, towards zero
  const unit = printedUnit(rt);
  if (unit !== undefined && Math.sign(a) === Math.sign(b) && Math.abs(b) <= Math.abs(a) && d < unit + tolLeft + noise) return { kind: 'equal', reason: 'equal at the precision printed, cut off' };
  // a clear margin: an author who carried a few more digits in between (`e^{5 \\ln 0.9} \\approx
  // 0.59045`) is off in the last places only
  if (d <= 1e-3 * Math.max(Math.abs(a), Math.abs(b))) return { kind: 'unknown', reason: 'off in the last printed places only: perhaps rounded in between' };
  return { kind: 'refuted', reason: 'differs by more than the precision printed', point: [], left: a, right: b };
}

const CANNOT_EVALUATE = 'cannot evaluate';
const UNDEFINED_ALMOST_EVERYWHERE = 'undefined at almost every sampled point';
/** Verdicts of a step that has no value where it was evaluated. */
const UNDEFINED = new Set([CANNOT_EVALUATE, UNDEFINED_ALMOST_EVERYWHERE]);

export const DIFFERENT_VARIABLES = 'sides in different variables: an equation or substitution, not an identity';

/**
 * What in an annotation cites a fact of this text rather than a general result: an equation
 * number or label, a hypothesis or assumption, a case, an induction step, a substitution, a
 * definition of a letter (`by definition of $q$`), "where"/"since"/"as" with a condition.
 */
const LOCAL_FACT = /\\(?:eq)?ref|\\cite|\(\s*[\dA-Za-z*†]{1,4}(?:\.\d+)*\s*\)|\[\s*\d+\s*\]|\b(?:hypothes|assum|given|induct|premise|condition|constraint|substitut|putting|setting|choos|case|lemma|claim|step|above|previous|earlier|below|eq(?:uation|n)?\.?\s*\d|line\s*\(?\d)|\b(?:where|since|as|if|when|with|let|for|because)\b[^.]*\$|\b(?:definition|def(?:\.|n)?)\s+of\s+(?:\$|[A-Za-z](?![A-Za-z]))/i;

/** The math of a text: its `$…$` and `\\(…\\)` parts, or the text itself when it has none. */
function mathOf(text: string): string[] {
  const parts = hypotheses(text);
  return parts.length ? parts : [text.replace(/\\(?:text|mathrm|textrm|mbox)\s*\{[^{}]*\}|\\q?quad/g, ' ')];
}

/**
 * Whether the step still fails once a stated relation `v = e` (or `e = v`) is used to replace
 * the letter v: then that relation does not explain the failure. A relation of another shape
 * (`x^3 = x`, `a^2 + b^2 = 1`) cannot be applied this way: the step is given the benefit of it.
 */
function substitutedStillFails(v: Verdict, sides: Sides, step: StepInput, macros: MacroTable, domains: Domains, seed: string, relations: readonly string[], cited = false): boolean {
  for (const stated of relations) {
    // `\\forall n \\in \\N: x_n = n`, `x_1 = 2 > 0`: the equation itself
    const h = stated.replace(/^[^:=]*\\(?:forall|exists)[^:]*:/, '').split(/<|>|\\[lg]eq?\b|\\[lg]t\b|\\ne(?:q)?\b|\\in\b|,\s*(?:\\q?quad|\\text)/)[0];
    const parts = h.split(/(?<![<>!\\:])=(?!:)/);
    if (parts.length < 2) return false;
    const [l, r] = [parts[0], parts[parts.length - 1]];
    // `$= \frac 1 x$` goes on from prose: with a side missing it states no relation
    if (!l.trim() || !r.trim()) continue;
    // `n = 1, 2, 3, \\ldots`: a range of values, not a relation to use
    if (/\\[lc]?dots|\.\.\.|,/.test(r.replace(/\{[^{}]*\}/g, ''))) continue;
    // a relation that holds whatever its letters are (an identity stated in the text) cannot
    // make a false step true
    const whole = parseSides({ ...step, lhs: l, rhs: r, mod: undefined }, macros);
    if (typeof whole !== 'string' && freeVars(whole.lhs).size + freeVars(whole.rhs).size > 0) {
      const holds = decide(whole, { ...step, lhs: l, rhs: r, rel: '=' }, new Map(), { logBase: Math.E, acot: 'continuous' }, seed);
      if (holds.kind === 'equal' || holds.kind === 'proven') continue;
    }
    const parsed = sides;
    // `\\AA = …` names something the step does not mention: not what the step uses
    const named = /^\s*(\\?[A-Za-z]+(?:_\{?\w+\}?)?)\s*$/.exec(l);
    if (named && !`${step.lhs} ${step.rhs}`.includes(named[1].trim())) continue;
    const rel = parseSides({ ...step, lhs: l, rhs: r, mod: undefined }, macros);
    if (typeof rel === 'string') {
      if (!cited && !showsSide(step, l, r)) continue;
      return false;
    }
    let name: string | undefined;
    let value: Expr | undefined;
    if (rel.lhs.k === 'var' && !freeVars(rel.rhs).has(rel.lhs.name)) { name = rel.lhs.name; value = rel.rhs; }
    else if (rel.rhs.k === 'var' && !freeVars(rel.lhs).has(rel.rhs.name)) { name = rel.rhs.name; value = rel.lhs; }
    if (!name || !value) {
      // another shape (`x^3 = x`, `\\lim … = l`): used by writing one side for the other, so the
      // step shows one of them; then the step at points where the relation holds decides
      // (a relation the step's own annotation cites is what it uses, shown or not)
      if (!cited && !showsSide(step, l, r)) continue;
      if (failsWhereRelationHolds(sides, rel, step, seed)) continue;
      return false;
    }
    if (!freeVars(parsed.lhs).has(name) && !freeVars(parsed.rhs).has(name)) continue;
    const replaced: Sides = { ...parsed, lhs: substitute(parsed.lhs, name, value), rhs: substitute(parsed.rhs, name, value) };
    const again = decide(replaced, step, domains, { logBase: Math.E, acot: 'continuous' }, seed);
    // where a stated value makes the step undefined (`\\frac{x}{\\sqrt{x^2}}` at x = 0) it is not one the step
    // uses (a relation between letters, `m = n`, may be the other case of a case split: it still excuses)
    if (again.kind !== 'refuted' && !(UNDEFINED.has(again.reason) && freeVars(value).size === 0)) return false;
  }
  return v.kind === 'refuted';
}

/**
 * Whether the step fails clearly at points where the relation `rel` holds: one letter shared
 * with the step is solved for (a sign change of lhs − rhs on [−10, 10], then bisection) with
 * the others drawn at random. False when no such points are found.
 */
/** Roots of a stated relation tried per sample of the other letters. */
const MAX_ROOTS = 4;

function failsWhereRelationHolds(sides: Sides, rel: Sides, step: StepInput, seed: string): boolean {
  const stepVars = new Set([...freeVars(sides.lhs), ...freeVars(sides.rhs)]);
  const relVars = [...new Set([...freeVars(rel.lhs), ...freeVars(rel.rhs)])].sort();
  const solveFor = relVars.find((v) => stepVars.has(v));
  if (!solveFor) return false;
  const all = [...new Set([...stepVars, ...relVars])].sort();
  const ev = new Evaluator();
  const r = rng(`${seed}\u0000relation`);
  const f = (env: Env) => ev.eval(rel.lhs, env) - ev.eval(rel.rhs, env);
  let bad = 0;
  let found = 0;
  let undefinedAtRoots = false;
  for (let trial = 0; trial < 12 && found < 6; trial++) {
    const env: Env = new Map();
    for (const v of all) env.set(v, sides.ctx.roles.get(v) === 'int' || rel.ctx.roles.get(v) === 'int' ? 1 + Math.floor(r() * 9) : 0.1 + r() * 3);
    const at = (x: number) => { env.set(solveFor, x); return f(env); };
    // every root in reach, not only the first: `A^2 = A` holds at 0, where the step may be undefined, and at 1
    const roots: number[] = [];
    let prevX = -10;
    let prev = at(prevX);
    for (let k = 1; k <= 200 && roots.length < MAX_ROOTS; k++) {
      const x = -10 + k * 0.1;
      const y = at(x);
      if (Number.isFinite(prev) && Number.isFinite(y) && (prev === 0 || prev * y < 0)) {
        let [a, b, fa] = [prevX, x, prev];
        for (let i = 0; i < 60; i++) { const m = (a + b) / 2; const fm = at(m); if (!Number.isFinite(fm)) break; if (fa * fm <= 0) b = m; else { a = m; fa = fm; } }
        // a root a hair from an integer is that integer (where the step may be undefined, as it is there)
        const root = (a + b) / 2;
        roots.push(Math.abs(root - Math.round(root)) < 1e-9 ? Math.round(root) : root);
      }
      prevX = x;
      prev = y;
    }
    // the trial fails only if the step fails at every root where it is defined
    let defined = 0;
    let failed = 0;
    for (const root of roots) {
      env.set(solveFor, root);
      const a = ev.eval(sides.lhs, env);
      const ea = ev.err;
      const b = ev.eval(sides.rhs, env);
      const res = compare(step.rel, a, b, ea + ev.err, 1e-9, 1e-6);
      if (res === 'undefined') continue;
      defined++;
      if (res === 'bad') failed++;
    }
    if (roots.length) undefinedAtRoots ||= !defined;
    if (!defined) continue;
    found++;
    if (failed === defined) bad++;
  }
  // a relation whose every root leaves the step undefined (`\sinh x = 0` for `\cosh x / \sinh x`) is not one it uses
  if (found === 0) return undefinedAtRoots;
  return found >= 3 && bad === found;
}

/**
 * Whether the step shows one side of the relation `l = r` as written (how a relation of
 * another shape is used: one side written for the other). A number or a lone symbol shows up
 * anywhere, so it does not count.
 */
function showsSide(step: StepInput, l: string, r: string): boolean {
  const flat = (t: string) => t.replace(/\\(?:ds|displaystyle|left|right|mathop)\b|\s+/g, '');
  const stepText = flat(`${step.lhs}${step.rhs}`);
  return [l, r].some((x) => {
    const f = flat(x);
    return f.length >= 3 && !/^-?[\d.]+$/.test(f) && stepText.includes(f);
  });
}

function substitute(e: Expr, name: string, value: Expr): Expr {
  switch (e.k) {
    case 'var': return e.name === name ? value : e;
    case 'op': return { ...e, args: e.args.map((a) => substitute(a, name, value)) };
    case 'D': return e.v === name ? e : { ...e, body: substitute(e.body, name, value) };
    case 'sum': case 'prod': return { ...e, lo: substitute(e.lo, name, value), hi: substitute(e.hi, name, value), body: e.v === name ? e.body : substitute(e.body, name, value) };
    default: return e;
  }
}

/** Withdraws a numeric refutation where the step is probably not meant as an identity. */
function withdraw(v: Verdict, sides: Sides, step: StepInput, macros: MacroTable, domains: Domains, seed: string): Verdict {
  // a relation with its own justification (`\\overset{(3)}{=}`), or a step that cites a local
  // fact (an equation number, a hypothesis, a definition of one of its letters): it may use what
  // the text does not show. A general result it names ("by the binomial theorem", "Power of
  // Power") is an identity: such a step is checked.
  if (step.justified) return { kind: 'unknown', reason: 'justified by a hypothesis or reference' };
  const local = step.annotation ? LOCAL_FACT.exec(step.annotation) : null;
  if (local) return { kind: 'unknown', reason: `justified by a hypothesis or reference ("${local[0].trim()}")` };
  // "to 3 significant figures", "to the nearest integer": a rounding, not an equality
  if (step.annotation && ROUNDING.test(step.annotation)) return { kind: 'unknown', reason: 'a rounding, by its annotation' };
  // `\\quad a + b = 9`: the annotation states the relation the step uses
  if (step.annotation && EQUALS.test(step.annotation) && !substitutedStillFails(v, sides, step, macros, domains, seed, mathOf(step.annotation), true)) {
    return { kind: 'unknown', reason: 'uses a relation stated in its annotation' };
  }
  // `x = 4x - 93`: a letter equal to an expression in itself is an equation, not an identity
  for (const [a, b] of [[sides.lhs, sides.rhs], [sides.rhs, sides.lhs]]) {
    if (a.k === 'var' && freeVars(b).has(a.name)) return { kind: 'unknown', reason: `an equation in ${displayVar(a.name)}, not an identity` };
  }
  // an equation stated in the prose, in variables of the step, may have been substituted
  // (compared by letters: `t_1` is t and 1, `\\Delta` is Delta; a hypothesis is read as text, so
  // that notation the parser does not take, such as `s \\paren {t_2 - t_1}`, still counts)
  const letters = new Set<string>();
  for (const v of [...freeVars(sides.lhs), ...freeVars(sides.rhs)]) {
    const k = v.indexOf('_');
    letters.add(k < 0 ? v : v.slice(0, k));
    if (k >= 0) for (const l of identifiers(v.slice(k + 1).replace(/"/g, ' '))) letters.add(l);
  }
  const stated = hypotheses(`${step.context ?? ''} ${step.notes ?? ''}`);
  // in probability, p and q are a probability and its complement unless said otherwise
  if (letters.has('p') && letters.has('q') && PROBABILITY.test(step.context ?? '')) stated.push('q = 1 - p');
  for (const h of stated) {
    const expanded = expandMacros(h, macros) ?? h;
    const hv = [...identifiers(expanded.replace(/\\(text|mathrm|operatorname|map|paren|size)\b/g, ' '))].filter((l) => !sides.ctx.constants.has(l));
    if (hv.length > 0 && hv.every((x) => letters.has(x)) && !substitutedStillFails(v, sides, step, macros, domains, seed, [h])) return { kind: 'unknown', reason: `may use the relation ${h} stated in the text` };
  }
  if (freeVars(sides.lhs).has('C') && freeVars(sides.rhs).has('C')) return { kind: 'unknown', reason: 'C may be an arbitrary constant' };
  if (freeVars(sides.lhs).has('i') || freeVars(sides.rhs).has('i')) return { kind: 'unknown', reason: 'i may be the imaginary unit' };
  // sides in different letters: an equation (`x^2 + 1 = 5`), a substitution (`(x - μ)/σ = (x - 70)/3.3`)
  // or a letter defined elsewhere (`\\cos a - \\cos y = \\sin(c)(y - a)` for some c)
  if (!step.identity && !sameLetters(sides, domains, seed)) return { kind: 'unknown', reason: DIFFERENT_VARIABLES };
  return v;
}

/**
 * Whether both sides are in the same letters, counting only the letters a side's value depends
 * on: one that cancels (`\sabs{x_n - x + x - x_k}`) or a side constant in its letters (a modulus
 * that is 1 whatever t is) does not make the step an equation or a substitution.
 */
function sameLetters(sides: Sides, domains: Domains, seed: string): boolean {
  const l = freeVars(sides.lhs);
  const r = freeVars(sides.rhs);
  if (l.size === r.size && [...l].every((v) => r.has(v))) return true;
  // in `\frac{AC}{BC}` the capitals name a segment, and nothing cancels
  const names = new Set(sides.texts.flatMap((t) => [...t.matchAll(CAPITAL_RUN)].flatMap((m) => [...m[0]])));
  for (const [side, own, other] of [[sides.lhs, l, r], [sides.rhs, r, l]] as const) {
    for (const v of own) {
      if (other.has(v) || (!names.has(v) && writtenToCancel(side, v))) continue;
      if (names.has(v) || dependsOn(side, v, own, sides, domains, seed)) return false;
    }
    // a derivative that comes out constant in all its letters (`\frac{\partial x_i}{\partial x_i}`,
    // summed over i) is written in a convention the step does not show
    if (own.size > 0 && hasDerivative(side) && [...own].every((v) => !other.has(v) || !dependsOn(side, v, own, sides, domains, seed))) return false;
  }
  return true;
}

/**
 * Whether the letter `v` is written twice as a term of one sum of `e` (`x_n - x + x - x_k`): an
 * author adds and subtracts a letter so that it cancels, and writes `2x` for `x + x`. The other
 * side lacking `v` is then no sign of an equation or a substitution, whether or not the signs
 * came out right. Only a bare letter counts: a power written twice across parentheses
 * (`2 - (1 + \beta - \beta^2) + \beta^2`) may be a constant being simplified.
 */
function writtenToCancel(e: Expr, v: string): boolean {
  if (e.k === 'op' && (e.op === 'add' || e.op === 'sub')) {
    let seen = false;
    for (const t of sumTerms(e)) {
      if (t.k !== 'var' || t.name !== v) continue;
      if (seen) return true;
      seen = true;
    }
  }
  if (e.k === 'op') return e.args.some((a) => writtenToCancel(a, v));
  if (e.k === 'D' || e.k === 'sum' || e.k === 'prod') return e.v !== v && writtenToCancel(e.body, v);
  return false;
}

/** The terms of a sum, signs dropped (`a - (b + c)` is a, b, c). */
function sumTerms(e: Expr, out: Expr[] = []): Expr[] {
  if (e.k === 'op' && (e.op === 'add' || e.op === 'sub')) for (const a of e.args) sumTerms(a, out);
  else if (e.k === 'op' && e.op === 'neg') sumTerms(e.args[0], out);
  else out.push(e);
  return out;
}

/** Capitals written together (`AC`, `OAB`): a segment, a triangle or a product that need not commute. */
const CAPITAL_RUN = /(?<![\\A-Za-z])[A-Z]{2,}(?![A-Za-z])/g;

/**
 * Whether the value of `e` moves when the letter `v` alone moves, at sampled points. A letter
 * whose effect cannot be sampled (too few points where `e` is defined) counts as one it depends on.
 */
function dependsOn(e: Expr, v: string, vars: ReadonlySet<string>, sides: Sides, domains: Domains, seed: string): boolean {
  const ev = new Evaluator();
  const r = rng(`${seed}\u0000depends\u0000${v}`);
  const draw = (x: string): number => (sides.ctx.roles.get(x) === 'int' ? intValue(r, domains.get(x)) : sampleValue(r, 'mixed', domains.get(x), false));
  let compared = 0;
  for (let trial = 0; trial < 16 && compared < 8; trial++) {
    const env: Env = new Map();
    for (const x of vars) env.set(x, draw(x));
    const a = ev.eval(e, env);
    const ea = ev.err;
    env.set(v, draw(v));
    const b = ev.eval(e, env);
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    compared++;
    if (Math.abs(a - b) > Math.max(1e3 * (ea + ev.err), 1e-9 * Math.max(Math.abs(a), Math.abs(b)), 1e-12)) return true;
  }
  return compared < 6;
}

/** Prose or notation of probability (`\\P(X = r)`, "geometric distribution"): p and q there are complements. */
const PROBABILITY = /probabilit|distribution|bernoulli|binomial|geometric|random (?:walk|variable)|\\(?:P|Pr|Prob)(?![A-Za-z])|\\mathbb\{P\}/i;

export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}

const REL_TEXT: Partial<Record<Relation, string>> = { '<=': '≤', '<': '<', '>=': '≥', '>': '>', '!=': '≠', equiv: '≡', approx: '≈' };

/** `does not follow: at x = 0.7 left side 1.53, right side 0.24` */
export function verdictMessage(v: Verdict, rel: Relation): string {
  if (v.kind !== 'refuted') return v.reason;
  const at = v.point && v.point.length ? `at ${v.point.map(([k, x]) => `${displayVar(k)} = ${formatNumber(x)}`).join(', ')} ` : '';
  const need = REL_TEXT[rel] ? ` (needs left ${REL_TEXT[rel]} right)` : '';
  const read = [AS_IDENTITY, AS_CLOSING].find((note) => v.reason.endsWith(note));
  if (read === AS_CLOSING) return `the text says ${formatNumber(v.right!)}, but the display comes to ${formatNumber(v.left!)} ${AS_CLOSING}`;
  return `does not follow: ${at}left side ${formatNumber(v.left!)}, right side ${formatNumber(v.right!)}${need}${read ? ` ${read}` : ''}`;
}

/** Said of a display's result set against the value the sentence after it states (blocks.ts#Closing). */
export const AS_CLOSING = '(the value the sentence after the display states)';

/** Said of a row decided as an identity because the display's other rows are (checker.ts#identityRows). */
export const AS_IDENTITY = '(read as an identity: other rows of this display hold as identities)';

/** `x_{"n"}` → `x_n` for messages. */
export function displayVar(name: string): string {
  return name.replace(/_\{(.*)\}$/, (_m, s: string) => `_${s.replace(/"/g, '')}`);
}
