// ProofWiki's own notation macros (its MathJax configuration defines them; no other renderer
// knows them): written out in standard LaTeX wherever an indexed text is shown, so a hover or a
// search result reads `f\left(x\right)`, not `\map f x`. One table, used by every excerpt.
import { expandMacros, type MacroDef, type MacroTable } from '../math/macros.js';

const DEFS: MacroDef[] = [
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
  table ??= new Map(DEFS.map((d) => [d.name, d]));
  if (!text.includes('\\')) return text;
  // a paragraph at a time: each within the expander's bounds, however long the page
  return text.split(/(\n\s*\n)/).map((p) => expandMacros(p, table!) ?? p).join('');
}
