// ProofWiki's own notation macros (its MathJax configuration defines them; no other renderer
// knows them): written out in standard LaTeX wherever an indexed text is shown, so a hover or a
// search result reads `f\left(x\right)`, not `\map f x`. One table, used by every excerpt, and
// by the index build: BM25 and the encoder read ProofWiki's text with these written out, so a
// change here changes the built index.
//
// The derivation parser reads some of the same macros through a table of its own (math/macros.ts
// BUILTIN), in the spellings it parses: `\ds` is nothing, `\dd` is `d`, `\norm` is `\left\|…\right\|`
// (here `\displaystyle`, `\mathrm{d}`, `\left\lVert…\right\rVert`, as ProofWiki shows them). That
// table shapes the equation fingerprints stored in the built index, so the two stay apart; a test
// (math/macros.test.ts) pins where they differ.
import { expand, type MacroDef, type MacroTable } from './macroExpander.js';

/** ProofWiki's notation macros, each written out in standard LaTeX. */
export const PROOFWIKI_MACROS: readonly MacroDef[] = [
  { name: 'paren', nargs: 1, body: '\\left(#1\\right)' },
  { name: 'sqbrk', nargs: 1, body: '\\left[#1\\right]' },
  { name: 'set', nargs: 1, body: '\\left\\{#1\\right\\}' },
  { name: 'size', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'card', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'cmod', nargs: 1, body: '\\left|#1\\right|' },
  { name: 'norm', nargs: 1, body: '\\left\\lVert #1\\right\\rVert' },
  { name: 'map', nargs: 2, body: '#1\\left(#2\\right)' },
  { name: 'struct', nargs: 1, body: '\\left(#1\\right)' },
  { name: 'tuple', nargs: 1, body: '\\left(#1\\right)' },
  { name: 'ordpair', nargs: 2, body: '\\left(#1, #2\\right)' },
  { name: 'gen', nargs: 1, body: '\\left\\langle #1\\right\\rangle' },
  { name: 'sequence', nargs: 1, body: '\\left\\langle #1\\right\\rangle' },
  { name: 'family', nargs: 1, body: '\\left\\langle #1\\right\\rangle' },
  { name: 'closedint', nargs: 2, body: '\\left[#1 \\,.\\,.\\, #2\\right]' },
  { name: 'openint', nargs: 2, body: '\\left(#1 \\,.\\,.\\, #2\\right)' },
  { name: 'hointl', nargs: 2, body: '\\left(#1 \\,.\\,.\\, #2\\right]' },
  { name: 'hointr', nargs: 2, body: '\\left[#1 \\,.\\,.\\, #2\\right)' },
  { name: 'floor', nargs: 1, body: '\\left\\lfloor #1\\right\\rfloor' },
  { name: 'ceiling', nargs: 1, body: '\\left\\lceil #1\\right\\rceil' },
  { name: 'eqclass', nargs: 2, body: '\\left[#1\\right]_{#2}' },
  { name: 'powerset', nargs: 1, body: '\\mathcal{P}\\left(#1\\right)' },
  { name: 'intlimits', nargs: 3, body: '\\left[#1\\right]_{#2}^{#3}' },
  { name: 'expect', nargs: 1, body: '\\operatorname{E}\\left(#1\\right)' },
  { name: 'var', nargs: 1, body: '\\operatorname{var}\\left(#1\\right)' },
  { name: 'condprob', nargs: 2, body: '\\Pr\\left(#1 \\mid #2\\right)' },
  { name: 'Img', nargs: 1, body: '\\operatorname{Img}\\left(#1\\right)' },
  { name: 'Dom', nargs: 1, body: '\\operatorname{Dom}\\left(#1\\right)' },
  { name: 'Cdm', nargs: 1, body: '\\operatorname{Cdm}\\left(#1\\right)' },
  { name: 'Preimg', nargs: 1, body: '\\operatorname{Preimg}\\left(#1\\right)' },
  { name: 'ds', nargs: 0, body: '\\displaystyle' },
  { name: 'divides', nargs: 0, body: '\\mid' },
  { name: 'dd', nargs: 0, body: '\\mathrm{d}' },
  { name: 'd', nargs: 0, body: '\\mathrm{d}' },
  { name: 'N', nargs: 0, body: '\\mathbb{N}' },
  { name: 'Z', nargs: 0, body: '\\mathbb{Z}' },
  { name: 'Q', nargs: 0, body: '\\mathbb{Q}' },
  { name: 'R', nargs: 0, body: '\\mathbb{R}' },
  { name: 'C', nargs: 0, body: '\\mathbb{C}' },
  { name: 'O', nargs: 0, body: '\\mathcal{O}' },
  { name: 'lcm', nargs: 0, body: '\\operatorname{lcm}' },
  { name: 'cis', nargs: 0, body: '\\operatorname{cis}' },
  { name: 'Arg', nargs: 0, body: '\\operatorname{Arg}' },
  { name: 'sech', nargs: 0, body: '\\operatorname{sech}' },
  { name: 'csch', nargs: 0, body: '\\operatorname{csch}' },
  { name: 'arsinh', nargs: 0, body: '\\operatorname{arsinh}' },
  { name: 'arcosh', nargs: 0, body: '\\operatorname{arcosh}' },
  { name: 'artanh', nargs: 0, body: '\\operatorname{artanh}' },
  { name: 'arccot', nargs: 0, body: '\\operatorname{arccot}' },
  { name: 'arcsec', nargs: 0, body: '\\operatorname{arcsec}' },
  { name: 'arccsc', nargs: 0, body: '\\operatorname{arccsc}' },
];

let table: MacroTable | undefined;

/** ProofWiki text with its notation macros written out (unchanged where an expansion would run away). */
export function expandProofWikiMacros(text: string): string {
  table ??= new Map(PROOFWIKI_MACROS.map((d) => [d.name, d]));
  if (!text.includes('\\')) return text;
  // a paragraph at a time: each within the expander's bounds, however long the page; each
  // expansion a group, as TeX reads it (math/macros.ts expandMacros does the same)
  return text.split(/(\n\s*\n)/).map((p) => {
    const r = expand(p, table!, { group: true });
    return r.complete ? r.text : p;
  }).join('');
}
