// User macros are expanded before tokenizing, so `\R` and `\mathbb{R}` give the same tokens
// and the model sees the notation it was trained on. Definitions are read from the text
// itself (`\newcommand`, `\renewcommand`, `\providecommand`, `\def`, `\DeclareMathOperator`)
// or passed in (the server has them as facts). Expansion is bounded in depth and output size.
import { skipGroup } from './latexScanner.js';

export interface MacroDef {
  /** Number of arguments (#1..#9). */
  nargs: number;
  /** Default of the first argument when it is optional (`\newcommand{\x}[2][d]{…}`). */
  optDefault?: string;
  body: string;
}

export type MacroTable = Map<string, MacroDef>;

const DEF_RE = /\\(?:(?:re)?newcommand|providecommand|DeclareMathOperator)\*?\s*\{?\s*(\\[A-Za-z]+)\s*\}?|\\def\s*(\\[A-Za-z]+)((?:#\d)*)\s*(?=\{)/g;
const MAX_DEPTH = 8;

function group(s: string, i: number): [string, number] | undefined {
  const j = skipGroup(s, i, 20_000);
  return j > i ? [s.slice(i + 1, j - 1), j] : undefined;
}

/** Reads macro definitions from `text`; returns the table and the text with them removed. */
export function readMacroDefinitions(text: string, into: MacroTable = new Map()): { macros: MacroTable; text: string } {
  let out = '';
  let last = 0;
  DEF_RE.lastIndex = 0;
  for (let m = DEF_RE.exec(text); m; m = DEF_RE.exec(text)) {
    const isOperator = m[0].startsWith('\\DeclareMathOperator');
    const name = m[1] ?? m[2];
    let i = m.index + m[0].length;
    let nargs = m[3] ? m[3].length / 2 : 0;
    let optDefault: string | undefined;
    const ws = () => { while (/\s/.test(text[i] ?? '')) i++; };
    ws();
    if (!m[2] && text[i] === '[') { const k = text.indexOf(']', i); if (k < 0) continue; nargs = Number(text.slice(i + 1, k)) || 0; i = k + 1; ws(); }
    if (!m[2] && text[i] === '[') { const k = text.indexOf(']', i); if (k < 0) continue; optDefault = text.slice(i + 1, k); i = k + 1; ws(); }
    const g = group(text, i);
    if (!g) continue;
    const body = isOperator ? `\\operatorname{${g[0]}}` : g[0];
    into.set(name, { nargs: Math.min(9, nargs), optDefault, body });
    out += text.slice(last, m.index);
    last = g[1];
    DEF_RE.lastIndex = g[1];
  }
  return { macros: into, text: last === 0 ? text : out + text.slice(last) };
}

/** Expands the macros of `table` in `text` (bounded: depth 8, output ≤ 4× input + 10k chars). */
export function expandMacros(text: string, table: MacroTable): string {
  if (table.size === 0) return text;
  const budget = { left: text.length * 4 + 10_000 };
  return expand(text, table, 0, budget);
}

function expand(s: string, table: MacroTable, depth: number, budget: { left: number }): string {
  let out = '';
  let last = 0;
  const re = /\\([A-Za-z]+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const def = table.get(m[0]);
    if (!def) continue;
    let i = m.index + m[0].length;
    const args: string[] = [];
    let ok = true;
    for (let a = 0; a < def.nargs; a++) {
      let j = i;
      while (s[j] === ' ') j++;
      if (a === 0 && def.optDefault !== undefined) {
        if (s[j] === '[') { const k = s.indexOf(']', j); if (k < 0) { ok = false; break; } args.push(s.slice(j + 1, k)); i = k + 1; }
        else args.push(def.optDefault);
        continue;
      }
      if (s[j] === '{') { const g = group(s, j); if (!g) { ok = false; break; } args.push(g[0]); i = g[1]; }
      else if (s[j] === '\\') { const k = /^\\([A-Za-z]+|.)/.exec(s.slice(j, j + 64)); args.push(k ? k[0] : '\\'); i = j + (k ? k[0].length : 1); }
      else if (j < s.length) { args.push(s[j]); i = j + 1; }
      else { ok = false; break; }
    }
    if (!ok) continue;
    let body = def.body.replace(/#([1-9])/g, (_, d) => args[Number(d) - 1] ?? '');
    if (depth < MAX_DEPTH && /\\[A-Za-z]/.test(body)) body = expand(body, table, depth + 1, budget);
    budget.left -= body.length;
    if (budget.left < 0) return out + s.slice(last);
    // keep a following letter from gluing onto a command that ends the body
    const sep = /\\[A-Za-z]+$/.test(body) && /[A-Za-z]/.test(s[i] ?? '') ? ' ' : '';
    out += s.slice(last, m.index) + body + sep;
    last = i;
    re.lastIndex = i;
  }
  return last === 0 ? s : out + s.slice(last);
}
