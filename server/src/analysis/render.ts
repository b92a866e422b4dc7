// Renders a LaTeX fragment (a statement body, a section title) as Markdown for hovers and
// completion previews: text formatting becomes Markdown, math is kept verbatim between `$`
// / `$$` so clients that render math (and KaTeX in our webviews) show it properly.
import {
  BACKSLASH, DOLLAR, LBRACE, PERCENT, RBRACE, commandNameEnd, lineEnd, readBraceGroup,
  readBracketGroup, readEnvName, skipTrivia,
} from '../syntax/lexer.js';
import { refCommandAlternation } from '../syntax/blockAnalyser.js';
import { ALIGNED_ROW_ENVS, DISPLAY_MATH_ENVS, GATHERED_ROW_ENVS } from '../syntax/displayMath.js';
import { TEXT_DOLLAR } from '../syntax/facts.js';

// commands that vanish with their arguments (index entries and PlanetMath link metadata are
// not part of the text): name -> number of brace arguments (a star and `[...]` are skipped too)
const DROP_WITH_ARGS: Record<string, number> = {
  label: 1, footnote: 1, hspace: 1, vspace: 1, phantom: 1, hypertarget: 1, marginpar: 1,
  index: 1, indexdef: 1, indexfoot: 1, indexsee: 2, nomenclature: 2, glossary: 1,
  PMlinkescapeword: 1, PMlinkescapephrase: 1,
  // Lean blueprint metadata: shown apart from the statement (features/labelPreview.ts#blueprintLine)
  lean: 1, uses: 1, proves: 1, discussion: 1, leanok: 0, mathlibok: 0, notready: 0,
};
// two-argument commands whose first argument is the text (the second a target or a bookmark
// string): `\texorpdfstring{$n$}{n}` is "$n$", `\PMlinkname{text}{Target}` is "text"
const FIRST_OF_TWO = new Set(['texorpdfstring', 'PMlinkname', 'PMlinkid', 'PMlinkID', 'PMlinkexternal', 'PMlinktofile']);
// text accents as combining marks (composed with NFC): \"u -> ü, \H{o} -> ő, \c{c} -> ç
const ACCENTS: Record<string, string> = {
  '"': '\u0308', "'": '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', '=': '\u0304', '.': '\u0307',
  H: '\u030B', c: '\u0327', v: '\u030C', u: '\u0306', k: '\u0328', r: '\u030A', d: '\u0323', b: '\u0331',
};
// letters (and logos) typed as commands: St{\o}rmer, \L{}ukasiewicz, \ss, \TeX{}
const LETTERS: Record<string, string> = {
  o: 'ø', O: 'Ø', l: 'ł', L: 'Ł', ss: 'ß', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', aa: 'å', AA: 'Å', i: 'ı', j: 'ȷ',
  TeX: 'TeX', LaTeX: 'LaTeX',
};
// list item starts and indentation survive the whitespace clean-up as these marks
const ITEM = '\u0002';
const INDENT = '\u0001';
const EMPH = new Set(['emph', 'textit', 'textsl', 'mathit']);
const BOLD = new Set(['textbf']);
const PLAIN_ARG = new Set(['text', 'textrm', 'textsf', 'texttt', 'textnormal', 'mbox', 'textup', 'textsc', 'underline', 'uline']);
// the reference commands of syntax/blockAnalyser.ts#REF_COMMANDS that take one argument (a label or a list), and \hyperref
const REFS = new RegExp(`^(?:${refCommandAlternation(['one', 'list'])}|hyperref)$`);
const SWITCH: Record<string, string> = { it: '*', em: '*', sl: '*', bf: '**', bfseries: '**', itshape: '*' };

export interface RenderOptions {
  maxLength?: number;
  /** What a reference name points at: its kind ("Lemma", "Equation") and title, if known. */
  refTarget?: (name: string) => RefTarget | undefined;
}

export interface RefTarget { kind: string; title?: string }

