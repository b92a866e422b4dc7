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

const FN_ARG = /\\(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|coth|sech|csch|arcsin|arccos|arctan|ln|log|lg|exp)(?![A-Za-z])(\s*\^\s*(\{[^{}]*\}|[0-9]))?\s*((?:\d+(?:\.\d+)?\s*)?(?:(?:[A-Za-z]|\\(?:alpha|beta|gamma|delta|theta|phi|psi|omega|pi|tau|mu|lambda|sigma|varphi|xi|eta|zeta|rho|chi|epsilon|kappa|nu))(?:_(?:\{[^{}]*\}|[A-Za-z0-9]))?\s*){1,2}|\\frac\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)\s*)(?=\{|\\left\s*\(|\(|\\cdot|\\times|\\(?:sin|cos|tan|cot|sec|csc|ln|log|exp|sqrt|frac|map)\b)/g;

/**
 * `\\cos c \\left(…\\right)` means (cos c)(…), but the parser reads cos(c(…)): group a
 * function with its unparenthesised argument when a parenthesis follows.
 */
export function groupFunctionArgs(s: string): string {
  return s.replace(FN_ARG, (m) => `{${m.trimEnd()}} `);
}

/** Digit groups `46 080` (ProofWiki's thin spaces) and decimal `0 \\cdotp 5` become plain numbers. */
export function plainNumbers(s: string): string {
  let t = s.replace(/(\d)\s*\\cdotp\s*(\d)/g, '$1.$2');
  for (let k = 0; k < 8; k++) {
    const u = t.replace(/(^|[^\d.^_{])(\d{1,3}) +(?:\\[,;] *)?(\d{3})(?![\d.])/g, '$1$2$3').replace(/(\d{3}) +(?:\\[,;] *)?(\d{3})(?![\d.])/g, '$1$2');
    if (u === t) break;
    t = u;
  }
  return t;
}

export function normalizeLatex(s: string): string {
  const t = plainNumbers(s).replace(/\\cdotp/g, '\\cdot').replace(/\\(dfrac|tfrac)/g, '\\frac')
    .replace(/\\(frac|binom)\s*(\d)\s*(\d)/g, '\\$1{$2}{$3}').replace(/\\(frac|binom)\s*(\d)\s*(?=\\|[A-Za-z])/g, '\\$1{$2}');
  return groupDerivatives(groupFunctionArgs(infixFractions(t))).trim();
}
