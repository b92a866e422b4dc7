// Markdown notes: unified + remark-parse + remark-math find headings and `$…$` / `$$…$$`
// math; each math node's source is run through the same block analyser as LaTeX, so labels,
// references and display-math rows inside notes enter the same model. Raw LaTeX in paragraphs
// (`\begin{theorem}…\end{theorem}`, `\label`, `\ref` outside `$`), as Pandoc reads it, is
// analysed too. Everything is read from `latexText`: the note with what is not LaTeX blanked
// (block-quote markers, code, HTML, YAML front matter), offset for offset equal to the text.
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkMath from 'remark-math';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { TextBuffer } from './textBuffer.js';
import { TEXT_DOLLAR, type BlockFacts, type SectionFact, type Span } from '../syntax/facts.js';
import { analyseBlock } from '../syntax/blockAnalyser.js';
import { isSpace } from '../syntax/lexer.js';
import { DocumentView, type Block } from './documentView.js';

interface MdNode {
  type: string;
  depth?: number;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * We only need headings, code (to skip it) and math. Emphasis and link-label resolution are
 * the constructs whose cost grows faster than the text (`a*b*c` prose took seconds per
 * keystroke), so they are switched off.
 */
function withoutInlineFormatting(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push({ disable: { null: ['attention', 'labelStartImage', 'labelStartLink', 'labelEnd'] } });
}

/** Offsets of the `>` block-quote markers of the parse under way (the mdast keeps no trace of them). */
let quoteMarkers: number[] = [];

function recordQuoteMarkers(this: Processor): void {
  const data = this.data() as { fromMarkdownExtensions?: unknown[] };
  (data.fromMarkdownExtensions ??= []).push({
    enter: { blockQuoteMarker(token: { start: { offset: number } }) { quoteMarkers.push(token.start.offset); } },
  });
}

const processor = unified().use(remarkParse).use(withoutInlineFormatting).use(remarkMath).use(recordQuoteMarkers);

/** Notes larger than this are not parsed (a clear limit instead of a stalled server). */
export const MAX_MARKDOWN_CHARS = 4 * 1024 * 1024;

const EMPTY_FACTS: BlockFacts = analyseBlock('');

/**
 * Stands for a `$` that cannot delimit math in the text remark parses: one UTF-16 unit
 * (offsets hold), plain text to micromark, from the private use area.
 */
const NOT_MATH = '\uE024';

/** Raw LaTeX in a paragraph that makes it worth analysing as LaTeX. */
const RAW_LATEX = /\\(?:begin|end|label)\s*\{|\\[A-Za-z]*ref(?:range)?\*?\s*[{[]|\\(?:(?:re)?newcommand|providecommand|newtheorem|DeclareMathOperator)\b/;
/** A multi-paragraph environment is followed over at most this many sibling nodes / characters. */
const MAX_REGION_NODES = 200;
const MAX_REGION_CHARS = 200_000;

function plainText(node: MdNode, depth = 0): string {
  if (node.value !== undefined) {
    const v = node.value.replaceAll(NOT_MATH, '$');
    return node.type === 'inlineMath' ? `$${v}$` : v;
  }
  if (depth > 50) return '';
  return (node.children ?? []).map((c) => plainText(c, depth + 1)).join('');
}

/** A blank, or past either end of the text. */
const isWs = (c: number): boolean => isSpace(c) || Number.isNaN(c);

/** End of YAML front matter (`---` … `---` or `...` from the first line), or -1. */
export function frontMatterEnd(text: string, from = 0): number {
  const open = /^---[ \t]*\r?\n/.exec(text.slice(from, from + 8));
  if (!open) return -1;
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(from + open[0].length);
  const m = close.exec(rest);
  return m ? from + open[0].length + m.index + m[0].length : -1;
}

/**
 * Pandoc's rules for dollar math, which remark-math does not follow. Single dollars: an
 * opening `$` has a non-space right after it; the closing `$` has a non-space right before it
 * and no digit right after it; math does not cross a blank line; `\$` inside math is an
 * escaped dollar. So `$5 and $10` is text, and in `costs $5, then see $\ref{a}$` only
 * `$\ref{a}$` is math. Double dollars: display math runs from `$$` to the next `$$` wherever
 * the two stand on their lines (`$$x = 1 \label{a}$$` over several lines, `$$` closing a
 * line of text), within one paragraph (a fence alone on its line may also hold blank lines,
 * as remark-math reads it); an unclosed `$$` is text. remark-math would read `$$` at a line
 * start as a fence closed only by a line of its own, and swallow the text up to one; so each
 * display is handed to remark as one inline math node (`$` … `$` around placeholders, lines
 * and offsets kept), and its start is recorded in `displays`. Dollars that cannot delimit
 * math become NOT_MATH; fenced code and code spans are skipped. Linear: a failed opening is
 * rescanned from the next character only up to the first `$` or blank line it met.
 */
export function pandocDollars(text: string, from = 0, displays?: Set<number>): string {
  const n = text.length;
  if (text.indexOf('$', from) < 0) return text;
  const out: number[] = [];
  const fills: Span[] = [];
  let i = from;
  let lineStart = true;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (lineStart) {
      lineStart = false;
      FENCE.lastIndex = i;
      const fence = FENCE.exec(text);
      if (fence && !(fence[1][0] === '`' && text.slice(i + fence[0].length, lineEndAt(text, i)).includes('`'))) {
        // fenced code: up to the closing fence (or the end)
        const mark = fence[1];
        const re = new RegExp(`\\n[ \\t>]*${mark[0] === '`' ? '`' : '~'}{${mark.length},}[ \\t]*(?=\\r?\\n|$)`, 'g');
        re.lastIndex = i + fence[0].length;
        const m = re.exec(text);
        i = m ? m.index + m[0].length : n;
        continue;
      }
    }
    if (c === 10) { lineStart = true; i++; continue; }
    if (c === 92 /* \ */) { i += text.charCodeAt(i + 1) === 10 ? 1 : 2; continue; }
    if (c === 96 /* ` */) {
      // a code span: to the next backtick run of the same length within the paragraph
      let r = i;
      while (r < n && text.charCodeAt(r) === 96) r++;
      const len = r - i;
      const close = sameRun(text, r, len, 96);
      i = close < 0 ? r : close + len;
      continue;
    }
    if (c !== 36) { i++; continue; }
    let r = i;
    while (r < n && text.charCodeAt(r) === 36) r++;
    if (r - i > 1) {
      const close = displayClose(text, i, r);
      if (close < 0) {
        // an unclosed `$$` is text
        for (let k = i; k < r; k++) out.push(k);
        i = r;
        continue;
      }
      let e = close;
      while (e < n && text.charCodeAt(e) === 36) e++;
      if (!hasEmptyLine(text, r, close)) {
        fills.push({ start: i, end: e });
        displays?.add(i);
      } // else: a fence with blank lines inside, which remark-math reads as one node itself
      i = e;
      if (text.charCodeAt(i - 1) === 10) lineStart = true;
      continue;
    }
    const closer = isWs(text.charCodeAt(i + 1)) ? -1 : singleDollarClose(text, i + 1, out);
    if (closer < 0) { out.push(i); i++; continue; }
    i = closer + 1;
  }
  return asInlineMath(replaceAt(text, out, NOT_MATH), fills);
}

/** Stands for the inside of a display handed to remark as inline math: not a space, not markup. */
const DISPLAY_FILL = '\uE025';

/**
 * The start of the `$$` closing the display opened by the dollars at `open`…`after`, or -1.
 * Escaped characters are skipped; a blank line ends the search unless the opening `$$` stands
 * alone on its line (a fence, which remark-math lets hold blank lines).
 */
function displayClose(text: string, open: number, after: number): number {
  const n = text.length;
  const fence = isLineStart(text, open) && /^[ \t]*(?:\r?\n|$)/.test(text.slice(after, lineEndAt(text, after) + 1));
  for (let j = after; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) { j++; continue; }
    if (c === 10 && !fence && blankLineAfter(text, j)) return -1;
    if (c === 36 && text.charCodeAt(j + 1) === 36) return j;
  }
  return -1;
}

function isLineStart(text: string, i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const c = text.charCodeAt(k);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 62 /* > */) return false;
  }
  return true;
}