/**
 * A reference as text. Numbers are unknown here, so a target is shown by kind and title
 * (`*Lemma (Key lemma)*`), or by kind and label without a title; after the kind already
 * written (`Lemma~\ref{lem:key}`) only the title or label, so the word is not doubled.
 */
function refShown(name: string, target: RefTarget | undefined, before: string): string {
  if (!target) return `\`${name}\``;
  const word = /([A-Za-z]{3,})[\s~]*$/.exec(before)?.[1].toLowerCase();
  const kind = target.kind.toLowerCase();
  const named = !!word && (kind.endsWith(word) || (word.endsWith('s') && kind.endsWith(word.slice(0, -1))));
  if (named) return target.title ? `(*${target.title}*)` : `\`${name}\``;
  return target.title ? `*${target.kind} (${target.title})*` : `*${target.kind}* \`${name}\``;
}

export function latexToMarkdown(src: string, opts: RenderOptions = {}): string {
  const max = opts.maxLength ?? 1500;
  // only the head can be shown: do not render megabytes to keep 1500 characters
  if (src.length > max * 4) src = src.slice(0, max * 4);
  let out = new Renderer(src, opts).render(0, src.length);
  out = out
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replaceAll(ITEM, '')
    .replaceAll(INDENT, ' ')
    // a dollar sign in the text, escaped: only unescaped dollars delimit math (features/hoverMath.ts)
    .replaceAll(TEXT_DOLLAR, '\\$');
  if (out.length > max) {
    let cut = out.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    // never cut inside math (`$…$` or `$$…$$`): a lone dollar would show the rest as raw TeX
    const open = openMathAt(out, cut);
    if (open >= 0) cut = open;
    out = out.slice(0, cut).trimEnd() + ' …';
  }
  return out;
}

/** Where the math that `at` falls inside opens (`$` or `$$`, unescaped), or -1 outside math. */
function openMathAt(md: string, at: number): number {
  let open = -1;
  let display = false;
  for (let i = 0; i < at; i++) {
    const c = md.charCodeAt(i);
    if (c === 92 /* \ */) { i++; continue; }
    if (c !== 36 /* $ */) continue;
    const double = md.charCodeAt(i + 1) === 36;
    if (open < 0) { open = i; display = double; }
    else if (double === display) open = -1;
    else continue;
    if (double) i++;
  }
  return open;
}

/** One-line plain text (for symbol names and completion details): no Markdown marks. */
export function latexToPlain(src: string, maxLength = 120): string {
  return latexToMarkdown(src, { maxLength }).replace(/\*+/g, '').replaceAll('\\$', '$').replace(/\s+/g, ' ').trim();
}

/** Cleans display-math source for a `$$` block: drops labels and tags, keeps the math. */
export function cleanMath(src: string): string {
  return src
    .replace(/(^|[^\\])%[^\n]*/g, '$1')
    .replace(/\\label\s*\{[^{}]*\}/g, '')
    .replace(/\\(notag|nonumber)\b/g, '')
    .replace(/\\tag\*?\s*\{[^{}]*\}/g, '')
    .replace(/\n\s*\n/g, '\n')
    .trim();
}

/** A display-math environment as a Markdown `$$` block. */
export function mathBlock(envName: string, body: string): string {
  let inner = cleanMath(body);
  if (ALIGNED_ROW_ENVS.has(envName)) inner = `\\begin{aligned}\n${inner}\n\\end{aligned}`;
  else if (GATHERED_ROW_ENVS.has(envName)) inner = `\\begin{gathered}\n${inner}\n\\end{gathered}`;
  return `$$\n${inner}\n$$`;
}

class Renderer {
  private listDepth: Array<{ ordered: boolean; n: number }> = [];

  constructor(private readonly text: string, private readonly opts: RenderOptions) {}

  private depth = 0;

  render(from: number, to: number): string {
    const t = this.text;
    // pathological nesting is shown raw instead of recursing without bound
    if (this.depth > 40) return t.slice(from, to);
    this.depth++;
    try {
      return this.renderRange(t, from, to);
    } finally {
      this.depth--;
    }
  }

