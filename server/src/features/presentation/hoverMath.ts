// The math of hover Markdown as the client can show it (`initializationOptions.mathsense.hoverMath`).
// Features write math as `$…$` and `$$…$$` (analysis/render.ts); CommonMark renderers then eat
// its backslashes (`\{` becomes `{`) and run rows together. So before a hover leaves:
// * "source" (the default): inline math becomes a code span and display math a fenced `latex`
//   block, both holding the TeX exactly as written, whatever renders it (Neovim, Emacs, Helix);
// * "svg": every formula is typeset by MathJax with the project's macros in the client's text
//   colour and embedded as an image (`![…](data:image/svg+xml;base64,…)`); a formula MathJax
//   cannot typeset falls back to its source form.
import type { MacroDef } from '../../math/macros.js';
import type { SvgMath } from '../../analysis/mathSvg.js';

export type HoverMathMode = 'svg' | 'source';

export interface HoverMath {
  mode: HoverMathMode;
  /** The typesetter (svg mode). */
  svg?: SvgMath;
  /** Glyph colour for svg mode, `#rrggbb`. */
  color?: string;
}

export const SOURCE_MATH: HoverMath = { mode: 'source' };

/** Longest run of backticks in s. */
function longestTicks(s: string): number {
  let best = 0;
  for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}

/** A code span holding s exactly (CommonMark: a fence longer than any run inside, padded when s touches a backtick). */
export function codeSpan(s: string): string {
  const fence = '`'.repeat(longestTicks(s) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/** A fenced code block holding s exactly. */
export function codeBlock(s: string, info = 'latex'): string {
  const fence = '`'.repeat(Math.max(3, longestTicks(s) + 1));
  return `${fence}${info}\n${s}\n${fence}`;
}

/** Alt text of an image: the TeX on one line, without what would end the brackets. */
function altText(tex: string): string {
  const t = tex.replace(/\s+/g, ' ').replace(/[[\]\\`]/g, '').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

function present(tex: string, display: boolean, hm: HoverMath, macros: readonly MacroDef[]): string {
  // amsthm's end-of-proof mark inside a display is no math (MathJax would refuse the formula)
  tex = tex.replace(/\\qedhere\b/g, '');
  if (hm.mode === 'svg' && hm.svg) {
    const uri = hm.svg.render(tex, { display, macros, color: hm.color });
    if (uri) return display ? `\n\n![${altText(tex)}](${uri})\n\n` : `![${altText(tex)}](${uri})`;
  }
  return display ? `\n\n${codeBlock(tex.trim())}\n\n` : codeSpan(`$${tex}$`);
}

/**
 * Hover Markdown with its math presented for the client (see the module comment). Code spans
 * and fenced blocks already there are left alone; `\$` is a dollar sign, not math.
 * Text of the document reaches hovers (a statement's words, a bibliography field), and a
 * document is untrusted input: outside code and math, raw HTML (`<img onerror=…>`) is shown as
 * text and a Markdown image (`![p](https://host/p.png)`, which an editor would fetch, telling a
 * third party the document was opened) as its source. Features write no HTML and no images of
 * their own before this pass; the formulas it typesets are images of `data:` URIs.
 */
export function presentMath(md: string, hm: HoverMath, macros: readonly MacroDef[] = []): string {
  let out = '';
  let i = 0;
  const n = md.length;
  while (i < n) {
    const c = md[i];
    // fenced code blocks and code spans: verbatim
    if (c === '`') {
      const run = /^`+/.exec(md.slice(i))![0];
      const atLineStart = i === 0 || md[i - 1] === '\n';
      if (atLineStart && run.length >= 3) {
        const close = md.indexOf(`\n${run}`, i + run.length);
        const end = close < 0 ? n : Math.min(n, close + 1 + run.length);
        out += md.slice(i, end);
        i = end;
        continue;
      }
      const close = md.indexOf(run, i + run.length);
      const end = close < 0 ? i + run.length : close + run.length;
      out += md.slice(i, end);
      i = end;
      continue;
    }
    if (c === '\\' && md[i + 1] === '$') { out += '\\$'; i += 2; continue; }
    if (c === '$') {
      const display = md[i + 1] === '$';
      const open = display ? 2 : 1;
      let j = i + open;
      let found = -1;
      while (j < n) {
        if (md[j] === '\\') { j += 2; continue; }
        if (md[j] === '$' && (!display || md[j + 1] === '$')) { found = j; break; }
        if (!display && md[j] === '\n' && md[j + 1] === '\n') break; // inline math does not span paragraphs
        j++;
      }
      if (found < 0) { out += md.slice(i, i + open); i += open; continue; }
      const tex = md.slice(i + open, found);
      if (!tex.trim()) { out += md.slice(i, found + open); i = found + open; continue; }
      out += present(tex, display, hm, macros);
      i = found + open;
      continue;
    }
    if (c === '<') { out += '&lt;'; i++; continue; }
    if (c === '!' && md[i + 1] === '[') { out += '\\!'; i++; continue; }
    out += c;
    i++;
  }
  return out.replace(/\n{3,}/g, '\n\n').trim();
}
