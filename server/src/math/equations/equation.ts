// One display equation (or align row) analysed for the related-equations search: its
// canonical text (the formula encoder's input), its sides parsed by the derivation checker's
// parser, their fingerprints, and structural features. The relation chain is split by the
// checker's step extraction and each side prepared as the checker prepares it (macros,
// `normalizeLatex`). Sides with commands the parser cannot evaluate (`\mathcal`, `\to`,
// `\otimes`, `\Spec`, …: most of the Stacks project) are not parsed at all, which keeps the
// analysis fast; results are cached by text. Never throws.
import { derivativeOfUnknown, type Expr, type VarRole } from '../expr.js';
import { type MacroTable, expandMacros, macroTable } from '../macros.js';
import { normalizeLatex } from '../normalize.js';
import { parseSides as parseLatexSides, type ParseContext } from '../parse.js';
import { type Relation, extractSteps } from '../steps.js';
import { canonicalTokens, GREEK_LOWER } from './canonicalLatex.js';
import { type EquationFingerprints, type FingerprintOptions, equationFingerprints, expressionFingerprint } from './fingerprint.js';
import { lexMath, printTokens } from './mathLexer.js';
import { IMAGINARY_UNIT, imaginaryI } from './notation.js';
import { shapeFeatures } from './structural.js';

export interface EquationInfo {
  /** `canonicalFormula` of the equation. */
  canonical: string;
  /** The sides of its first relation chain (one side for a plain expression); empty when any side cannot be parsed. */
  sides: Expr[];
  /** The relations between consecutive sides. */
  relations: Relation[];
  /** Fingerprints of the sides (same indices) and, for an `=` chain, of the difference. */
  fingerprints: EquationFingerprints;
  /** Structural features: token n-grams (n = 1…3) of the canonical text. */
  shape: string[];
}

/** Longest input analysed in full: beyond it only a prefix gives text features. */
const MAX_LENGTH = 20000;
/** Longest side handed to the parser. */
const MAX_SIDE = 1500;
/** Entries per cache generation (two generations per macro table). */
const CACHE_SIZE = 4000;

/** Commands the checker's parser can turn into an evaluable expression; anything else: not parsed. */
const EVALUABLE = new Set([
  ...GREEK_LOWER, 'Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega', 'pi',
  'frac', 'dfrac', 'tfrac', 'sqrt', 'cdot', 'times', 'div', 'left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr',
  'biggl', 'biggr', 'sum', 'prod', 'binom', 'dbinom', 'tbinom', 'mathrm', 'operatorname', 'exp', 'ln', 'log', 'lg',
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'coth', 'sech', 'csch',
  'max', 'min', 'gcd', 'bmod', 'lfloor', 'rfloor', 'lceil', 'rceil', 'vert', 'lvert', 'rvert', 'displaystyle', 'textstyle',
  'limits', 'nolimits', 'quad', 'qquad',
]);
const COMMAND = /\\([A-Za-z]+)/g;
/** Besides evaluable commands, what a relation chain may hold: relations, layout, annotations. */
const CHAIN = new Set([...EVALUABLE, 'le', 'leq', 'ge', 'geq', 'ne', 'neq', 'lt', 'gt', 'approx', 'equiv', 'leqslant', 'geqslant',
  'label', 'tag', 'nonumber', 'notag', 'text', 'textrm', 'mbox', 'hspace', 'quad', 'qquad', 'implies', 'iff', 'Rightarrow',
  'Longrightarrow', 'Leftrightarrow', 'pmod', 'mod', 'ds', 'paren', 'begin', 'end', 'aligned', 'split', 'notag', 'cdotp', 'over', 'choose',
  'overset', 'stackrel', 'sim', 'simeq', 'ldots', 'dots', 'cdots', 'e', 'euler', 'dd', 'map', 'size', 'abs', 'sqbrk']);

/** Every command is one a chain of evaluable sides may hold (a fast test before the step extraction). */
function mayEvaluate(text: string): boolean {
  COMMAND.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = COMMAND.exec(text))) if (!CHAIN.has(m[1])) return false;
  return true;
}

function evaluable(side: string): boolean {
  if (side.length === 0 || side.length > MAX_SIDE) return false;
  COMMAND.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = COMMAND.exec(side))) if (!EVALUABLE.has(m[1])) return false;
  // `\{`, `\|`, `\\`: sets, norms, rows
  return !/\\[{}|\\]|\.\.\./.test(side);
}

interface Chain { texts: string[]; relations: Relation[] }

