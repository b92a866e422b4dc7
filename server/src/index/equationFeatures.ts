// What the related-equations search keeps of an analysed equation (math/equations#analyseEquation):
// the canonical text (the formula encoder's input), the fingerprint keys worth matching, and
// the canonical tokens (the structural features are their n-grams, made when scored). Plain
// data, so it crosses a worker boundary and is stored in the bundled index. Never throws.
import { analyseEquation } from '../math/equations/equation.js';
import { constantValues, expressionFingerprint, type Fingerprint } from '../math/equations/fingerprint.js';
import { shapeFeatures } from '../math/equations/structural.js';
import { freeVars, type Expr } from '../math/expr.js';
import type { MacroTable } from '../math/macros.js';

export interface SideKey {
  key: string;
  /** How much a match on this side says: 0.4 for constants, 0.6 … 0.75 by size for expressions in variables. */
  weight: number;
}

export interface EquationFeatures {
  canonical: string;
  /** Fingerprints of the sides worth matching (not a lone letter or number), distinct keys. */
  sides: SideKey[];
  /**
   * Fingerprint of the `=` equation up to a nonzero scale (LHS − RHS); for an identity in
   * elementary functions its class with the functions perturbed (key `I…`); absent for other
   * identities, inequalities, expressions.
   */
  difference?: string;
  /** An identity: several sides, one class (`(a+b)^2 = a^2+2ab+b^2`, `\cosh^2 u - \sinh^2 u = 1`). */
  identity: boolean;
  /** Tokens of the canonical text (structural features: `shapeOf`). */
  tokens: string[];
}

/** The formula encoder's input text (defined with the encoder, re-exported for the search). */
export { formulaEncoderInput } from '../embeddings/formulaInput.js';

/** Changes whenever the features of the same text may change (stored in the index header). */
export const FEATURES_VERSION = 5;

/** The structural features (token n-grams) of analysed features. */
export function shapeOf(f: Pick<EquationFeatures, 'tokens'>): string[] {
  return shapeFeatures(f.tokens);
}

/** The unigrams at the head of `shapeFeatures(tokens)` are the tokens: n = 1 comes first. */
function tokensOfShape(shape: readonly string[]): string[] {
  const n = shape.length <= 1 ? shape.length : (shape.length + 3) / 3;
  return Number.isInteger(n) ? shape.slice(0, n) : [...shape];
}

function size(e: Expr): number {
  switch (e.k) {
    case 'num': case 'var': return 1;
    case 'op': return 1 + e.args.reduce((n, a) => n + size(a), 0);
    case 'D': return 1 + size(e.body);
    default: return 1 + size(e.body) + size(e.lo) + size(e.hi);
  }
}

const isTrivial = (e: Expr) => e.k === 'num' || e.k === 'var' || (e.k === 'op' && e.op === 'neg' && e.args.length === 1 && (e.args[0].k === 'num' || e.args[0].k === 'var'));

function sideWeight(e: Expr): number {
  if (isTrivial(e)) return 0;
  if (freeVars(e).size === 0) return 0.4;
  return 0.6 + 0.15 * Math.min(1, (size(e) - 2) / 8);
}

/** Formulas whose features pin down the analyser's behaviour (fingerprints, identities, roles, canonical text). */
const PROBES = [
  '(a+b)^2 = a^2 + 2ab + b^2', 'x^2 - 5x + 6 = 0', 'e^{i\\theta} = \\cos\\theta + i\\sin\\theta', '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
  '\\frac{d}{dx} \\sin x = \\cos x', '\\log_b x = \\frac{\\ln x}{\\ln b}', 'a \\leq \\sqrt{a^2 + b^2}', '\\binom{n}{k} = \\frac{n!}{k!(n-k)!}',
  '\\Hom_R(M, N) \\otimes_R P', 'f(x) = 0', '2 \\cdot 3 = 6', '\\sin^2 x + \\cos^2 x = 1', 'x = y', '\\cosh^2 u - \\sinh^2 u = 1',
];
let signature: string | undefined;

/**
 * A short hash of the features of fixed probe formulas: it changes when the analysis changes
 * (fingerprint points, canonical text, weights), so cached features of an older analyser are not reused.
 */
export function analyserSignature(): string {
  if (!signature) {
    const text = JSON.stringify([FEATURES_VERSION, PROBES.map((p) => equationFeatures(p))]);
    let h = 0x811c9dc5, g = 0x01000193;
    for (let i = 0; i < text.length; i++) { h = Math.imul(h ^ text.charCodeAt(i), 0x01000193); g = Math.imul(g ^ text.charCodeAt(i), 0x811c9dc5); }
    signature = (h >>> 0).toString(36) + (g >>> 0).toString(36);
  }
  return signature;
}

let analysed = 0;

/** How many equations were analysed in this thread (tests check that edits re-analyse little). */
export function analysisCount(): number { return analysed; }

export function equationFeatures(latex: string, macros?: MacroTable): EquationFeatures {
  analysed++;
  try {
    const info = analyseEquation(latex, macros);
    const fps = info.fingerprints.sides;
    // a lone letter or number on a side matches everything: its keys are left out
    const trivial = new Set<string>();
    for (const s of info.sides) {
      if (!isTrivial(s)) continue;
      for (const f of [expressionFingerprint(s), expressionFingerprint(s, { roles: new Map([...freeVars(s)].map((v) => [v, 'int' as const])) })]) if (f) trivial.add(f.key);
    }
    const aligned = fps.length === info.sides.length;
    const maxWeight = Math.max(0, ...info.sides.map(sideWeight));
    const sides: SideKey[] = [];
    fps.forEach((f, i) => {
      if (!f || trivial.has(f.key)) return;
      let w = aligned ? sideWeight(info.sides[i]) : maxWeight;
      if (w > 0 && constantValues(f.values)) w = Math.min(w, 0.4);
      if (w <= 0) return;
      const have = sides.find((s) => s.key === f.key);
      if (have) have.weight = Math.max(have.weight, w); else sides.push({ key: f.key, weight: Math.round(w * 1000) / 1000 });
    });
    const keys = fps.filter((f): f is Fingerprint => !!f).map((f) => f.key);
    const cls = info.fingerprints.identityClass;
    const diff = info.fingerprints.difference ?? cls;
    // an identity is matched by its class: one that is a lone number or letter (`2 \cdot 3 = 6`) says nothing
    const identity = !!cls || (!diff && info.relations.length > 0 && info.relations.every((r) => r === '=') && keys.length >= 1 && keys.every((k) => k === keys[0]) && sides.length > 0);
    return { canonical: info.canonical, sides, ...(diff ? { difference: diff.key } : {}), identity, tokens: tokensOfShape(info.shape) };
  } catch {
    return { canonical: latex.replace(/\s+/g, ' ').trim().slice(0, 2000), sides: [], identity: false, tokens: [] };
  }
}
