// Seeded random mutations of LaTeX text, for the fuzz suites (syntax/fuzz.corpus.test.ts on the
// document model, protocol/fuzz.corpus.test.ts on the server over stdio): snippets of LaTeX structure
// and garbage, deletions, moves, truncations, CRLF runs, paired openers and closers.
import { seededRandom } from '../util/random.js';

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) { this.next = seededRandom(seed); }
  float(): number { return this.next(); }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  pick<T>(a: readonly T[]): T { return a[Math.floor(this.next() * a.length)]; }
  chance(p: number): boolean { return this.next() < p; }
  /** Mostly small lengths, sometimes large ones (up to max). */
  length(max: number): number {
    const r = this.next();
    if (r < 0.5) return this.int(1, Math.min(max, 8));
    if (r < 0.85) return this.int(1, Math.min(max, 200));
    return this.int(1, max);
  }
}

// ---- mutations ----------------------------------------------------------------------------

const ENV_NAMES = [
  'theorem', 'lemma', 'proof', 'equation', 'equation*', 'align', 'align*', 'alignat', 'gather', 'eqnarray',
  'itemize', 'enumerate', 'verbatim', 'comment', 'lstlisting', 'document', 'multicols', 'definition',
  'lem', 'thm', 'defn', 'foo', 'x y', '', 'tikzpicture', 'array', 'displaymath', 'reference',
];

const UNICODE = [
  '\u0000', '\u00e9', '\u00df', '\u2200', '\u2192', '\u{1d4aa}', '\u{1f600}', '\ud800', '\udfff', '\ufeff',
  '\ufffd', '\u2028', '\u2029', '\u0301', '\u200b', '\u05d0', '\u4e2d', '\u000b', '\u000c', '\u0085',
];

export function snippet(rng: Rng): string {
  const env = rng.pick(ENV_NAMES);
  const n = rng.int(0, 9);
  const options: Array<() => string> = [
    () => '{', () => '}', () => '{{', () => '}}', () => '{'.repeat(rng.int(1, 50)), () => '}'.repeat(rng.int(1, 50)),
    () => `\\begin{${env}}`, () => `\\end{${env}}`, () => `\\begin{${env}}[Title ${n}]`, () => `\\begin{${env}}[`, () => ']', () => '\\begin{', () => '\\end{',
    () => `\\begin {${env}}`, () => `\\begin%\n{${env}}`,
    () => '$', () => '$$', () => '\\[', () => '\\]', () => '\\(', () => '\\)', () => '$x$', () => '$$\nx\n$$',
    () => '%', () => '% ', () => '%\n', () => '\\%',
    () => '\\verb|', () => '\\verb|x|', () => '\\verb', () => '\\verb{', () => '\\verb*+a+', () => '\\lstinline{', () => '\\url{',
    () => '\\iffalse', () => '\\fi', () => '\\else', () => '\\ifx',
    () => '\\\\', () => '\\\\[2pt]', () => '\\\\*', () => '\\notag', () => '\\', () => '\\@', () => '#1', () => '&',
    () => '\n', () => '\n\n', () => '\n  \n', () => '\n\n\n\n', () => '\r\n', () => '\r\n\r\n', () => '\r', () => '\t\n',
    () => rng.pick(UNICODE), () => rng.pick(UNICODE).repeat(rng.int(1, 20)),
    () => `\\label{fz-${n}}`, () => `\\label{`, () => `\\ref{fz-${n}}`, () => `\\cref{fz-${n},fz-${n + 1}}`, () => `\\eqref{fz-${n}}`,
    () => '\\crefrange{a}{b}', () => '\\hyperref[fz-1]{x}', () => `\\cite[p.~${n}]{key${n}}`, () => '\\cite{',
    () => `\\section{Title ${n}}`, () => '\\section*{', () => '\\subsection[', () => '\n\\chapter{X}\n', () => '\\paragraph{P}',
    () => '\\input{foo}', () => '\\include{bar}', () => '\\input foo.tex ', () => '\\externaldocument[p-]{q}', () => '\\import{d/}{f}',
    () => '\\newtheorem{lem}{Lemma}', () => '\\newtheorem{x}[lem]{X}[section]', () => '\\theoremstyle{definition}',
    () => '\\declaretheorem[name=Foo]{foo}',
    () => '\\newcommand{\\x}{', () => '\\newcommand{\\x}[1]{#1}', () => '\\def\\y{', () => '\\def\\y#1#2{', () => '\\let\\a\\b',
    () => '\\newenvironment{e}{\\begin{x}}{', () => '\\renewcommand*{\\z}[2][d]{\\begin{proof}}',
    () => '\\defthm{lem}{Lemma}{Lemmas}', () => '\\def\\defthm#1#2#3{\\newtheorem{#1}[#1]{#2}}',
    () => '\\documentclass{article}', () => '\\begin{document}', () => '\\end{document}', () => '%!TeX root = main.tex\n',
    () => '% !TEX program = xelatex\n',
    () => garbage(rng, rng.int(1, 40)),
  ];
  return rng.pick(options)();
}