/** The first relation chain of the formula (the checker's step extraction), or the whole text as one side. */
function firstChain(latex: string): Chain {
  const steps = extractSteps({ text: latex, rows: [{ start: 0, end: latex.length }] });
  if (steps.length === 0) {
    const t = latex.replace(/\\(label|tag\*?)\s*\{[^{}]*\}|\\(nonumber|notag)\b|&|\\\\/g, ' ').replace(/[\s.,;]+$/, '').trim();
    return { texts: [t], relations: [] };
  }
  const texts = [steps[0].lhs.text, steps[0].rhs.text];
  const relations: Relation[] = [steps[0].rel];
  for (let k = 1; k < steps.length; k++) {
    const prev = steps[k - 1].rhs;
    const s = steps[k];
    if (s.lhs.start !== prev.start || s.lhs.end !== prev.end) break;
    texts.push(s.rhs.text);
    relations.push(s.rel);
  }
  return { texts, relations };
}

function substituteImaginary(e: Expr): Expr {
  switch (e.k) {
    case 'num': return e;
    case 'var': return e.name === 'i' ? IMAGINARY_UNIT : e;
    case 'op': return { k: 'op', op: e.op, args: e.args.map(substituteImaginary) };
    case 'D': return { k: 'D', v: e.v, body: substituteImaginary(e.body) };
    default: return { k: e.k, v: e.v, body: substituteImaginary(e.body), lo: substituteImaginary(e.lo), hi: substituteImaginary(e.hi) };
  }
}

/** Parses every side with one context (as the checker does for a step); undefined if any fails. */
function parseSides(texts: string[], table: MacroTable, imaginary: boolean): { sides: Expr[]; roles: ParseContext['roles'] } | undefined {
  const prepared: string[] = [];
  for (const t of texts) {
    const s = expandMacros(t, table);
    if (s === undefined) return undefined;
    const n = normalizeLatex(s);
    if (!evaluable(n)) return undefined;
    prepared.push(n);
  }
  const parsed = parseLatexSides(prepared);
  if (typeof parsed === 'string') return undefined;
  return { sides: imaginary ? parsed.sides.map(substituteImaginary) : parsed.sides, roles: parsed.ctx.roles };
}

// The environments the tokenizer reads as math (embeddings/latexScanner.ts MATH_ENVS), not
// syntax/displayMath.ts DISPLAY_MATH_ENVS: the fingerprints stored in the built index were read with these.
const DISPLAY_OPEN = /^\s*(?:\\begin\{(?:equation|align|gather|multline|eqnarray|displaymath|flalign|alignat|math)\*?\}(?:\{\d+\})?|\\\[|\$\$)/;
const DISPLAY_CLOSE = /(?:\\end\{(?:equation|align|gather|multline|eqnarray|displaymath|flalign|alignat|math)\*?\}|\\\]|\$\$)\s*$/;

/** The body of a display environment (`\begin{align}…\end{align}`, `\[…\]`, `$$…$$`), or the text itself. */
function displayBody(latex: string): string {
  const open = DISPLAY_OPEN.exec(latex);
  if (!open) return latex;
  const rest = latex.slice(open[0].length);
  const close = DISPLAY_CLOSE.exec(rest);
  return close ? rest.slice(0, close.index) : rest;
}

function analyse(latex: string, table: MacroTable): EquationInfo {
  const body = displayBody(latex);
  const text = body.length > MAX_LENGTH ? body.slice(0, MAX_LENGTH) : body;
  const expanded = expandMacros(text, table) ?? text;
  const tokens = canonicalTokens(expanded);
  const canonical = printTokens(tokens);
  const shape = shapeFeatures(tokens.map((t) => t.text));
  const info: EquationInfo = { canonical, sides: [], relations: [], fingerprints: { sides: [] }, shape };
  if (body.length > MAX_LENGTH || !mayEvaluate(expanded)) return info;
  const chain = firstChain(text);
  // `0 \to K \to L`, `x \in U`: relations between objects, not numbers
  if (chain.relations.includes('other')) return info;
  const parsed = parseSides(chain.texts, table, imaginaryI(lexMath(expanded)));
  // `y \frac{dy}{dx}` read with y independent of x: a value, but not the author's (no fingerprint)
  if (!parsed || parsed.sides.some(derivativeOfUnknown)) return info;
  info.sides = parsed.sides;
  info.relations = chain.relations;
  const equation = chain.relations.length > 0 && chain.relations.every((r) => r === '=');
  // the difference only for `=` chains; an inequality or a lone expression has side classes only
  const fingerprint = (sides: Expr[], opts: FingerprintOptions = {}): EquationFingerprints =>
    (equation ? equationFingerprints(sides, opts) : { sides: sides.map((e) => expressionFingerprint(e, opts)) });
  let fp = fingerprint(parsed.sides);
  // sums, factorials and binomials need integers where the parser says a variable is an index
  if (fp.sides.some((f) => !f) && [...parsed.roles.values()].includes('int')) {
    const withRoles = fingerprint(parsed.sides, { roles: parsed.roles });
    if (withRoles.sides.filter((f) => f).length > fp.sides.filter((f) => f).length) fp = withRoles;
  }
  info.fingerprints = fp;
  return info;
}

