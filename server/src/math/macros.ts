// The macros a display is read with before parsing: the document's own `\newcommand`/`\def`/
// `\DeclareMathOperator` definitions, plus a few notations the parser does not know
// (ProofWiki's `\paren`, `\map`, `\size`, `\ds`; `\dfrac`). The expansion itself, and its
// bounds, are the project's one expander (`syntax/macroExpander.ts`).
import { expand, type MacroDef } from '../syntax/macroExpander.js';

export type { MacroDef } from '../syntax/macroExpander.js';

// ProofWiki's macros here are read for parsing, not for display: `\ds` is nothing, `\dd` is the `d`
// of a differential, `\norm` is `\left\|…\right\|`. ProofWiki's table for display (syntax/proofwikiMacros.ts)
// writes `\displaystyle`, `\mathrm{d}` and `\lVert`; this one shapes the equation fingerprints
// stored in the built index, so the two stay apart (macros.test.ts pins where they differ).
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
  const r = expand(s, table, { group: true });
  return r.complete ? r.text : undefined;
}