/** Whether a line between `from` and `to` is empty (no character a placeholder could stand on). */
function hasEmptyLine(text: string, from: number, to: number): boolean {
  for (let k = text.indexOf('\n', from); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) {
    const next = text.charCodeAt(k + 1);
    if (next === 10 || (next === 13 && text.charCodeAt(k + 2) === 10)) return true;
  }
  return false;
}

/**
 * Each display `$$…$$` in `spans` as one inline math node for remark: `$`, placeholders, `$`,
 * newlines kept (so lines and offsets hold); in a block quote the `>` markers opening its
 * lines are kept too, so the quote goes on.
 */
function asInlineMath(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  let s = '';
  let last = 0;
  for (const sp of spans) {
    s += text.slice(last, sp.start) + '$';
    const quoted = /^[ \t]*>/.test(text.slice(text.lastIndexOf('\n', sp.start - 1) + 1, sp.start));
    const inner = text.slice(sp.start + 1, sp.end - 1);
    s += inner.replace(quoted ? /\n[ \t>]*|[^\r\n]/g : /\n|[^\r\n]/g, (m: string) => (m[0] === '\n' ? m : DISPLAY_FILL));
    s += '$';
    last = sp.end;
  }
  return s + text.slice(last);
}

/** `text` with the characters at `positions` (ascending) replaced by `ch` (one UTF-16 unit: offsets hold). */
function replaceAt(text: string, positions: readonly number[], ch: string): string {
  if (positions.length === 0) return text;
  let s = '';
  let last = 0;
  for (const p of positions) { s += text.slice(last, p) + ch; last = p + 1; }
  return s + text.slice(last);
}