/** Every relation chain of a display, each side parsed, for confirming an equivalence (equivalence.ts). */
export interface DisplayRelations {
  chains: Array<{ sides: Expr[]; relations: Relation[] }>;
  /** Variables the parser decided are integers (sum indices, factorials). */
  roles: ReadonlyMap<string, VarRole>;
}

const ABSTRACT_OPERATION = /(?<![\^_\\A-Za-z{])\*|\\(?:ast|star)\b/;

/** What may stand between relations besides spacing and punctuation: `\text{and}`, labels, tags. */
const BETWEEN = /\\(?:label|tag\*?)\s*\{[^{}]*\}|\\(?:text|textrm|mbox)\s*\{\s*(?:and|or|,|;)?\s*\}|\\(?:quad|qquad|nonumber|notag|[,;:! ]|displaystyle)|\\\\|[\s&,.;]/g;

/**
 * All relation chains of a display with every side parsed, or undefined when any part of it
 * is not a relation the evaluator understands (then nothing about it can be confirmed).
 */
export function displayRelations(latex: string, macros?: MacroTable): DisplayRelations | undefined {
  try {
    builtins ??= macroTable([]);
    const table = macros ?? builtins;
    const body = displayBody(latex);
    if (body.length > MAX_LENGTH) return undefined;
    const expanded = expandMacros(body, table);
    if (expanded === undefined || !mayEvaluate(expanded)) return undefined;
    // `a * b`, `a \ast b`: an operation of the text's own (a monoid's, a convolution), not a product of numbers
    if (ABSTRACT_OPERATION.test(expanded)) return undefined;
    const steps = extractSteps({ text: body, rows: [{ start: 0, end: body.length }] });
    if (steps.length === 0) return undefined;
    const groups: Array<{ texts: string[]; relations: Relation[] }> = [];
    const covered = new Uint8Array(body.length);
    let prev: (typeof steps)[number] | undefined;
    for (const st of steps) {
      if (st.rel === 'other' || st.rel === 'equiv') return undefined;
      const cont = prev && st.lhs.start === prev.rhs.start && st.lhs.end === prev.rhs.end;
      if (cont) { groups[groups.length - 1].texts.push(st.rhs.text); groups[groups.length - 1].relations.push(st.rel); }
      else groups.push({ texts: [st.lhs.text, st.rhs.text], relations: [st.rel] });
      covered.fill(1, st.lhs.start, st.lhs.end);
      covered.fill(1, st.lhs.end, st.rhs.start); // the relation symbol
      covered.fill(1, st.rhs.start, st.rhs.end);
      prev = st;
    }
    // text outside every relation (a condition, a remark): the display says more than its relations
    let rest = '';
    for (let k = 0; k < body.length; k++) if (!covered[k]) rest += body[k];
    if (rest.replace(BETWEEN, '').length > 0) return undefined;
    const parsed = parseSides(groups.flatMap((g) => g.texts), table, imaginaryI(lexMath(expanded)));
    if (!parsed) return undefined;
    const chains: DisplayRelations['chains'] = [];
    let at = 0;
    for (const g of groups) { chains.push({ sides: parsed.sides.slice(at, at + g.texts.length), relations: g.relations }); at += g.texts.length; }
    return { chains, roles: parsed.roles };
  } catch {
    return undefined;
  }
}

let builtins: MacroTable | undefined;

/** Two generations: a full young map becomes the old one, so recently used texts stay (an LRU, roughly). */
class TextCache {
  private young = new Map<string, EquationInfo>();
  private old = new Map<string, EquationInfo>();

  get(k: string): EquationInfo | undefined {
    const y = this.young.get(k);
    if (y) return y;
    const o = this.old.get(k);
    if (o) this.set(k, o);
    return o;
  }

  set(k: string, v: EquationInfo): void {
    if (this.young.size >= CACHE_SIZE) { this.old = this.young; this.young = new Map(); }
    this.young.set(k, v);
  }
}

const caches = new WeakMap<MacroTable, TextCache>();

/**
 * Analyses one equation (display body or align row). Never throws; cached by text per macro
 * table, so callers must not modify the result.
 */
export function analyseEquation(latex: string, macros?: MacroTable): EquationInfo {
  builtins ??= macroTable([]);
  const table = macros ?? builtins;
  let cache = caches.get(table);
  if (!cache) { cache = new TextCache(); caches.set(table, cache); }
  const hit = cache.get(latex);
  if (hit) return hit;
  let info: EquationInfo;
  try {
    info = analyse(latex, table);
  } catch {
    info = { canonical: latex.replace(/\s+/g, ' ').trim().slice(0, 2000), sides: [], relations: [], fingerprints: { sides: [] }, shape: [] };
  }
  cache.set(latex, info);
  return info;
}