  private renderRange(t: string, from: number, to: number): string {
    let out = '';
    let i = from;
    while (i < to) {
      const c = t.charCodeAt(i);
      if (c === PERCENT) { i = lineEnd(t, i, to); continue; }
      if (c === DOLLAR) {
        const display = t.charCodeAt(i + 1) === DOLLAR;
        const delim = display ? '$$' : '$';
        const close = this.findMathClose(i + delim.length, to, delim);
        const body = t.slice(i + delim.length, close);
        out += display ? `\n\n${mathBlock('equation', body)}\n\n` : `$${body.replace(/\s+/g, ' ').trim()}$`;
        i = Math.min(to, close + delim.length);
        continue;
      }
      if (c === LBRACE) {
        const g = readBraceGroup(t, i, to);
        if (!g) { i++; continue; }
        const m = /^\\(it|em|sl|bf|bfseries|itshape)\b\s*/.exec(t.slice(g.start, Math.min(g.end, g.start + 12)));
        if (m) {
          const mark = SWITCH[m[1]];
          out += `${mark}${this.render(g.start + m[0].length, g.end).trim()}${mark}`;
        } else out += this.render(g.start, g.end);
        i = g.next;
        continue;
      }
      if (c === RBRACE) { i++; continue; }
      if (c === 126 /* ~ */) { out += ' '; i++; continue; }
      if (c === BACKSLASH) { const r = this.command(i, to); out += r.text; i = r.next; continue; }
      if (c === 96 /* ` */ && t.charCodeAt(i + 1) === 96) { out += '“'; i += 2; continue; }
      if (c === 39 /* ' */ && t.charCodeAt(i + 1) === 39) { out += '”'; i += 2; continue; }
      if (c === 45 /* - */ && t.startsWith('---', i)) { out += '—'; i += 3; continue; }
      if (c === 45 && t.startsWith('--', i)) { out += '–'; i += 2; continue; }
      if (c === 10 && /^\n[ \t]*\n/.test(t.slice(i, i + 40))) { out += '\n\n'; i++; continue; }
      out += c === 10 ? ' ' : t[i];
      i++;
    }
    return out;
  }

  private findMathClose(from: number, to: number, delim: string): number {
    for (let k = from; k < to; k++) {
      const c = this.text.charCodeAt(k);
      if (c === BACKSLASH) { k++; continue; }
      if (this.text.startsWith(delim, k)) return k;
    }
    return to;
  }

  private arg(pos: number, to: number): { start: number; end: number; next: number } | null {
    return readBraceGroup(this.text, skipTrivia(this.text, pos, to), to);
  }