const GARBAGE = '{}[]$%\\\n &#^_ab\r\t()*';
export function garbage(rng: Rng, len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) s += GARBAGE[rng.int(0, GARBAGE.length - 1)];
  return s;
}

/** One edit in offsets of the text it applies to. */
export interface Edit { start: number; end: number; text: string }

const STRUCTURE_RE = /\\(?:begin|end)\s*\{[^}\n]*\}|\\label\{[^}\n]*\}|\\(?:sub)*section\*?|\\chapter|\$\$|\\\[|\\\]|\\verb|\\newcommand|\\def|[{}$%]|\n\s*\n/g;

/** Offsets of `text` must not fall between the CR and LF of a CRLF: LSP positions cannot express that. */
export function snap(text: string, off: number): number {
  off = Math.max(0, Math.min(text.length, off));
  if (off > 0 && off < text.length && text.charCodeAt(off - 1) === 13 && text.charCodeAt(off) === 10) off--;
  return off;
}

export function edit(text: string, start: number, end: number, ins: string): Edit {
  const s = snap(text, Math.min(start, end));
  const e = snap(text, Math.max(start, end));
  return { start: s, end: Math.max(s, e), text: ins };
}

/** A random structural position: near a `\begin`, a brace, a blank line, ... (or anywhere). */
export function structuralPos(rng: Rng, text: string): { start: number; end: number } {
  const at = rng.int(0, text.length);
  STRUCTURE_RE.lastIndex = at;
  const m = STRUCTURE_RE.exec(text);
  if (!m) return { start: at, end: at };
  return { start: m.index, end: m.index + m[0].length };
}

/**
 * One mutation as a list of edits, each in the coordinates of the text left by the previous
 * one. `text` is the text before the first edit.
 */
