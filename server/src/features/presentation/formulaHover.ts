// Hover on a formula shows it typeset (like LaTeX Workshop's math preview): the inline `$…$` or
// `\(…\)` under the cursor, or the display (`equation`, `align`, `\[…\]`, `$$…$$`, …) around it.
// Only where a client shows images (hoverMath "svg") and MathJax can typeset it: the source form
// would only repeat what is already in the editor.
import { MarkupKind, type Hover } from 'vscode-languageserver-types';
import type { Doc } from '../../project/workspace.js';
import { mathBlock } from '../../analysis/render.js';
import type { MacroDef } from '../../math/macros.js';
import type { HoverMath } from './hoverMath.js';
import { textPlaceAt } from '../structure/textPlace.js';

export interface Formula { tex: string; display: boolean; start: number; end: number }

/** How far around the cursor an inline formula is looked for. */
const REACH = 3000;

/** The formula at `offset`: the innermost display around it, else the inline math it is in. */
export function formulaAt(doc: Doc, offset: number): Formula | undefined {
  if (textPlaceAt(doc, offset) !== 'math') return undefined;
  const envs = doc.envs();
  for (let i = doc.envAt(offset); i >= 0; i = envs[i].parent) {
    const e = envs[i];
    if (!e.rows || !e.closed) continue;
    const inner = mathBlock(e.name, doc.text.slice(e.bodyStart, e.bodyEnd)).replace(/^\$\$\n|\n\$\$$/g, '');
    return { tex: inner, display: true, start: e.start, end: e.end };
  }
  return inlineAt(doc.text, offset);
}

function inlineAt(text: string, offset: number): Formula | undefined {
  let from = text.lastIndexOf('\n\n', offset);
  if (from < 0 || offset - from > REACH) from = Math.max(0, offset - REACH);
  const to = Math.min(text.length, offset + REACH);
  let open = -1;
  let kind = '';
  for (let i = from; i < to; i++) {
    if (open < 0 && i > offset) return undefined;
    const c = text[i];
    if (c === '%' && text[i - 1] !== '\\') { const nl = text.indexOf('\n', i); i = nl < 0 ? to : nl; continue; }
    if (c === '\\') {
      const nx = text[i + 1];
      if (open < 0 && nx === '(') { open = i; kind = '\\('; i++; continue; }
      if (open >= 0 && kind === '\\(' && nx === ')') {
        if (open <= offset && offset <= i + 1) return { tex: text.slice(open + 2, i), display: false, start: open, end: i + 2 };
        open = -1;
      }
      i++;
      continue;
    }
    if (c === '$') {
      if (text[i + 1] === '$') { i++; if (open >= 0 && kind === '$') open = -1; continue; } // displays are environments
      if (open < 0) { open = i; kind = '$'; continue; }
      if (kind === '$') {
        if (open <= offset && offset <= i) return { tex: text.slice(open + 1, i), display: false, start: open, end: i + 1 };
        open = -1;
      }
    }
  }
  return undefined;
}

/** The typeset formula at `offset` (svg mode only), or null. */
export function formulaHover(doc: Doc, offset: number, hm: HoverMath, macros: readonly MacroDef[]): Hover | null {
  if (hm.mode !== 'svg' || !hm.svg) return null;
  const f = formulaAt(doc, offset);
  if (!f || !f.tex.trim()) return null;
  const uri = hm.svg.render(f.tex, { display: f.display, macros, color: hm.color });
  if (!uri) return null;
  return { range: doc.range(f.start, f.end), contents: { kind: MarkupKind.Markdown, value: `![formula](${uri})` } };
}