  private command(i: number, to: number): { text: string; next: number } {
    const t = this.text;
    const nameEnd = commandNameEnd(t, i + 1, to);
    const name = t.slice(i + 1, nameEnd);
    if (name === '(' || name === '[') {
      const closer = name === '(' ? '\\)' : '\\]';
      let close = t.indexOf(closer, nameEnd);
      if (close < 0 || close > to) close = to;
      const body = t.slice(nameEnd, close);
      const text = name === '(' ? `$${body.replace(/\s+/g, ' ').trim()}$` : `\n\n${mathBlock('equation', body)}\n\n`;
      return { text, next: Math.min(to, close + 2) };
    }
    if (name === 'begin') return this.environment(i, nameEnd, to);
    if (name === 'end') { const e = readEnvName(t, nameEnd, to); return { text: '', next: e ? e.next : nameEnd }; }
    if (name === 'item') {
      let next = nameEnd;
      const o = readBracketGroup(t, skipTrivia(t, next, to), to);
      const top = this.listDepth[this.listDepth.length - 1];
      let bullet = top?.ordered ? `${++top.n}.` : '-';
      if (o) { bullet = `- **${this.render(o.start, o.end).trim()}**`; next = o.next; }
      // the enclosing list environment cuts its body at ITEM to indent each item's lines
      return { text: top ? `${ITEM}${bullet} ` : `\n${bullet} `, next };
    }
    if (name === '\\') return { text: '\n', next: nameEnd };
    const drop = DROP_WITH_ARGS[name];
    if (drop !== undefined) return { text: '', next: this.skipArgs(nameEnd, to, drop) };
    if (FIRST_OF_TWO.has(name)) {
      const g = this.arg(nameEnd, to);
      if (!g) return { text: '', next: nameEnd };
      return { text: this.render(g.start, g.end), next: this.skipArgs(g.next, to, 1) };
    }
    if (ACCENTS[name] !== undefined) {
      const r = this.accent(name, nameEnd, to);
      if (r) return r;
    }
    if (LETTERS[name] !== undefined) {
      // a control word eats the spaces after it; `\L{}` is closed by an empty group
      let next = skipTrivia(t, nameEnd, to);
      if (t.startsWith('{}', next)) next += 2;
      return { text: LETTERS[name], next };
    }
    const wrap = EMPH.has(name) ? '*' : BOLD.has(name) ? '**' : PLAIN_ARG.has(name) ? '' : undefined;
    if (wrap !== undefined) {
      const g = this.arg(nameEnd, to);
      if (!g) return { text: '', next: nameEnd };
      return { text: `${wrap}${this.render(g.start, g.end).trim()}${wrap}`, next: g.next };
    }
    if (REFS.test(name)) {
      const p = t.charCodeAt(nameEnd) === 42 ? nameEnd + 1 : nameEnd;
      if (name === 'hyperref') {
        const o = readBracketGroup(t, p, to);
        const g = o ? this.arg(o.next, to) : null;
        if (g) return { text: this.render(g.start, g.end), next: g.next };
      }
      const g = this.arg(p, to);
      if (!g) return { text: '', next: p };
      const names = t.slice(g.start, g.end).split(',').map((s) => s.trim()).filter(Boolean);
      // `\eqref` prints "(1.2)": the label stands for the number
      if (name === 'eqref') return { text: `(${names.map((n) => `\`${n}\``).join(', ')})`, next: g.next };
      const before = t.slice(Math.max(0, i - 40), i);
      const shown = names.map((n, k) => refShown(n, this.opts.refTarget?.(n), k === 0 ? before : '')).join(', ');
      return { text: shown, next: g.next };
    }
    if (/cite/i.test(name)) {
      let p = nameEnd;
      let note = '';
      for (let k = 0; k < 2; k++) {
        const o = readBracketGroup(t, skipTrivia(t, p, to), to);
        if (!o) break;
        note = t.slice(o.start, o.end);
        p = o.next;
      }
      const g = this.arg(p, to);
      if (!g) return { text: '', next: p };
      return { text: `[${t.slice(g.start, g.end).trim()}${note ? ', ' + note : ''}]`, next: g.next };
    }
    if (name.length === 1 && !/[a-zA-Z]/.test(name)) {
      // escaped character: \% \& \_ \{ ...; spacing commands \, \; \! vanish
      return { text: /[,;:! ]/.test(name) ? ' ' : name === '$' ? TEXT_DOLLAR : name, next: nameEnd };
    }
    // unknown command in text: keep its argument text, drop the command
    return { text: '', next: nameEnd };
  }

  /** Skips an optional star and `[...]` groups, then `n` brace arguments. */
  private skipArgs(pos: number, to: number, n: number): number {
    const t = this.text;
    if (t.charCodeAt(pos) === 42 /* * */) pos++;
    for (;;) {
      const o = readBracketGroup(t, skipTrivia(t, pos, to), to);
      if (!o) break;
      pos = o.next;
    }
    for (let k = 0; k < n; k++) {
      const g = this.arg(pos, to);
      if (!g) break;
      pos = g.next;
    }
    return pos;
  }

  /** `\"u`, `\"{u}`, `\H{o}`, `\'{\i}`: the accented letter (NFC); null if no letter follows. */
  private accent(name: string, pos: number, to: number): { text: string; next: number } | null {
    const t = this.text;
    const p = skipTrivia(t, pos, to);
    const g = t.charCodeAt(p) === LBRACE ? readBraceGroup(t, p, to) : null;
    // `\~{}` is the accent character itself
    if (g && !t.slice(g.start, g.end).trim()) return { text: /[a-z]/i.test(name) ? '' : name, next: g.next };
    const arg = g ? t.slice(g.start, g.end).trim() : t.slice(p, commandNameEnd(t, p + 1, to));
    const base = /^[A-Za-z]/.test(arg) ? arg[0] : /^\\[ij]$/.test(arg) ? arg[1] : undefined;
    // only a single letter (or a dotless \i, \j) is accented; `\c{text}` is something else
    if (!base || (g && arg.length > (arg[0] === '\\' ? 2 : 1))) return null;
    return { text: (base + ACCENTS[name]).normalize('NFC'), next: g ? g.next : p + (arg[0] === '\\' ? 2 : 1) };
  }

