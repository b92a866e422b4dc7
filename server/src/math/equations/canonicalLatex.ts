// The canonical text of a formula: the only text the formula encoder ever sees (the training
// export and the server both call `canonicalFormula`, then `MathTokenizer.encode`). Macros
// are expanded; labels, tags, alignment, row breaks, spacing, `\left`/`\right` and trailing
// punctuation are dropped; a few spellings are unified (`\dfrac` → `\frac`, `\le` → `\leq`,
// `x^2` → `x^{2}`, redundant braces; operators written several ways: operatorSpellings.ts);
// one equation reads shorter side first; variables (`x_0`, `x_1` each one variable) are renamed
// by order of first appearance, so `(p+q)^2` and `(a+b)^2` read the same. Which letters are constants: see `notation.ts`.
import { type MacroTable, expandMacros, macroTable } from '../macros.js';
import { type MathToken, lexMath, printTokens } from './mathLexer.js';
import { differentials, eulerE, imaginaryI } from './notation.js';
import { unifyOperators } from './operatorSpellings.js';

/** Names given to lower-case variables (Latin and Greek), in order; then x_{1}, x_{2}, … */
export const VARIABLE_NAMES = ['x', 'y', 'z', 'u', 'v', 'w', 'a', 'b', 'c', 'd', 'f', 'g', 'h', 'k', 'm', 'n', 'p', 'q', 'r', 's', 't'];

export const GREEK_LOWER = new Set(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'varepsilon', 'zeta', 'eta', 'theta', 'vartheta', 'iota',
  'kappa', 'varkappa', 'lambda', 'mu', 'nu', 'xi', 'rho', 'varrho', 'sigma', 'varsigma', 'tau', 'upsilon', 'phi', 'varphi', 'chi', 'psi', 'omega', 'ell']);

/** Dropped with no argument: spacing, sizes and styles that do not change the meaning. */
const DROP = new Set(['\\,', '\\;', '\\:', '\\!', '\\ ', '\\>', '\\quad', '\\qquad', '\\left', '\\right', '\\middle', '\\nonumber', '\\notag',
  '\\displaystyle', '\\textstyle', '\\scriptstyle', '\\scriptscriptstyle', '\\limits', '\\nolimits', '\\allowbreak', '\\nobreak',
  '\\mathstrut', '\\strut', '\\relax', '\\big', '\\Big', '\\bigg', '\\Bigg', '\\bigl', '\\bigr', '\\Bigl', '\\Bigr', '\\biggl', '\\biggr',
  '\\Biggl', '\\Biggr', '\\bigm', '\\Bigm', '\\ds', '\\\\', '\\newline', '\\hfill', '\\cr', '\\[', '\\]', '\\(', '\\)']);
/** Dropped with their (raw) argument. */
const DROP_WITH_ARG = new Set(['\\label', '\\tag', '\\tag*', '\\hspace', '\\hspace*', '\\vspace', '\\vspace*', '\\phantom', '\\hphantom', '\\vphantom', '\\eqref', '\\ref', '\\cite']);
/**
 * Environments that only lay rows out, inner (`aligned`) and outer (`align`): not
 * syntax/displayMath.ts, as the canonical forms and fingerprints of the built index were computed with this list.
 */
const LAYOUT_ENVS = /^\{(aligned|split|gathered|multlined|alignedat|eqnarray\*?|align\*?|equation\*?|gather\*?|multline\*?|flalign\*?)\}$/;

const SPELLING: Record<string, string> = {
  '\\dfrac': '\\frac', '\\tfrac': '\\frac', '\\cfrac': '\\frac', '\\le': '\\leq', '\\ge': '\\geq', '\\ne': '\\neq', '\\leqslant': '\\leq',
  '\\geqslant': '\\geq', '\\lbrace': '\\{', '\\rbrace': '\\}', '\\vert': '|', '\\lvert': '|', '\\rvert': '|', '\\Vert': '\\|',
  '\\lVert': '\\|', '\\rVert': '\\|', '\\cdotp': '\\cdot', '\\dbinom': '\\binom', '\\tbinom': '\\binom', '\\gets': '\\leftarrow',
  '\\rightarrow': '\\to', '\\land': '\\wedge', '\\lor': '\\vee', '\\lnot': '\\neg',
};

let builtins: MacroTable | undefined;

