// Splits LaTeX (or rendered text with `$…$` math) into raw units, tracking math mode, so the
// tokenizer can keep math tokens (commands, single letters, digits, symbols) apart from text
// words, and symbol renaming can rewrite math letters in place by offset. One linear pass;
// `\text{…}` inside math is scanned as text, `$…$` inside `\text{…}` as math again.

import { labelWords } from './labelWords.js';

export type RawKind = 'math' | 'text';
export type RawType = 'cmd' | 'letter' | 'digit' | 'sym' | 'word' | 'env';

export interface RawToken {
  kind: RawKind;
  type: RawType;
  /** `\frac`, `x`, `7`, `+`, `theorem` (text words lower-cased), `\begin{align}`. */
  text: string;
  start: number;
  end: number;
}

/** Return false to stop the scan (e.g. once enough tokens were produced). */
export type RawSink = (t: RawToken) => boolean | void;

// Not syntax/displayMath.ts DISPLAY_MATH_ENVS: the trained encoders read the tokens of this list.
const MATH_ENVS = new Set([
  'equation', 'align', 'gather', 'multline', 'eqnarray', 'displaymath', 'math', 'flalign', 'alignat',
  'equation*', 'align*', 'gather*', 'multline*', 'eqnarray*', 'flalign*', 'alignat*',
]);
/** Commands whose first brace argument is text inside math. */
const TEXT_IN_MATH = new Set(['\\text', '\\textrm', '\\textit', '\\textbf', '\\textup', '\\textsf', '\\mbox', '\\hbox', '\\textnormal', '\\intertext']);
/** Commands whose argument is an identifier or a path, not content: the argument is dropped. */
const SKIP_ARG = new Set(['\\label', '\\cite', '\\citep', '\\citet', '\\url', '\\includegraphics', '\\input', '\\include', '\\bibliography', '\\bibliographystyle', '\\pageref', '\\hyperref', '\\href', '\\nocite']);
/**
 * References: the argument is a label, read as the words it is made of (labelWords.ts). A proof
 * that is one line of \ref's ("By Lemmas \ref{lemma-flat-base-change} and …") says what it
 * uses only there, as a ProofWiki proof does by naming the results it links. A statement's own
 * \label stays dropped: its name is not its content.
 */
const REF_ARG = new Set(['\\ref', '\\eqref', '\\cref', '\\Cref', '\\autoref', '\\nameref', '\\vref', '\\Vref']);
/** Spacing and layout commands that carry no meaning. */
const SILENT = new Set(['\\,', '\\;', '\\:', '\\!', '\\ ', '\\quad', '\\qquad', '\\\\', '\\displaystyle', '\\ds', '\\left', '\\right', '\\bigl', '\\bigr', '\\Bigl', '\\Bigr', '\\big', '\\Big', '\\nonumber', '\\notag', '\\medskip', '\\noindent', '\\smallskip', '\\bigskip', '\\hfill', '\\newline', '\\par', '\\mathop', '\\limits', '\\nolimits']);

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
// Not syntax/lexer.ts isSpace (nor its copies): the trained encoders read the tokens this scanner makes.
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 160;
const LETTER_RE = /\p{L}/u;
const isLetterChar = (ch: string) => LETTER_RE.test(ch);

/**
 * Index after the brace group starting at `i` (which must be `{`), or `i` if none; bounded. Not
 * syntax/lexer.ts readBraceGroup (which skips `%` comments and gives up on an unclosed group):
 * the trained encoders read the tokens this scanner makes.
 */
export function skipGroup(s: string, i: number, limit = 100_000): number {
  if (s.charCodeAt(i) !== 123) return i;
  let depth = 0;
  const end = Math.min(s.length, i + limit);
  for (let j = i; j < end; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) { j++; continue; }
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return j + 1;
  }
  return end;
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Reads `\name` (letters, optional `*`) or `\x` at `i`; returns the end index. */
function commandEnd(s: string, i: number): number {
  let j = i + 1;
  if (j < s.length && isAsciiLetter(s.charCodeAt(j))) {
    while (j < s.length && isAsciiLetter(s.charCodeAt(j))) j++;
    if (s.charCodeAt(j) === 42) j++; // starred form
    return j;
  }
  return Math.min(s.length, j + 1);
}

/** A code point (surrogate pairs included) at `i`. */
function charAt(s: string, i: number): string {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? s.slice(i, i + 2) : s[i];
}

