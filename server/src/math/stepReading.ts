// A step's sides read for evaluation: macros expanded, notation refused that the parser would
// misread (elisions, operators on matrices, sums over a condition), then parsed under one reading
// of the notation; the verdict tries the other readings before a refutation stands.
import type { Expr } from './expr.js';
import { type MacroTable, expandMacros } from './macros.js';
import { parseSides as parseLatexSides, type ParseContext } from './parse.js';
import { differentials, normalizeLatex, percentCounts, type Reach } from './normalize.js';
import type { StepInput } from './verdictTypes.js';

export interface Sides {
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
export interface Reading {
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

export function parseSides(step: StepInput, macros: MacroTable, reading: Reading = {}): Sides | string {
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