/** Drops layout, unifies spellings and puts every script argument in braces. */
function clean(tokens: MathToken[]): MathToken[] {
  const out: MathToken[] = [];
  for (let k = 0; k < tokens.length; k++) {
    let t = tokens[k];
    if (t.type === 'sym' && (t.text === '&' || t.text === '~' || t.text === '$')) continue;
    if (t.type === 'cmd') {
      if (DROP.has(t.text)) {
        // `\left.`, `\right.`: the dot is no delimiter; `\\[2pt]`: the spacing argument
        if ((t.text === '\\left' || t.text === '\\right') && tokens[k + 1]?.text === '.') k++;
        if (t.text === '\\\\' && tokens[k + 1]?.text === '[') { const c = tokens.findIndex((x, j) => j > k && x.text === ']'); if (c > 0 && c - k < 8) k = c; }
        continue;
      }
      if (DROP_WITH_ARG.has(t.text)) { if (tokens[k + 1]?.type === 'raw') k++; continue; }
      if ((t.text === '\\begin' || t.text === '\\end') && tokens[k + 1]?.type === 'raw' && LAYOUT_ENVS.test(tokens[k + 1].text)) {
        k++;
        // `\begin{aligned}[t]`, `\begin{alignedat}{2}`
        if (t.text === '\\begin' && tokens[k + 1]?.text === '[' && tokens[k + 3]?.text === ']') k += 3;
        if (t.text === '\\begin' && tokens[k + 1]?.type === 'open' && tokens[k + 2]?.type === 'number' && tokens[k + 3]?.type === 'close') k += 3;
        continue;
      }
      const s = SPELLING[t.text];
      if (s) t = { type: s.startsWith('\\') ? 'cmd' : 'sym', text: s };
    }
    out.push(t);
    if ((t.text === '^' || t.text === '_') && t.type === 'sym') {
      const a = tokens[k + 1];
      const b = tokens[k + 2];
      if (a && a.type === 'cmd' && b?.type === 'raw') { // `^\mathrm{T}`
        out.push({ type: 'open', text: '{' }, a, b, { type: 'close', text: '}' });
        k += 2;
      } else if (a && a.type !== 'open' && a.text !== '^' && a.text !== '_' && !(a.type === 'cmd' && b?.type === 'open') && !DROP.has(a.text)) {
        out.push({ type: 'open', text: '{' }, a, { type: 'close', text: '}' });
        k++;
      }
    }
  }
  // trailing punctuation
  while (out.length && out[out.length - 1].type === 'sym' && /^[.,;]$/.test(out[out.length - 1].text)) out.pop();
  return out;
}

function variableName(kind: 'lower' | 'upper', n: number): MathToken[] {
  const names = kind === 'lower' ? VARIABLE_NAMES : VARIABLE_NAMES.map((x) => x.toUpperCase());
  if (n < names.length) return [{ type: 'letter', text: names[n] }];
  const base = kind === 'lower' ? 'x' : 'X';
  // braced so that a following script cannot double up (`{x_{3}}_{i}`)
  return [{ type: 'open', text: '{' }, { type: 'letter', text: base }, { type: 'sym', text: '_' }, { type: 'open', text: '{' },
    { type: 'number', text: String(n - names.length + 1) }, { type: 'close', text: '}' }, { type: 'close', text: '}' }];
}

/** Renames variables by order of first appearance (lower and upper case counted apart). */
function rename(tokens: MathToken[]): MathToken[] {
  const imag = imaginaryI(tokens);
  const euler = eulerE(tokens);
  const diffs = differentials(tokens);
  const names = new Map<string, MathToken[]>();
  let lower = 0;
  let upper = 0;
  const out: MathToken[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    let kind: 'lower' | 'upper' | undefined;
    if (t.type === 'letter') {
      if ((t.text === 'i' && imag) || (t.text === 'e' && euler) || diffs.has(k)) { out.push(t); continue; }
      kind = t.text >= 'a' && t.text <= 'z' ? 'lower' : 'upper';
    } else if (t.type === 'cmd' && GREEK_LOWER.has(t.text.slice(1))) kind = 'lower';
    if (!kind) { out.push(t); continue; }
    // `x_{0}`, `x_{1}`: a variable of its own, like `a` and `b` (bounds written either way read alike)
    let name = t.text;
    if (tokens[k + 1]?.text === '_' && tokens[k + 2]?.type === 'open' && tokens[k + 3]?.type === 'number' && tokens[k + 4]?.type === 'close') {
      name = `${t.text}_${tokens[k + 3].text}`;
      k += 4;
    }
    let r = names.get(name);
    if (!r) { r = variableName(kind, kind === 'lower' ? lower++ : upper++); names.set(name, r); }
    out.push(...r);
  }
  return out;
}

/** Commands that take no argument: a group after them is not theirs. */
const NO_ARG = new Set(['\\leq', '\\geq', '\\neq', '\\lt', '\\gt', '\\to', '\\in', '\\notin', '\\ni', '\\subset', '\\subseteq', '\\supset', '\\supseteq',
  '\\cdot', '\\times', '\\pm', '\\mp', '\\div', '\\circ', '\\ast', '\\star', '\\otimes', '\\oplus', '\\cup', '\\cap', '\\wedge', '\\vee',
  '\\neg', '\\equiv', '\\approx', '\\sim', '\\simeq', '\\cong', '\\mapsto', '\\implies', '\\iff', '\\Rightarrow', '\\Leftarrow',
  '\\Leftrightarrow', '\\leftarrow', '\\mid', '\\setminus', '\\ll', '\\gg', '\\infty', '\\pi', '\\partial', '\\nabla', '\\ldots',
  '\\cdots', '\\dots', '\\forall', '\\exists', '\\propto', '\\perp', '\\parallel', '\\{', '\\}', '\\|']);