/** Scans `s[from, to)` starting in `mode`; calls `sink` per unit. Returns false if stopped. */
export function scanLatex(s: string, sink: RawSink, mode: RawKind = 'text', from = 0, to = s.length): boolean {
  // Math closes on its own delimiter; `closer` is what ends the current math region.
  let closer: string | undefined = mode === 'math' ? '' : undefined;
  let i = from;
  const emit = (kind: RawKind, type: RawType, text: string, start: number, end: number) => sink({ kind, type, text, start, end }) !== false;
  while (i < to) {
    const c = s.charCodeAt(i);
    const inMath = closer !== undefined;
    if (isSpace(c)) { i++; continue; }
    if (c === 37) { // % comment
      const nl = s.indexOf('\n', i);
      i = nl < 0 || nl > to ? to : nl + 1;
      continue;
    }
    if (c === 36) { // $ or $$
      const dbl = s.charCodeAt(i + 1) === 36;
      const d = dbl ? '$$' : '$';
      if (inMath) {
        if (closer === d || closer === '') { closer = mode === 'math' ? '' : undefined; i += d.length; if (mode === 'math') return true; continue; }
        i += d.length; continue;
      }
      closer = d; i += d.length; continue;
    }
    if (c === 92) { // backslash
      const e = commandEnd(s, i);
      const cmd = s.slice(i, e);
      if (!inMath && (cmd === '\\(' || cmd === '\\[')) { closer = cmd === '\\(' ? '\\)' : '\\]'; i = e; continue; }
      if (inMath && (cmd === '\\)' || cmd === '\\]')) { closer = mode === 'math' ? '' : undefined; i = e; continue; }
      if (cmd === '\\begin' || cmd === '\\end') {
        const g0 = skipSpaces(s, e);
        const g1 = skipGroup(s, g0, 200);
        const env = s.slice(g0 + 1, g1 - 1).trim();
        if (g1 === g0) { i = e; continue; }
        if (cmd === '\\begin') {
          if (!inMath && MATH_ENVS.has(env)) closer = `\\end{${env}}`;
          if (!emit(closer !== undefined ? 'math' : 'text', 'env', `\\begin{${env}}`, i, g1)) return false;
        } else if (inMath && closer === `\\end{${env}}`) {
          closer = mode === 'math' ? '' : undefined;
        }
        i = g1;
        continue;
      }
      if (SILENT.has(cmd)) { i = e; continue; }
      if (SKIP_ARG.has(cmd)) {
        let j = skipSpaces(s, e);
        if (s.charCodeAt(j) === 91) { const k = s.indexOf(']', j); j = k < 0 ? j : skipSpaces(s, k + 1); }
        i = skipGroup(s, j, 2000);
        if (cmd === '\\href') i = skipSpaces(s, i); // the link text that follows is content
        continue;
      }
      if (REF_ARG.has(cmd)) {
        const g0 = skipSpaces(s, e);
        const g1 = skipGroup(s, g0, 2000);
        if (g1 > g0) {
          for (const key of s.slice(g0 + 1, g1 - 1).split(',')) {
            for (const w of labelWords(key).split(' ')) if (w && !emit('text', 'word', w.toLowerCase(), g0, g1)) return false;
          }
        }
        i = Math.max(g1, e);
        continue;
      }
      if (inMath && TEXT_IN_MATH.has(cmd)) {
        const g0 = skipSpaces(s, e);
        const g1 = skipGroup(s, g0);
        if (g1 > g0 && !scanLatex(s, sink, 'text', g0 + 1, g1 - 1)) return false;
        i = Math.max(g1, e);
        continue;
      }
      const kind: RawKind = inMath ? 'math' : 'text';
      const isName = e > i + 1 && isAsciiLetter(s.charCodeAt(i + 1));
      if (!emit(kind, isName ? 'cmd' : 'sym', isName ? cmd : cmd.slice(1), i, e)) return false;
      i = e;
      continue;
    }
    if (inMath) {
      if (c === 123 || c === 125 || c === 38) { i++; continue; } // braces and & are layout, not content
      const ch = charAt(s, i);
      const type: RawType = isDigit(c) ? 'digit' : isLetterChar(ch) ? 'letter' : 'sym';
      if (!emit('math', type, ch, i, i + ch.length)) return false;
      i += ch.length;
      continue;
    }
    // text mode: words (letters), numbers (digit runs), single symbols
    const ch = charAt(s, i);
    if (isLetterChar(ch)) {
      let j = i + ch.length;
      while (j < to) { const d = charAt(s, j); if (!isLetterChar(d)) break; j += d.length; }
      if (!emit('text', 'word', s.slice(i, j).toLowerCase(), i, j)) return false;
      i = j;
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < to && isDigit(s.charCodeAt(j))) j++;
      if (!emit('text', 'word', s.slice(i, j), i, j)) return false;
      i = j;
    } else {
      if (c !== 123 && c !== 125 && !emit('text', 'sym', ch, i, i + ch.length)) return false;
      i += ch.length;
    }
  }
  return true;
}
