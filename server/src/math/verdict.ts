// The verdict on one step. Both sides are parsed and evaluated at seeded random points:
// positive reals first (in several regions: (0.1,0.9), (1.1,3), (3,10), mixed), then negative
// reals only when too few positive points are defined; integers for index-like variables.
// A step is refuted only when *every* region with defined points violates it with a clear
// margin, so an identity that holds on part of the sampled domain (asin(sin x) = x,
// sqrt(x^2) = x) is never flagged. Refutations are then withdrawn where the step is
// probably not meant as an identity (sides in different variables, a justification that
// cites a hypothesis).
import { type Expr, exprKey, freeVars, hasDerivative } from './expr.js';
import { Evaluator, type Env, type EvalOptions } from './evaluate.js';
import { type MacroTable, expandMacros } from './macros.js';
import { parseSides as parseLatexSides, type ParseContext } from './parse.js';
import { readDomains, type Domains } from './domain.js';
import { hashText } from './latexText.js';
import { normalizeLatex, type Reach } from './normalize.js';
import { identifiers, type Relation } from './steps.js';
import { seededRandom } from '../util/random.js';

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
  /** The wider setting says the letters are not real numbers (blocks.ts#BlockInput.nonReal). */
  nonReal?: boolean;
  implied?: boolean;
  /** One of the equations being solved or substituted into (see `Step.equation`). */
  equation?: boolean;
  /**
   * Read as an identity even with sides in different variables: a row of a display whose other
   * rows, each with its own left side, hold as identities (checker.ts#identityRows).
   */
  identity?: boolean;
  justified?: boolean;
  /** Other prose of the block (annotations of its other rows): named constants. */
  notes?: string;
}

const POINTS_PER_REGION = 10;
const POSITIVE: Array<[number, number] | 'mixed'> = [[0.1, 0.9], [1.1, 3], [3, 10], 'mixed'];
/** Only when too few positive points are defined: small values and negative reals. */
const NEGATIVE: Array<[number, number] | 'mixed'> = [[0.005, 0.1], [-0.1, -0.005], [-0.9, -0.1], [-3, -1.1], [-10, -3], 'mixed'];
const MORE_POINTS = 30;

const HYPOTHESIS = /\\(eq)?ref|\\cite|\\overset|\b(by|since|hypothes|assum|using|use|given|from|substitut|definition|defin|where|if|when|for|as|put|set|let|choos|take|induct|lemma|theorem|proposition|corollary|equation|because|with|note|recall|apply|applying)/i;

/** What the checker reads from the prose around a display: domains, hypotheses, constants. */
export function contextSignature(context: string): string {
  return JSON.stringify([...readDomains(context)]) + (NON_REAL_CONTEXT.test(context) ? 'N' : '') + (GOLDEN.test(context) ? 'G' : '') + hypotheses(context).join('\u0001');
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
    if (EQUALS.test(math)) out.push(math);
  }
  return out;
}