const INFIX = new Set(['\\over', '\\choose', '\\atop', '\\brace', '\\brack', '\\rm', '\\bf', '\\it', '\\cal', '\\sf', '\\tt']);

/**
 * Drops braces that group nothing (`{\frac{a}{b}}` left by macro expansion, `{{x}}`): a group
 * after an operator, relation, bracket or at the start, not followed by a script.
 */
function dropRedundantBraces(tokens: MathToken[]): MathToken[] {
  const match = new Array<number>(tokens.length).fill(-1);
  const stack: number[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k].type === 'open') stack.push(k);
    else if (tokens[k].type === 'close' && stack.length) { const o = stack.pop()!; match[o] = k; match[k] = o; }
  }
  const drop = new Uint8Array(tokens.length);
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k].type !== 'open' || match[k] < 0) continue;
    const c = match[k];
    if (c === k + 1) continue; // `{}` holds a place (`{}^{2}`)
    const p = tokens[k - 1];
    const pp = tokens[k - 2];
    const next = tokens[c + 1];
    const single = c === k + 2;
    const freeBefore = !p || p.type === 'open' || (p.type === 'sym' && p.text !== '^' && p.text !== '_' && p.text !== ']') || (p.type === 'cmd' && NO_ARG.has(p.text))
      || ((p.type === 'letter' || p.type === 'number') && (!pp || (pp.type !== 'cmd' && pp.text !== '^' && pp.text !== '_')));
    if (!freeBefore) continue;
    if (!single && next && (next.text === '^' || next.text === '_' || next.text === "'" || next.text === '!')) continue;
    const first = tokens[k + 1];
    if (first.text === '^' || first.text === '_') continue;
    let depth = 0;
    let infix = false;
    for (let j = k + 1; j < c && !infix; j++) {
      if (tokens[j].type === 'open') depth++;
      else if (tokens[j].type === 'close') depth--;
      else if (depth === 0 && INFIX.has(tokens[j].text)) infix = true;
    }
    if (infix) continue;
    drop[k] = 1;
    drop[c] = 1;
  }
  return tokens.filter((_t, k) => !drop[k]);
}

/** The canonical text of a formula (see the module comment). Never throws. */
export function canonicalFormula(latex: string, macros?: MacroTable): string {
  builtins ??= macroTable([]);
  let expanded: string | undefined;
  try { expanded = expandMacros(latex, macros ?? builtins); } catch { expanded = undefined; }
  return printTokens(canonicalTokens(expanded ?? latex));
}

/** Relations besides `=`: a formula with one of them at the top level is not turned around. */
const OTHER_RELATIONS = new Set(['<', '>', '\\leq', '\\geq', '\\neq', '\\approx', '\\equiv', '\\sim', '\\simeq', '\\cong', '\\to', '\\in',
  '\\subset', '\\subseteq', '\\supset', '\\supseteq', '\\coloneqq', '\\mapsto', '\\implies', '\\iff', '\\Rightarrow', '\\Leftrightarrow', ':', ',', ';', '\\mid']);

/**
 * One equation `A = B` reads shorter side first (on equal lengths, the side first in token order
 * with variables masked), so `F(x) = g(f(x))` and `g(f(x)) = F(x)` have one canonical text;
 * chains, other relations and several formulas keep the order written.
 */
function orientSides(t: MathToken[]): MathToken[] {
  let depth = 0;
  let eq = -1;
  for (let k = 0; k < t.length; k++) {
    const x = t[k];
    if (x.type === 'open' || x.text === '(' || x.text === '[' || x.text === '\\{') depth++;
    else if (x.type === 'close' || x.text === ')' || x.text === ']' || x.text === '\\}') depth--;
    else if (depth === 0 && x.text === '=') { if (eq >= 0) return t; eq = k; }
    else if (depth === 0 && OTHER_RELATIONS.has(x.text)) return t;
  }
  if (eq <= 0 || eq >= t.length - 1) return t;
  const l = t.slice(0, eq), r = t.slice(eq + 1);
  if (r.length !== l.length) return r.length < l.length ? [...r, t[eq], ...l] : t;
  // equal lengths: the sides compared with every variable masked (renaming cannot change the order)
  const mask = (x: MathToken) => (x.type === 'letter' || (x.type === 'cmd' && GREEK_LOWER.has(x.text.slice(1))) ? 'v' : x.text);
  for (let k = 0; k < l.length; k++) {
    const a = mask(l[k]), b = mask(r[k]);
    if (a !== b) return b < a ? [...r, t[eq], ...l] : t;
  }
  return t;
}

/** The tokens of the canonical text of an already macro-expanded formula. */
export function canonicalTokens(expanded: string): MathToken[] {
  return dropRedundantBraces(rename(orientSides(unifyOperators(clean(lexMath(expanded))))));
}
