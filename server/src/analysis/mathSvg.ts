// TeX typeset as SVG by MathJax (mathjax-full, in-process: nothing leaves the machine), for
// hovers in clients that show images. The project's macros are the TeX input's macros (one
// MathJax document per macro signature, a few kept); the SVG's glyphs are filled with the
// colour asked for (an image cannot inherit the editor's text colour) and sized in pixels.
// Anything MathJax cannot typeset (an undefined command, a missing brace) gives undefined, so
// the caller shows the TeX instead: never a red error box. Results are cached by (TeX, display,
// macros, colour). MathJax itself (`mathJaxEngine.ts`) is loaded on the first formula (or when
// the session warms it), not when the server starts: a client that never asks for SVG never
// pays for it.
import { createRequire } from 'node:module';
import type { MathDocument } from 'mathjax-full/js/core/MathDocument.js';
import type * as Engine from './mathJaxEngine.js';
import { macroSignature } from '../math/blocks.js';
import type { MacroDef } from '../math/macros.js';

export interface SvgOptions {
  display?: boolean;
  /** The project's macros (`\newcommand`, `\DeclareMathOperator`, …). */
  macros?: readonly MacroDef[];
  /** Fill colour, `#rrggbb` (default a dark grey that reads on light and dark backgrounds alike). */
  color?: string;
}

/** Pixels per ex of MathJax's output in a hover (about the editor's hover font). */
const PX_PER_EX = 7.5;
const MAX_TEX = 4000;
const CACHE_SIZE = 2000;
const DOCUMENTS = 8;
const DEFAULT_COLOR = '#7f7f7f';
const COLOR = /^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$/;

function macroSpecs(defs: readonly MacroDef[]): Record<string, Engine.MacroSpec> {
  const out: Record<string, Engine.MacroSpec> = {};
  for (const d of defs) {
    if (!/^[A-Za-z]+$/.test(d.name) || d.nargs > 9 || d.body.length > 2000) continue;
    if (d.cmd === 'DeclareMathOperator' || d.cmd === 'DeclareMathOperator*') out[d.name] = `\\operatorname${d.cmd.endsWith('*') ? '*' : ''}{${d.body}}`;
    else if (d.nargs === 0) out[d.name] = d.body;
    else out[d.name] = d.optDefault !== undefined ? [d.body, d.nargs, d.optDefault] : [d.body, d.nargs];
  }
  return out;
}

declare const require: ((id: string) => unknown) | undefined;

let engine: typeof Engine | undefined;

/** MathJax, loaded once. In the CommonJS bundle esbuild makes this `require` run the module on the first call. */
function mathJax(): typeof Engine {
  if (engine) return engine;
  if (typeof require === 'function') engine = require('./mathJaxEngine.js') as typeof Engine;
  else {
    try {
      engine = createRequire(import.meta.url)('./mathJaxEngine.js') as typeof Engine;
    } catch (e) { throw new Error(`MathJax could not be loaded: ${(e as Error).message}`); }
  }
  return engine;
}

export class SvgMath {
  private readonly docs = new Map<string, MathDocument<unknown, unknown, unknown>>();
  private readonly cache = new Map<string, string | null>();
  hits = 0;
  misses = 0;

  /** Loads MathJax now (off any request), so the first hover does not. */
  warm(): void {
    mathJax();
  }

  /** The formula as an SVG `data:` URI, or undefined when MathJax cannot typeset it. Never throws. */
  render(tex: string, opts: SvgOptions = {}): string | undefined {
    const body = tex.trim();
    if (!body || body.length > MAX_TEX) return undefined;
    const macros = opts.macros ?? [];
    const sig = macros.length ? macroSignature(macros) : '';
    const color = opts.color && COLOR.test(opts.color) ? opts.color : DEFAULT_COLOR;
    const key = `${sig}\u0000${color}\u0000${opts.display ? 'D' : 'i'}\u0000${body}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) { this.hits++; return hit ?? undefined; }
    this.misses++;
    let uri: string | null = null;
    try {
      const doc = this.document(sig, macros);
      const node = doc.convert(body, { display: !!opts.display, em: 16, ex: 8, containerWidth: 80 * 16 });
      const svg = mathJax().adaptor().innerHTML(node as never);
      uri = svg.startsWith('<svg') && !svg.includes('data-mjx-error') ? toDataUri(svg, color) : null;
    } catch {
      uri = null;
    }
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, uri);
    return uri ?? undefined;
  }

  private document(sig: string, macros: readonly MacroDef[]): MathDocument<unknown, unknown, unknown> {
    let doc = this.docs.get(sig);
    if (doc) return doc;
    doc = mathJax().texToSvgDocument(macroSpecs(macros));
    if (this.docs.size >= DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    this.docs.set(sig, doc);
    return doc;
  }
}

/** Glyphs in the colour asked for, sizes in pixels, as a base64 `data:` URI. */
function toDataUri(svg: string, color: string): string {
  const sized = svg
    .replace(/\s(width|height)="(-?[\d.]+)ex"/g, (_m, a: string, v: string) => ` ${a}="${(Number(v) * PX_PER_EX).toFixed(1)}px"`)
    .replace(/\sstyle="[^"]*"/, '')
    .replaceAll('currentColor', color);
  return `data:image/svg+xml;base64,${Buffer.from(sized, 'utf8').toString('base64')}`;
}
