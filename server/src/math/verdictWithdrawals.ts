// Withdrawals: a numeric refutation is withdrawn where the step is probably not meant as an
// identity: a justification that cites a local fact, a relation stated in its annotation or in
// the text that it may use, sides in different letters (an equation or a substitution), letters
// that may be constants (C, i).
import { type Expr, freeVars, hasDerivative } from './expr.js';
import { Evaluator, type Env } from './evaluate.js';
import { type MacroTable, expandMacros } from './macros.js';
import type { Domains } from './domain.js';
import { identifiers } from './steps.js';
import { parseSides, type Sides } from './stepReading.js';
import { compare, decide, intValue, rng, sampleValue, UNDEFINED } from './verdictSampling.js';
import { EQUALS, hypotheses, LOCAL_FACT, ROUNDING } from './verdictContext.js';
import { displayVar } from './verdictMessages.js';
import type { StepInput, Verdict } from './verdictTypes.js';

export const DIFFERENT_VARIABLES = 'sides in different variables: an equation or substitution, not an identity';

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

/** Roots of a stated relation tried per sample of the other letters. */
const MAX_ROOTS = 4;

/**
 * Whether the step fails clearly at points where the relation `rel` holds: one letter shared
 * with the step is solved for (a sign change of lhs − rhs on [−10, 10], then bisection) with
 * the others drawn at random. False when no such points are found.
 */
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
export function withdraw(v: Verdict, sides: Sides, step: StepInput, macros: MacroTable, domains: Domains, seed: string): Verdict {
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
