// Real equations as rewrite seeds: a display's relation chains (the derivation checker's step
// extraction), each side prepared and parsed exactly as the checker does (macros, normalisation,
// the compute engine's parser, strict conversion to Expr). Also the side-reversed text of an
// equation, the renaming augmentation of the context pairs (`y = x^2` → `x^2 = y` changes
// which variable the canonical text names first).
import { type Expr, freeVars, type MacroTable, expandMacros, normalizeLatex, parseSides as parseLatexSides, extractSteps, type Relation as StepRelation, type Span, canonicalFormula } from 'mathsense-server/api/math';
import type { Relation } from './clusters.js';

export interface Chain {
  /** Side texts in order (`a = b = c`: three). */
  sides: string[];
  rel: Relation;
}

const REL: Partial<Record<StepRelation, Relation>> = { '=': '=', '<': '<', '>': '>', '<=': '\\leq', '>=': '\\geq', '!=': '\\neq' };
const FLIP: Record<Relation, Relation> = { '=': '=', '\\neq': '\\neq', '<': '>', '>': '<', '\\leq': '\\geq', '\\geq': '\\leq' };

/** Row spans at top-level `\\`. */
function rows(latex: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i];
    if (c === '\\' && latex[i + 1] === '\\' && depth === 0) { out.push({ start, end: i }); start = i + 2; i++; continue; }
    if (c === '\\') { i++; continue; }
    if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  out.push({ start, end: latex.length });
  return out;
}

/**
 * Relation chains of a display (one relation kind per chain; implications, equations being
 * solved and chains with `≈` or set relations are left out).
 */
export function relationChains(latex: string): Chain[] {
  const steps = extractSteps({ text: latex, rows: rows(latex) });
  const out: Chain[] = [];
  let cur: (Chain & { end: number }) | undefined;
  for (const s of steps) {
    const rel = REL[s.rel];
    if (!rel || s.implied) { cur = undefined; continue; }
    if (cur && cur.end === s.lhs.start && cur.rel === rel) {
      cur.sides.push(s.rhs.text.trim());
      cur.end = s.rhs.start;
      continue;
    }
    cur = { sides: [s.lhs.text.trim(), s.rhs.text.trim()], rel, end: s.rhs.start };
    out.push(cur);
  }
  return out.map(({ sides, rel }) => ({ sides, rel }));
}

/** A chain's text (`a = b = c`). */
export function chainLatex(c: Chain): string {
  return c.sides.join(` ${c.rel} `);
}

/** The chain read backwards (`c = b = a`, `b \geq a` for `a \leq b`). */
export function reversedChain(c: Chain): Chain {
  return { sides: [...c.sides].reverse(), rel: FLIP[c.rel] };
}

/**
 * The display read backwards, or undefined unless it is one chain and nothing else (the chain's
 * canonical text is the display's: no prose, second equation or condition would be lost).
 */
export function reversedEquation(latex: string, macros?: MacroTable): string | undefined {
  const chains = relationChains(latex);
  if (chains.length !== 1 || canonicalFormula(chainLatex(chains[0]), macros) !== canonicalFormula(latex, macros)) return undefined;
  return chainLatex(reversedChain(chains[0]));
}

/**
 * Integer-valued functions, sums and products: the rules are about continuous functions, such
 * seeds are undefined on the sample domain, and the evaluator's binomial of large constants
 * (`\\binom{20922789888000}{1828915200}`) loops for a very long time.
 */
const DISCRETE = new Set(['fact', 'binom', 'gcd', 'lcm', 'mod', 'floor', 'ceil', 'sign']);

function discrete(e: Expr): boolean {
  switch (e.k) {
    case 'op': return DISCRETE.has(e.op) || e.args.some(discrete);
    case 'D': return discrete(e.body);
    case 'sum': case 'prod': return true;
    default: return false;
  }
}

/** A variable the LaTeX printer writes back as it was: `x`, `\\theta`, `x_1`, `a_n`, not `x_{n+1}`. */
function printableName(name: string): boolean {
  const m = /^([A-Za-z]+)(?:_\{(.*)\})?$/.exec(name);
  if (!m) return false;
  if (m[2] === undefined) return true;
  try {
    const sub: unknown = JSON.parse(m[2]);
    return typeof sub === 'number' || (typeof sub === 'string' && /^[A-Za-z0-9]+$/.test(sub));
  } catch {
    return false;
  }
}

/**
 * The sides parsed together (one parse context: `e` is Euler's number on every side when it
 * is a power base on one), or undefined when any side is not a real-valued expression the
 * checker can evaluate or has no variable.
 */
export function parseSides(texts: readonly string[], macros: MacroTable): Expr[] | undefined {
  const prepared: string[] = [];
  for (const t of texts) {
    const s = expandMacros(t, macros);
    if (s === undefined) return undefined;
    const n = normalizeLatex(s, 'default').trim();
    if (!n || /\\(ldots|cdots|dots|vdots|ddots)\b|\.\.\./.test(n)) return undefined;
    prepared.push(n);
  }
  const parsed = parseLatexSides(prepared);
  if (typeof parsed === 'string') return undefined;
  const sides = parsed.sides;
  if (sides.some(discrete)) return undefined;
  const vars = new Set(sides.flatMap((e) => [...freeVars(e)]));
  if (vars.size === 0 || ![...vars].every(printableName)) return undefined;
  return sides;
}
