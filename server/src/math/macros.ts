// Macro expansion before parsing: the document's own `\newcommand`/`\def`/
// `\DeclareMathOperator` definitions, plus a few notations the parser does not know
// (ProofWiki's `\paren`, `\map`, `\size`, `\ds`; `\dfrac`). Bounded: at most a fixed number
// of expansions and a fixed output length, so a recursive macro cannot hang a check.
import { argEnd, commandEnd, groupEnd, skipSpaces } from './latexText.js';

export interface MacroDef { name: string; nargs: number; optDefault?: string; body: string; cmd?: string }

const BUILTIN: MacroDef[] = [
  { name: 'paren', nargs: 1, body: '\\left(#1\\right)' },
  { name: 'sqbrk', nargs: 1, body: '\\left[#1\\right]' },
  { name: 'size', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'norm', nargs: 1, body: '\\left\\|#1\\right\\|' },
  { name: 'map', nargs: 2, body: '#1\\left(#2\\right)' },
  { name: 'dfrac', nargs: 2, body: '\\frac{#1}{#2}' },
  { name: 'tfrac', nargs: 2, body: '\\frac{#1}{#2}' },
  { name: 'cfrac', nargs: 2, body: '\\frac{#1}{#2}' },
  { name: 'ds', nargs: 0, body: '' },
  { name: 'dd', nargs: 0, body: 'd' },
  { name: 'e', nargs: 0, body: 'e' },
  { name: 'euler', nargs: 0, body: 'e' },
  { name: 'Euler', nargs: 0, body: 'e' },
  { name: 'cmod', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'abs', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'floor', nargs: 1, body: '\\left\\lfloor #1\\right\\rfloor' },
  { name: 'ceiling', nargs: 1, body: '\\left\\lceil #1\\right\\rceil' },
  { name: 'dbinom', nargs: 2, body: '\\binom{#1}{#2}' },
  { name: 'tbinom', nargs: 2, body: '\\binom{#1}{#2}' },
  { name: 'dotsb', nargs: 0, body: '\\cdots' },
  { name: 'dotsc', nargs: 0, body: '\\ldots' },
  { name: 'dotsm', nargs: 0, body: '\\cdots' },
  { name: 'dots', nargs: 0, body: '\\ldots' },
  { name: 'mathop', nargs: 0, body: '' },
  { name: 'operatorname*', nargs: 1, body: '\\operatorname{#1}' },
  { name: 'Ln', nargs: 0, body: '\\ln' },
  { name: 'arccot', nargs: 0, body: '\\operatorname{arccot}' },
  { name: 'arcsec', nargs: 0, body: '\\operatorname{arcsec}' },
  { name: 'arccsc', nargs: 0, body: '\\operatorname{arccsc}' },
];

const MAX_EXPANSIONS = 200;
const MAX_LENGTH = 20000;

export type MacroTable = Map<string, MacroDef>;

/**
 * Builds the lookup table: builtins first, then the document's definitions (which win).
 * `builtins: false` for display: only what the document defines is written out.
 */
export function macroTable(defs: readonly MacroDef[], builtins = true): MacroTable {
  const m: MacroTable = new Map();
  if (builtins) for (const d of BUILTIN) m.set(d.name, d);
  for (const d of defs) {
    if (d.cmd === 'DeclareMathOperator' || d.cmd === 'DeclareMathOperator*') {
      m.set(d.name, { name: d.name, nargs: 0, body: `\\operatorname{${d.body}}` });
    } else if (d.nargs <= 9 && d.body.length < 2000) m.set(d.name, d);
  }
  return m;
}

/** Expands macros of the table in `s`; returns undefined when the expansion runs away. */
export function expandMacros(s: string, table: MacroTable): string | undefined {
  let out = s;
  let count = 0;
  let i = 0;
  while (i < out.length) {
    if (out[i] !== '\\') { i++; continue; }
    const e = commandEnd(out, i + 1);
    let name = out.slice(i + 1, e);
    let end = e;
    if (out[e] === '*' && table.has(name + '*')) { name += '*'; end++; }
    const def = table.get(name);
    if (!def) { i = e; continue; }
    if (++count > MAX_EXPANSIONS) return undefined;
    const args: string[] = [];
    let p = end;
    let k = 0;
    if (def.optDefault !== undefined) {
      const q = skipSpaces(out, p);
      if (out[q] === '[') {
        const g = groupEnd(out, q);
        if (g < 0) return undefined;
        args.push(out.slice(q + 1, g - 1));
        p = g;
      } else args.push(def.optDefault);
      k = 1;
    }
    for (; k < def.nargs; k++) {
      const a = argEnd(out, p);
      if (a < 0) return undefined;
      const q = skipSpaces(out, p);
      args.push(out[q] === '{' ? out.slice(q + 1, a - 1) : out.slice(q, a));
      p = a;
    }
    let body = def.body.replace(/#([1-9])/g, (_m, d: string) => args[Number(d) - 1] ?? '');
    // keep a following letter from gluing onto a command name in the body
    if (/\\[A-Za-z]+$/.test(body) && /[A-Za-z]/.test(out[p] ?? '')) body += ' ';
    out = out.slice(0, i) + (def.nargs > 0 || /^[A-Za-z]/.test(body) ? `{${body}}` : body) + out.slice(p);
    if (out.length > MAX_LENGTH) return undefined;
    // re-scan the expansion: bodies may use other macros
  }
  return out;
}
