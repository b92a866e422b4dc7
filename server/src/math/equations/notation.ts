// Which letters of a formula are constants rather than variables. One set of rules for the
// canonical text (the encoder's input) and for the expression trees (the fingerprints):
// * `i` is the imaginary unit unless the formula uses it as an index: in a subscript
//   (`x_i`, `a_{ij}`, `\sum_{i=1}^n`), or next to a `j` (`\frac{i}{x^n} + \frac{j}{y^n}`,
//   quaternions). So `e^{i\theta}`, `a + bi` and `\cos\theta + i\sin\theta` are complex, and
//   `x_i = i^2` is about an index.
// * `e` is Euler's number when some power in the formula has base `e` (as the derivation
//   checker's parser decides), otherwise a variable (an identity element, an edge, …).
// * `d` is the differential (kept) when the formula has an integral or a `\frac{d…}{d…}`
//   derivative and the `d` precedes a variable or stands alone in a group.
// * `\pi` is always the constant.
import type { Expr } from '../expr.js';
import type { MathToken } from './mathLexer.js';

/** The imaginary unit in an Expr: a constant, so `freeVars` does not count it. */
export const IMAGINARY_UNIT: Expr = { k: 'op', op: 'i', args: [] };

export function isImaginaryUnit(e: Expr): boolean {
  return e.k === 'op' && e.op === 'i' && e.args.length === 0;
}

/** Index of the token after the script argument starting at `k` (a group or one token). */
export function scriptArgEnd(tokens: readonly MathToken[], k: number): number {
  if (k >= tokens.length) return k;
  if (tokens[k].type !== 'open') return k + 1;
  let depth = 0;
  for (let j = k; j < tokens.length; j++) {
    if (tokens[j].type === 'open') depth++;
    else if (tokens[j].type === 'close' && --depth === 0) return j + 1;
  }
  return tokens.length;
}

/** `i` is the imaginary unit: it occurs, never inside a subscript, and `j` does not. */
export function imaginaryI(tokens: readonly MathToken[]): boolean {
  let seen = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type === 'letter' && t.text === 'i') seen = true;
    if (t.type === 'letter' && t.text === 'j') return false;
    if (t.text === '_' && t.type === 'sym') {
      const end = scriptArgEnd(tokens, k + 1);
      for (let j = k + 1; j < end; j++) if (tokens[j].type === 'letter' && tokens[j].text === 'i') return false;
    }
  }
  return seen;
}

/** `e` is Euler's number: some power has base `e`. */
export function eulerE(tokens: readonly MathToken[]): boolean {
  for (let k = 0; k + 1 < tokens.length; k++) {
    if (tokens[k].type === 'letter' && tokens[k].text === 'e' && tokens[k + 1].text === '^') return true;
  }
  return false;
}

const INTEGRALS = new Set(['\\int', '\\iint', '\\iiint', '\\oint', '\\intop']);

/** Positions of `d` tokens that are differentials (`dx`, `\frac{d}{dx}`, `d^2`). */
export function differentials(tokens: readonly MathToken[]): Set<number> {
  const out = new Set<number>();
  let context = false;
  for (let k = 0; k < tokens.length && !context; k++) {
    if (INTEGRALS.has(tokens[k].text)) context = true;
    if (tokens[k].text === '\\frac' && tokens[k + 1]?.type === 'open' && tokens[k + 2]?.text === 'd') context = true;
  }
  if (!context) return out;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type !== 'letter' || t.text !== 'd') continue;
    const next = tokens[k + 1];
    if (!next || next.type === 'letter' || next.type === 'close' || next.text === '^' || (next.type === 'cmd' && /^\\[a-z]+$/i.test(next.text))) out.add(k);
  }
  return out;
}