export const NON_REAL_CONTEXT = /characteristic|\\pmod|\\bmod|\bmod(ulo)?\b|finite field|\\mathbb\s*\{?F|\\mathbf\s*\{?F|\bgroups?\b|\brings?\b|\bideals?\b|\bmodules?\b|sheaf|sheaves|scheme|morphism|functor|categor|intersection|divisor|permutation|ordinal|cardinal|boolean|lattice|operators?\b|\bmatri(x|ces)\b|quaternion|\bfield\b|semigroup|monoid|\bchar\b|homotop|complex|roots? of unity|abelian|commutative|eigen(?:values?|vectors?|spaces?)|orthonormal|self-adjoint|vector spaces?|linear (?:maps?|operators?|transformations?|functionals?)|inner products?|\\mathbb\s*\{?Z\}?\s*\//i;

function rng(seed: string): () => number {
  return seededRandom(parseInt(hashText(seed).slice(0, 6), 36));
}

type PointResult = 'ok' | 'bad' | 'unsure' | 'undefined';

interface Sides { lhs: Expr; rhs: Expr; mod?: Expr; ctx: ParseContext }

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
}

/** `\\sum_{k \\le m}`, `\\sum_{d \\divides n}`: a sum over a condition, not over `k = a … b`. */
const CONDITION_SUM = /\\(sum|prod)(\s|\\limits|\\nolimits)*_\s*(\{([^{}]|\{[^{}]*\})*\}|\\?[A-Za-z0-9])/g;

function parseSides(step: StepInput, macros: MacroTable, reading: Reading = {}): Sides | string {
  const texts = [step.lhs, step.rhs, ...(step.mod ? [step.mod] : [])].map((t) => prepare(t, macros, reading.reach ?? 'default'));
  if (texts.some((t) => t === undefined || t === '')) return 'empty side or runaway macro';
  if (texts.some((t) => /\\(ldots|cdots|dots|vdots|ddots)\b|\.\.\./.test(t!))) return 'elided terms (…)';
  if (texts.some((t) => /\d\s+\d/.test(t!))) return 'juxtaposed numbers';
  if (texts.some((t) => /(?<!\^\s*)\*|\\ast\b|\\star\b|\\circ\b|\\oplus|\\otimes/.test(t!))) return 'a binary operation (∗, ∘, ⊕, ⊗)';
  if (texts.some((t) => [...t!.matchAll(CONDITION_SUM)].some((m) => !/=/.test(m[3])))) return 'a sum or product over a condition';
  const parsed = parseLatexSides(texts as string[], reading.constants, !!reading.ints);
  if (typeof parsed === 'string') return parsed;
  const [lhs, rhs, mod] = parsed.sides;
  return { lhs, rhs, mod, ctx: parsed.ctx };
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

/**
 * Relative tolerance for decimals in the step: a decimal may be rounded (`23.85 \\%`,
 * `= 0.9576`), so sides that agree to within ten times its rounding are not told apart.
 */
function roundingTolerance(step: StepInput): number {
  let tol = 0;
  for (const t of [step.lhs, step.rhs]) {
    for (const m of t.matchAll(/(\d*)(?:\.|\s*\\cdotp\s*)(\d+)/g)) {
      const v = Number(`${m[1] || '0'}.${m[2]}`);
      if (v > 0) tol = Math.max(tol, (10 * 0.5 * 10 ** -m[2].length) / v);
    }
  }
  return Math.min(tol, 1);
}

function decide(sides: Sides, step: StepInput, domains: Domains, opts: EvalOptions, seed: string): Verdict {
  const vars = [...new Set([...freeVars(sides.lhs), ...freeVars(sides.rhs), ...(sides.mod ? freeVars(sides.mod) : [])])].sort();
  const deriv = hasDerivative(sides.lhs) || hasDerivative(sides.rhs);
  const rounding = roundingTolerance(step);
  const tol = Math.max(deriv ? 1e-8 : 1e-11, rounding);
  const margin = Math.max(deriv ? 1e-6 : 1e-8, 4 * rounding);
  const ev = new Evaluator(opts);
  const sampler = new Sampler(sides, step.rel, vars, domains, tol, margin);
  if (vars.length === 0) {
    const s = sampler.at(new Map(), ev);
    if (s.res === 'ok' && rounding > 1e-11 && s.a !== s.b) return { kind: 'equal', reason: 'equal up to the rounding of a decimal' };
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
  if (step.equation) return { kind: 'skipped', reason: 'an equation being solved or substituted into, not an identity' };
  if (step.rel === 'equiv' && !step.mod) return { kind: 'skipped', reason: '≡ without a modulus' };
  const prose = `${step.annotation ?? ''} ${step.notes ?? ''} ${step.context ?? ''}`;
  const constants = new Map<string, number>(GOLDEN.test(prose) ? [['phi', PHI], ['varphi', PHI], ['Phi', PHI]] : []);
  const sides = parseSides(step, macros, { constants });
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
    // notation with more than one reading: refute only if every reading fails
    const reach = 'holds under another reach of an unbracketed function argument (\\ln a e^x = (\\ln a) e^x, \\cos n (-\\pi) = \\cos(-n\\pi))';
    const ints = 'holds when n, k, m, … are integers';
    const readings: Array<[Reading, string]> = [
      [{ reach: 'short', constants }, reach], [{ reach: 'pair', constants }, reach], [{ reach: 'long', constants }, reach],
      [{ ints: true, constants }, ints], [{ ints: true, reach: 'short', constants }, ints], [{ ints: true, reach: 'pair', constants }, ints],
      [{ ints: true, reach: 'long', constants }, ints],
    ];
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
  if (v.kind === 'refuted') v = withdraw(v, sides, step, macros);
  return v;
}

export const DIFFERENT_VARIABLES = 'sides in different variables: an equation or substitution, not an identity';

/** Withdraws a numeric refutation where the step is probably not meant as an identity. */
function withdraw(v: Verdict, sides: Sides, step: StepInput, macros: MacroTable): Verdict {
  if (step.justified || (step.annotation && HYPOTHESIS.test(step.annotation))) {
    return { kind: 'unknown', reason: 'justified by a hypothesis or reference' };
  }
  // "to 3 significant figures", "to the nearest integer": a rounding, not an equality
  if (step.annotation && ROUNDING.test(step.annotation)) return { kind: 'unknown', reason: 'a rounding, by its annotation' };
  // `\\quad a + b = 9`: the annotation states the relation the step uses
  if (step.annotation && EQUALS.test(step.annotation)) {
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
  for (const h of hypotheses(`${step.context ?? ''} ${step.notes ?? ''}`)) {
    const expanded = expandMacros(h, macros) ?? h;
    const hv = [...identifiers(expanded.replace(/\\(text|mathrm|operatorname|map|paren|size)\b/g, ' '))].filter((l) => !sides.ctx.constants.has(l));
    if (hv.length > 0 && hv.every((x) => letters.has(x))) return { kind: 'unknown', reason: `may use the relation ${h} stated in the text` };
  }
  if (freeVars(sides.lhs).has('C') && freeVars(sides.rhs).has('C')) return { kind: 'unknown', reason: 'C may be an arbitrary constant' };
  if (freeVars(sides.lhs).has('i') || freeVars(sides.rhs).has('i')) return { kind: 'unknown', reason: 'i may be the imaginary unit' };
  if (step.nonReal || (step.context && NON_REAL_CONTEXT.test(step.context))) return { kind: 'unknown', reason: 'the surrounding text is not about real numbers (structure or modular arithmetic)' };
  const l = [...freeVars(sides.lhs)].sort().join(',');
  const r = [...freeVars(sides.rhs)].sort().join(',');
  if (l !== r && !step.identity) return { kind: 'unknown', reason: DIFFERENT_VARIABLES };
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
  const read = v.reason.endsWith(AS_IDENTITY) ? ` ${AS_IDENTITY}` : '';
  return `does not follow: ${at}left side ${formatNumber(v.left!)}, right side ${formatNumber(v.right!)}${need}${read}`;
}

/** Said of a row decided as an identity because the display's other rows are (checker.ts#identityRows). */
export const AS_IDENTITY = '(read as an identity: other rows of this display hold as identities)';

/** `x_{"n"}` → `x_n` for messages. */
export function displayVar(name: string): string {
  return name.replace(/_\{(.*)\}$/, (_m, s: string) => `_${s.replace(/"/g, '')}`);
}
