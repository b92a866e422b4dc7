// The verdict on one step (checkStep): skipped relations, notation that is not about real
// numbers, then a decision by sampling (verdictSampling.ts); a refutation stands only if every
// convention and reading of the notation fails (stepReading.ts), and is withdrawn where the
// step is probably not meant as an identity (verdictWithdrawals.ts). Messages: verdictMessages.ts.
import { type Expr, exprKey, freeVars, derivativeOfAbsent } from './expr.js';
import { Evaluator, type EvalOptions } from './evaluate.js';
import type { MacroTable } from './macros.js';
import { parseSides as parseLatexSides } from './parse.js';
import { readDomains } from './domain.js';
import { printedTolerance, printedUnit } from './printed.js';
import { mergeSettings, NOT_ANALYTIC, notRealNotation, readSetting } from './setting.js';
import { parseSides, type Reading } from './stepReading.js';
import { decide, UNDEFINED } from './verdictSampling.js';
import { withdraw } from './verdictWithdrawals.js';
import { GOLDEN, LOCAL_FACT, PHI, ROUNDING } from './verdictContext.js';
import type { StepInput, Verdict } from './verdictTypes.js';

export type { StepInput, Verdict, VerdictKind } from './verdictTypes.js';
export { contextSignature, hypotheses } from './verdictContext.js';
export { DIFFERENT_VARIABLES } from './verdictWithdrawals.js';
export { AS_CLOSING, AS_IDENTITY, displayVar, formatNumber, verdictMessage } from './verdictMessages.js';

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
