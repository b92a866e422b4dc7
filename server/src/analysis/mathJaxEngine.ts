// MathJax (mathjax-full, in-process), behind the one entry `mathSvg.ts` loads when a formula is
// first typeset: TeX input with every package but the two that would turn an error into red
// text (errors must reach the caller, which then shows the TeX), SVG output without a font cache.
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import { liteAdaptor, type LiteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { AllPackages } from 'mathjax-full/js/input/tex/AllPackages.js';
import type { MathDocument } from 'mathjax-full/js/core/MathDocument.js';

export type MacroSpec = string | [string, number] | [string, number, string];

const PACKAGES = AllPackages.filter((p: string) => p !== 'noundefined' && p !== 'noerrors');

let lite: LiteAdaptor | undefined;

/** The DOM adaptor every document shares (registered once). */
export function adaptor(): LiteAdaptor {
  if (!lite) { lite = liteAdaptor(); RegisterHTMLHandler(lite); }
  return lite;
}

/** A MathJax document that typesets TeX with these macros as SVG. */
export function texToSvgDocument(macros: Record<string, MacroSpec>): MathDocument<unknown, unknown, unknown> {
  adaptor();
  const tex = new TeX({ packages: PACKAGES, macros, formatError: (_jax: unknown, err: Error) => { throw err; } });
  const svg = new SVG({ fontCache: 'none' });
  return mathjax.document('', { InputJax: tex, OutputJax: svg }) as MathDocument<unknown, unknown, unknown>;
}