  private environment(i: number, nameEnd: number, to: number): { text: string; next: number } {
    const t = this.text;
    const env = readEnvName(t, nameEnd, to);
    if (!env) return { text: '', next: nameEnd };
    const endTag = `\\end{${env.name}}`;
    // find the matching end, counting nested environments of the same name
    let depth = 1;
    let k = env.next;
    let close = to;
    const beginTag = `\\begin{${env.name}}`;
    while (k < to) {
      const nb = t.indexOf(beginTag, k);
      const ne = t.indexOf(endTag, k);
      if (ne < 0 || ne >= to) break;
      if (nb >= 0 && nb < ne) { depth++; k = nb + beginTag.length; continue; }
      if (--depth === 0) { close = ne; break; }
      k = ne + endTag.length;
    }
    const next = Math.min(to, close === to ? to : close + endTag.length);
    if (DISPLAY_MATH_ENVS[env.name] !== undefined) {
      let bodyStart = env.next;
      if (/^x*alignat/.test(env.name)) { const g = this.arg(bodyStart, close); if (g) bodyStart = g.next; }
      return { text: `\n\n${mathBlock(env.name, t.slice(bodyStart, close))}\n\n`, next };
    }
    if (/^(enumerate|itemize|description|compactenum|compactitem)\*?$/.test(env.name)) {
      let start = env.next;
      const o = readBracketGroup(t, skipTrivia(t, start, close), close);
      if (o) start = o.next;
      this.listDepth.push({ ordered: env.name.startsWith('enumerate') || env.name === 'compactenum', n: 0 });
      const body = this.render(start, close);
      this.listDepth.pop();
      // Each item's later lines (a nested list, display math, paragraphs) are indented to the
      // column after its marker ("1. " -> 3), so CommonMark keeps them inside the item; nested
      // lists were indented the same way when they closed, so levels add up.
      const [before, ...parts] = body.split(ITEM);
      const items = parts.map((item) => {
        const marker = /^(\d+\.|- \*\*.*?\*\*|-) /.exec(item)?.[1] ?? '-';
        const width = /^\d/.test(marker) ? marker.length + 1 : 2;
        const lines = item.slice(marker.length).trim().split('\n');
        return [`${marker} ${lines[0].trim()}`, ...lines.slice(1).map((l) => (l.trim() ? INDENT.repeat(width) + l.replace(/^[ \t]+/, '') : ''))].join('\n');
      });
      const nested = this.listDepth.length > 0;
      return { text: `${nested ? '\n' : '\n\n'}${before.trim() ? `${before.trim()}\n` : ''}${items.join('\n')}\n\n`, next };
    }
    if (/^(tikzpicture|tikzcd|xy|picture|figure|table|tabular)\*?$/.test(env.name)) {
      return { text: `\n\n*[${env.name}]*\n\n`, next };
    }
    return { text: this.render(env.next, close), next };
  }
}
