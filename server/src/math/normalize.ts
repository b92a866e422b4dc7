// LaTeX rewrites applied after macro expansion and before parsing, where the parser's reading
// differs from the usual mathematical one:
// * `\frac{d}{dx}\left(f\right) + g` — the parser applies d/dx to the whole rest of the
//   expression; mathematicians mean the parenthesised operand (or the next term) only.
import { groupEnd, skipSpaces } from './latexText.js';

const DERIV = /\\frac\s*\{\s*(?:d|\\mathrm\{d\}|\\partial|\\operatorname\{d\})\s*\}\s*\{\s*(?:d|\\mathrm\{d\}|\\partial|\\operatorname\{d\})\s*[A-Za-z]\s*\}/g;

/** End of the operand after a derivative operator: a parenthesised group, else the next term. */
function operandEnd(s: string, i: number): number {
  const j = skipSpaces(s, i);
  if (s.startsWith('\\left', j)) {
    let depth = 0;
    for (let k = j; k < s.length; k++) {
      if (s.startsWith('\\left', k)) { depth++; k += 4; continue; }
      if (s.startsWith('\\right', k)) {
        depth--; k += 6;
        if (depth === 0) { if (s[k] === '\\') { k++; while (/[A-Za-z]/.test(s[k] ?? '')) k++; return k; } return k + 1; }
        k--;
      }
    }
    return -1;
  }
  if (s[j] === '(' || s[j] === '[') {
    let depth = 0;
    for (let k = j; k < s.length; k++) {
      if (s[k] === '(' || s[k] === '[') depth++;
      else if ((s[k] === ')' || s[k] === ']') && --depth === 0) return k + 1;
    }
    return -1;
  }
  // the next term: up to a top-level + or - (or a relation, or the end)
  let depth = 0;
  for (let k = j; k < s.length; k++) {
    const c = s[k];
    if (c === '{') { const g = groupEnd(s, k); if (g < 0) return -1; k = g - 1; continue; }
    if (c === '\\') { k++; while (/[A-Za-z]/.test(s[k + 1] ?? '')) k++; continue; }
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && k > j && (c === '+' || c === '-')) return k;
  }
  return s.length;
}

export function groupDerivatives(s: string): string {
  let out = '';
  let last = 0;
  DERIV.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DERIV.exec(s))) {
    const end = operandEnd(s, m.index + m[0].length);
    if (end < 0) continue;
    const head = m.index + m[0].length;
    out += s.slice(last, m.index) + '{' + m[0] + groupDerivatives(s.slice(head, end)) + '}';
    last = end;
    DERIV.lastIndex = end;
  }
  return out + s.slice(last);
}

/** `{a \\choose b}` → `\\binom{a}{b}`, `{a \\over b}` → `\\frac{a}{b}`: the parser binds them too tightly. */
export function infixFractions(s: string): string {
  for (let guard = 0; guard < 20; guard++) {
    const m = /\\(choose|over|atop)(?![A-Za-z])/.exec(s);
    if (!m) return s;
    // the innermost brace group around the command
    let depth = 0;
    let open = -1;
    for (let k = m.index - 1; k >= 0; k--) {
      if (s[k] === '}') depth++;
      else if (s[k] === '{' && s[k - 1] !== '\\') { if (depth === 0) { open = k; break; } depth--; }
    }
    const close = open >= 0 ? groupEnd(s, open) : -1;
    if (close < 0) return s.slice(0, m.index) + (m[1] === 'over' ? '/' : ',') + s.slice(m.index + m[0].length);
    const a = s.slice(open + 1, m.index);
    const b = s.slice(m.index + m[0].length, close - 1);
    const cmd = m[1] === 'over' ? '\\frac' : m[1] === 'choose' ? '\\binom' : '\\binom';
    s = s.slice(0, open) + `{${cmd}{${a}}{${b}}}` + s.slice(close);
  }
  return s;
}