/** An opening code fence at a line start (inside block quotes too). */
const FENCE = /[ \t>]*(`{3,}|~{3,})/y;

function lineEndAt(text: string, i: number): number {
  const e = text.indexOf('\n', i);
  return e < 0 ? text.length : e;
}

/** Start of the next run of exactly `len` characters `code` before a blank line, or -1. */
function sameRun(text: string, from: number, len: number, code: number): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 && blankLineAfter(text, i)) return -1;
    if (c !== code) { i++; continue; }
    let r = i;
    while (r < n && text.charCodeAt(r) === code) r++;
    if (r - i === len) return i;
    i = r;
  }
  return -1;
}

/** Whether the line after the newline at `nl` is blank (block-quote markers aside): a paragraph break. */
function blankLineAfter(text: string, nl: number): boolean {
  for (let k = nl + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13 && c !== 62 /* > */) return false;
  }
  return true;
}

/**
 * The closing `$` of single-dollar math whose content starts at `from`, or -1. Escaped dollars
 * inside are recorded in `escaped` (remark-math would end the math there).
 */
function singleDollarClose(text: string, from: number, escaped: number[]): number {
  const n = text.length;
  const mark = escaped.length;
  for (let j = from; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) {
      if (text.charCodeAt(j + 1) === 36) escaped.push(j + 1);
      j++;
      continue;
    }
    if (c === 10 && blankLineAfter(text, j)) break;
    if (c !== 36) continue;
    const ok = text.charCodeAt(j + 1) !== 36 && !isWs(text.charCodeAt(j - 1)) && !(text.charCodeAt(j + 1) >= 48 && text.charCodeAt(j + 1) <= 57);
    if (ok) return j;
    break;
  }
  escaped.length = mark;
  return -1;
}

/** `text` with `ranges` blanked (newlines kept), or `text` itself when there is nothing to blank. */
function blank(text: string, ranges: Span[]): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a.start - b.start);
  let s = '';
  let at = 0;
  for (const r of ranges) {
    const start = Math.max(r.start, at);
    if (r.end <= start) continue;
    s += text.slice(at, start) + text.slice(start, r.end).replace(/[^\r\n]/g, ' ');
    at = r.end;
  }
  return s + text.slice(at);
}

/** Signs of MyST Markdown: directive fences (```{math}), roles ({math}`…`), targets ((label)=). */
const MYST = /^(?:```|~~~)\{[a-z-]+\}|\{(?:math|eq|ref|numref|doc|cite)\}`|^\([\w-]+\)=\s*$/m;

const NOT_LATEX = new Set(['code', 'inlineCode', 'html', 'yaml', 'toml']);

export class MarkdownDocument extends DocumentView {
  readonly kind = 'markdown' as const;
  private blockList: Block[] = [];
  private inline: Span[] = [];
  private latex = '';

  constructor(uri: string, text: string, version = 0, languageId = 'markdown') {
    super(uri, text, version, languageId);
    this.parse();
  }

  blocks(): readonly Block[] { return this.blockList; }

  override get latexText(): string { return this.latex; }

  /** Inline `$…$` math spans (delimiters included). */
  inlineMath(): readonly Span[] { return this.inline; }

  applyChanges(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    this.buffer.update(changes, version);
    this.parse();
    this.invalidate();
  }

  setText(text: string, version: number): void {
    this.buffer = new TextBuffer(text, version, this.languageId);
    this.parse();
    this.invalidate();
  }

  private parse(): void {
    const text = this.text;
    const blocks: Block[] = [];
    const inline: Span[] = [];
    this.blockList = [{ start: 0, end: text.length, facts: EMPTY_FACTS }];
    this.inline = [];
    this.latex = text;
    if (text.length > MAX_MARKDOWN_CHARS) return;
    // remark drops a leading byte-order mark and counts offsets without it
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const notLatex: Span[] = [];
    // YAML front matter is metadata: blanked for remark (no setext heading, no math) and for the model
    const fm = frontMatterEnd(text, bom);
    if (fm > 0) notLatex.push({ start: bom, end: fm });
    // MyST (Jupyter Book) notes: a line starting with `%` is a comment
    if (MYST.test(text)) for (const m of text.matchAll(/^%[^\n]*/gm)) notLatex.push({ start: m.index!, end: m.index! + m[0].length });
    const displays = new Set<number>();
    const source = pandocDollars(blank(text, notLatex), bom + Math.max(fm, 0), displays);
    let tree: MdNode;
    quoteMarkers = [];
    try {
      tree = processor.parse(bom ? source.slice(1) : source) as unknown as MdNode;
    } catch {
      // remark never throws on text, but a corrupt file must not take the server down
      return;
    } finally {
      for (const m of quoteMarkers) notLatex.push({ start: m + bom, end: m + bom + 1 });
      quoteMarkers = [];
    }
    const span = (node: MdNode): Span | undefined => {
      const s = node.position?.start.offset;
      const e = node.position?.end.offset;
      return s === undefined || e === undefined ? undefined : { start: s + bom, end: e + bom };
    };
    // code and HTML are not LaTeX: blanked before anything is analysed
    const maths: Span[] = [];
    const all: MdNode[] = [tree];
    while (all.length) {
      const node = all.pop()!;
      const sp = span(node);
      if (NOT_LATEX.has(node.type)) { if (sp) notLatex.push(sp); continue; }
      if (node.type === 'math' || node.type === 'inlineMath') {
        if (sp) { maths.push(sp); if (node.type === 'inlineMath' && !displays.has(sp.start)) inline.push(sp); }
        continue;
      }
      for (const k of node.children ?? []) all.push(k);
    }
    const latex = proseDollars(blank(text, notLatex), maths);
    this.latex = latex;

    // explicit stack: deeply nested quotes/lists must not overflow the call stack
    const stack: MdNode[] = [tree];
    while (stack.length) {
      const node = stack.pop()!;
      const sp = span(node);
      if (node.type === 'math' || node.type === 'inlineMath') {
        if (!sp) continue;
        blocks.push({ start: sp.start, end: sp.end, facts: analyseBlock(latex.slice(sp.start, sp.end)) });
        continue;
      }
      if (node.type === 'heading' && sp) {
        const section: SectionFact = {
          cmd: 'heading', level: node.depth ?? 1, title: plainText(node).trim(), starred: false, start: 0, end: sp.end - sp.start,
        };
        blocks.push({ start: sp.start, end: sp.end, facts: { ...EMPTY_FACTS, sections: [section] } });
      }
      const kids = node.children ?? [];
      for (let k = 0; k < kids.length; k++) {
        const kid = kids[k];
        const ks = span(kid);
        if (kid.type !== 'paragraph' || !ks || !RAW_LATEX.test(latex.slice(ks.start, ks.end))) { stack.push(kid); continue; }
        // raw LaTeX: the paragraph, and the siblings an environment opened in it runs over
        let depth = envDepth(latex, ks);
        let m = k;
        while (depth > 0 && m + 1 < kids.length && m - k < MAX_REGION_NODES && kids[m + 1].type !== 'heading') {
          const next = span(kids[m + 1]);
          if (!next || next.end - ks.start > MAX_REGION_CHARS) break;
          m++;
          depth += envDepth(latex, next);
        }
        const end = span(kids[m])?.end ?? ks.end;
        blocks.push({ start: ks.start, end, facts: proseFacts(analyseBlock(latex.slice(ks.start, end))) });
        k = m;
      }
    }
    blocks.sort((a, b) => a.start - b.start);
    inline.sort((a, b) => a.start - b.start);
    if (blocks.length) this.blockList = blocks;
    this.inline = inline;
  }
}

/** `\begin{` minus `\end{` in a span: > 0 while an environment opened there is still open. */
function envDepth(latex: string, sp: Span): number {
  const t = latex.slice(sp.start, sp.end);
  return (t.match(/\\begin\s*\{/g)?.length ?? 0) - (t.match(/\\end\s*\{/g)?.length ?? 0);
}

/**
 * A `$` of the prose that delimits no math node (`costs $5`) is a dollar sign, not math: it
 * becomes a full-width dollar sign (one UTF-16 unit), so the analyser cannot open math there
 * and hide the `\end{theorem}` after it, and a preview still shows a dollar.
 */
function proseDollars(latex: string, maths: Span[]): string {
  if (latex.indexOf('$') < 0) return latex;
  maths.sort((a, b) => a.start - b.start);
  const prose: number[] = [];
  let m = 0;
  for (let i = latex.indexOf('$'); i >= 0; i = latex.indexOf('$', i + 1)) {
    while (m < maths.length && maths[m].end <= i) m++;
    if (m < maths.length && maths[m].start <= i) { i = maths[m].end - 1; continue; }
    if (i > 0 && latex.charCodeAt(i - 1) === 92) continue;
    prose.push(i);
  }
  return replaceAt(latex, prose, TEXT_DOLLAR);
}

/**
 * What raw LaTeX in Markdown prose contributes: environments, labels, references, macro and
 * theorem definitions, structural problems. Includes, sections, citations and magic comments
 * are left to Markdown (Pandoc passes them through to LaTeX; headings are the sections).
 */
function proseFacts(f: BlockFacts): BlockFacts {
  return { ...EMPTY_FACTS, envs: f.envs, labels: f.labels, refs: f.refs, macros: f.macros, theoremDefs: f.theoremDefs, problems: f.problems };
}