export function mutation(rng: Rng, text: string): { kind: string; edits: Edit[] } {
  const len = text.length;
  const pos = (): number => rng.int(0, len);
  const r = rng.int(0, 13);
  switch (r) {
    case 0: { // deletion
      const a = pos();
      return { kind: 'delete', edits: [edit(text, a, a + rng.length(3000), '')] };
    }
    case 1: { // duplication of a range
      const a = pos();
      const b = Math.min(len, a + rng.length(3000));
      const c = pos();
      return { kind: 'duplicate', edits: [edit(text, c, c, text.slice(a, b))] };
    }
    case 2: case 3: { // snippet insertion (one or a few)
      const a = pos();
      let s = '';
      for (let k = rng.int(1, 3); k > 0; k--) s += snippet(rng);
      return { kind: 'insert', edits: [edit(text, a, a, s)] };
    }
    case 4: { // replace a range with a snippet
      const a = pos();
      return { kind: 'replace', edits: [edit(text, a, a + rng.length(500), snippet(rng))] };
    }
    case 5: { // structural deletion or replacement
      const { start, end } = structuralPos(rng, text);
      return { kind: 'structural', edits: [edit(text, start, end, rng.chance(0.5) ? '' : snippet(rng))] };
    }
    case 6: { // insertion at a structural position (before or after it)
      const { start, end } = structuralPos(rng, text);
      const a = rng.chance(0.5) ? start : end;
      return { kind: 'structural-insert', edits: [edit(text, a, a, snippet(rng))] };
    }
    case 7: { // CRLF conversion of a range
      const a = pos();
      const b = Math.min(len, a + rng.length(5000));
      const e = edit(text, a, b, '');
      e.text = text.slice(e.start, e.end).replace(/\r?\n/g, '\r\n');
      return { kind: 'crlf', edits: [e] };
    }
    case 8: { // truncation
      const a = pos();
      return { kind: 'truncate', edits: [edit(text, a, len, '')] };
    }
    case 9: { // move a range: delete, then insert elsewhere
      const a = pos();
      const e1 = edit(text, a, a + rng.length(2000), '');
      const moved = text.slice(e1.start, e1.end);
      const after = text.slice(0, e1.start) + text.slice(e1.end);
      const c = rng.int(0, after.length);
      return { kind: 'move', edits: [e1, edit(after, c, c, moved)] };
    }
    case 10: { // merge or split paragraphs
      const at = pos();
      const i = text.indexOf('\n\n', at);
      if (i >= 0 && rng.chance(0.6)) return { kind: 'merge', edits: [edit(text, i, i + 1, rng.chance(0.5) ? '' : ' ')] };
      const ls = text.lastIndexOf('\n', at) + 1;
      return { kind: 'split', edits: [edit(text, ls, ls, rng.pick(['\n', '\n\n', '\\section{S}\n', '  \n']))] };
    }
    case 11: { // random garbage or unicode
      const a = pos();
      const s = rng.chance(0.5) ? garbage(rng, rng.int(1, 60)) : Array.from({ length: rng.int(1, 10) }, () => rng.pick(UNICODE)).join('');
      return { kind: 'garbage', edits: [edit(text, a, a + (rng.chance(0.3) ? rng.length(50) : 0), s)] };
    }
    case 12: { // two related edits far apart: open something, close it later
      const a = pos();
      const b = rng.int(a, len);
      const [open, close] = rng.pick([
        ['\\newcommand{\\x}{', '}'], ['\\url{', '}'], ['\\verb{', '}'], ['{', '}'], ['\\begin{proof}', '\\end{proof}'],
        ['\\begin{verbatim}', '\\end{verbatim}'], ['$$', '$$'], ['\\[', '\\]'], ['\\begin{lemma}', '\\end{lemma}'],
        ['\\def\\q{', '}'], ['\\begin{comment}', '\\end{comment}'], ['\\iffalse', '\\fi'],
      ] as const);
      const e2 = edit(text, b, b, close);
      const e1 = edit(text, a, a, open);
      // apply the later one first so both are in the coordinates of the original text
      return { kind: 'open-close', edits: rng.chance(0.5) ? [e2, e1] : [e1, { ...e2, start: e2.start + open.length, end: e2.end + open.length }] };
    }
    default: { // several small random edits
      const edits: Edit[] = [];
      let cur = text;
      for (let k = rng.int(2, 6); k > 0; k--) {
        const a = rng.int(0, cur.length);
        const e = edit(cur, a, a + (rng.chance(0.5) ? rng.length(20) : 0), rng.chance(0.7) ? snippet(rng) : '');
        edits.push(e);
        cur = cur.slice(0, e.start) + e.text + cur.slice(e.end);
      }
      return { kind: 'multi', edits };
    }
  }
}

export function applyEdit(text: string, e: Edit): string {
  return text.slice(0, e.start) + e.text + text.slice(e.end);
}