const FN_ARG = /\\(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|sech|csch|arcsin|arccos|arctan|ln|log|lg|exp)(?![A-Za-z])(\s*\^\s*(\{[^{}]*\}|[0-9A-Za-z]))?\s*((?:\d+(?:\.\d+)?\s*)?(?:(?:[A-Za-z]|\\(?:alpha|beta|gamma|delta|theta|phi|psi|omega|pi|tau|mu|lambda|sigma|varphi|xi|eta|zeta|rho|chi|epsilon|kappa|nu))(?:_(?:\{[^{}]*\}|[A-Za-z0-9]))?\s*){1,2}|\\frac\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)\s*)(?=\{|\\left\s*\(|\(|\\cdot|\\times|\/|\\(?:sinh|cosh|tanh|coth|sech|csch|sin|cos|tan|cot|sec|csc|ln|log|exp|sqrt|frac|map)\b)/g;

/**
 * `\\cos c \\left(…\\right)` means (cos c)(…), but the parser reads cos(c(…)): group a
 * function with its unparenthesised argument when a parenthesis follows; likewise before a
 * slash (`\\ln 2 / 16` is (ln 2)/16, not ln(2/16)).
 */
export function groupFunctionArgs(s: string): string {
  return s.replace(FN_ARG, (m) => `{${m.trimEnd()}} `).replace(FN_NUMBER_SLASH, (m) => `{${m.trimEnd()}} `);
}

/** `\\ln 2 / 16`: a function of a number before a slash. */
const FN_NUMBER_SLASH = /\\(?:sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|ln|log|lg|exp)(?![A-Za-z])\s*\d+(?:\.\d+)?\s*(?=\/)/g;

/**
 * Digit groups separated by a thin space (`46 \\, 080`, `46{,}080`, `46\\ 080`) and decimal
 * `0 \\cdotp 5` become plain numbers. Groups separated by plain spaces stay apart: `561 560`
 * is two numbers (a juxtaposition the checker does not read), not 561560.
 */
export function plainNumbers(s: string): string {
  let t = s.replace(/(\d)\s*\\cdotp\s*(\d)/g, '$1.$2');
  for (let k = 0; k < 8; k++) {
    const u = t.replace(/(^|[^\d.^_{])(\d{1,3}) *(?:\\[,; ]|\{,\}) *(\d{3})(?![\d.])/g, '$1$2$3').replace(/(\d{3}) *(?:\\[,; ]|\{,\}) *(\d{3})(?![\d.])/g, '$1$2');
    if (u === t) break;
    t = u;
  }
  return t;
}

const FN_NAMES = 'sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|sech|csch|arcsin|arccos|arctan|ln|log|lg|exp';
const GREEK_ARG = /^\\(alpha|beta|gamma|delta|theta|phi|psi|omega|pi|tau|mu|lambda|sigma|varphi|xi|eta|zeta|rho|chi|epsilon|kappa|nu)(?![A-Za-z])/;
const FN_HEAD = new RegExp(`\\\\(?:${FN_NAMES})(?![A-Za-z])`, 'g');

/** End of a sub/superscript argument at `i` (`^2`, `^{…}`, `_\\alpha`), or `i` when there is none. */
function scriptEnd(s: string, i: number): number {
  let j = skipSpaces(s, i);
  while (s[j] === '^' || s[j] === '_') {
    const a = skipSpaces(s, j + 1);
    if (s[a] === '{') { const g = groupEnd(s, a); if (g < 0) return i; j = g; } else if (s[a] === '\\') { j = a + 1; while (/[A-Za-z]/.test(s[j] ?? '')) j++; } else if (a < s.length) j = a + 1; else return i;
    i = j;
    j = skipSpaces(s, j);
  }
  return i;
}

/** End of one TeX argument token or group at `i` (after spaces), or -1. */
function tokenEnd(s: string, i: number): number {
  const a = skipSpaces(s, i);
  if (a >= s.length) return -1;
  if (s[a] === '{') return groupEnd(s, a);
  if (s[a] === '\\') { let j = a + 1; while (/[A-Za-z]/.test(s[j] ?? '')) j++; return j === a + 1 ? a + 2 : j; }
  return a + 1;
}

/** End of the parenthesised group at `i` (`(…)`, `\\left(…\\right)`), or -1. */
function parenEnd(s: string, i: number): number {
  if (s.startsWith('\\left', i)) {
    let depth = 0;
    for (let k = i; k < s.length; k++) {
      if (s.startsWith('\\left', k) && !/[A-Za-z]/.test(s[k + 5] ?? '')) { depth++; k += 5; continue; }
      if (s.startsWith('\\right', k) && !/[A-Za-z]/.test(s[k + 6] ?? '')) {
        k += 6;
        if (--depth === 0) { if (s[k] === '\\') { k++; while (/[A-Za-z]/.test(s[k] ?? '')) k++; return k; } return k + 1; }
        k--;
      }
    }
    return -1;
  }
  let depth = 0;
  for (let k = i; k < s.length; k++) {
    if (s[k] === '(') depth++;
    else if (s[k] === ')' && --depth === 0) return k + 1;
  }
  return -1;
}

/**
 * The other reading of an unbracketed function argument: the function takes one atom only
 * (`\\ln a e^{x}` is (ln a)·e^x, `\\cos θ_1 r_2` is (cos θ_1)·r_2, `\\sin(a)(b)` is sin(a)·(b)).
 * A step is refuted only when this reading fails too.
 */
export function shortFunctionArgs(s: string, atoms: 1 | 2 = 1): string {
  let out = '';
  let last = 0;
  FN_HEAD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = FN_HEAD.exec(s))) {
    const head = m.index;
    let j = scriptEnd(s, head + m[0].length);
    const a = skipSpaces(s, j);
    let end = -1;
    if (s[a] === '(' || s.startsWith('\\left', a)) end = parenEnd(s, a);
    else if (s[a] === '{') end = groupEnd(s, a);
    else if (s.startsWith('\\frac', a)) { const t1 = tokenEnd(s, a + 5); end = t1 < 0 ? -1 : tokenEnd(s, t1); }
    else if (/[0-9.]/.test(s[a] ?? '')) { end = a; while (/[0-9.]/.test(s[end] ?? '')) end++; }
    else if (/[A-Za-z\\]/.test(s[a] ?? '')) { const t = tokenEnd(s, a); end = t < 0 ? -1 : scriptEnd(s, t); }
    if (end < 0 || end <= a) continue;
    // `pair`: a second letter belongs to the argument too (`\\cos^{n - 1} b x a \\sin b x`)
    if (atoms === 2 && !/^[({\\]/.test(s[a]) ) {
      const b = skipSpaces(s, end);
      if (/[A-Za-z]/.test(s[b] ?? '') || (s[b] === '\\' && GREEK_ARG.test(s.slice(b)))) { const t = tokenEnd(s, b); if (t > 0) end = scriptEnd(s, t); }
    }
    out += s.slice(last, head) + '{' + s.slice(head, a) + shortFunctionArgs(s.slice(a, end), atoms) + '}';
    last = end;
    FN_HEAD.lastIndex = end;
    j = end;
  }
  return out + s.slice(last);
}

/**
 * LaTeX ready for the parser. `reach` of an unbracketed function argument: `default`
 * (`groupFunctionArgs`, then the parser's), `short` (one atom), `pair` (up to two: `\\sin b x`
 * = sin(bx), then `a`), `long` (the parser's alone:
 * up to the next + or −, `\\cos n (-\\pi)` = cos(−nπ)).
 */
export type Reach = 'default' | 'short' | 'pair' | 'long';

/**
 * Quantities written as one symbol, the way a mathematician reads them: `D_n` (a term named D,
 * not the derivative operator the parser takes a subscripted D for), `\\Delta x`, `\\delta y`
 * (one increment: `\\Delta x^2` is (Δx)²), read alike however it is spelled.
 */
export function quantities(s: string): string {
  return s
    .replace(/(?<![A-Za-z\\])D(?=\s*_)/g, '{D}')
    .replace(INCREMENT, (_m, g: string, braced: string | undefined, bare: string | undefined, sub: string | undefined) => `{${increment(g, braced ?? bare ?? '', sub)}}`);
}

const GREEK_LETTER = 'alpha|beta|gamma|theta|lambda|mu|nu|xi|rho|sigma|tau|phi|varphi|psi|omega|chi|eta|zeta|epsilon|varepsilon|kappa';
/** `\Delta x`, `\delta N`, `\Delta{E}`, `\Delta \theta`, `\delta N_1`: an increment and its letter. */
const INCREMENT = new RegExp(String.raw`\\(Delta|delta)(?![A-Za-z])\s*(?:\{\s*([A-Za-z]|\\(?:${GREEK_LETTER}))\s*\}|([A-Za-z]|\\(?:${GREEK_LETTER}))(?![A-Za-z]))(?:\s*_\s*(\{[A-Za-z0-9]+\}|[A-Za-z0-9]))?`, 'g');

/**
 * One symbol for an increment, whatever the spelling (`\Delta x`, `\Delta{x}`, `\Delta x_1`), so
 * that both sides of a step read it alike: a subscripted name the parser keeps whole (`\delta`
 * with a subscript would be Kronecker's delta to it).
 */
function increment(kind: string, letter: string, sub: string | undefined): string {
  const name = `${kind === 'delta' ? 'delta' : ''}${letter.replace(/^\\/, '')}${sub ? sub.replace(/[{}]/g, '') : ''}`;
  return `\\Delta_{${name}}`;
}

/**
 * `dx`, `\\mathrm{d}t` as one symbol each, a differential: `5 dx^2` is 5 (dx)², `(dt)^2` = `dt^2`.
 * Another reading (verdict.ts), never the only one: `d` is also a letter in its own right.
 */
export function differentials(s: string): string {
  return s.replace(/(?<![A-Za-z\\])(?:\\mathrm\s*\{\s*d\s*\}|d)\s*([A-Za-z])(?![A-Za-z])/g, (_m, v: string) => `{d_{${v}}}`);
}

/** `41.5\\%` read as the number of percent, 41.5: how `0.415 \\times 100 = 41.5\\%` is meant. */
export function percentCounts(s: string): string {
  return s.replace(/\\%/g, ' ');
}

export function normalizeLatex(s: string, reach: Reach = 'default'): string {
  const t = plainNumbers(quantities(s)).replace(/\\cdotp/g, '\\cdot').replace(/\\(dfrac|tfrac)/g, '\\frac')
    // \\lg is log base 2 (ProofWiki, CS) or base 10 (ISO): an unspecified base, tried both ways
    .replace(/\\lg(?![A-Za-z])/g, '\\log')
    .replace(/\\(frac|binom)\s*(\d)\s*(\d)/g, '\\$1{$2}{$3}').replace(/\\(frac|binom)\s*(\d)\s*(?=\\|[A-Za-z])/g, '\\$1{$2}');
  const f = infixFractions(t);
  return groupDerivatives(reach === 'short' ? shortFunctionArgs(f) : reach === 'pair' ? shortFunctionArgs(f, 2) : reach === 'long' ? f : groupFunctionArgs(f)).trim();
}
