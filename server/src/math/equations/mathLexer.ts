// A small lexer for the LaTeX of one formula: the tokens `canonicalFormula` renames and
// reprints, and that the structural features are n-grams of. One linear pass; the arguments
// of text and font commands (`\text{…}`, `\mathrm{d}`, `\mathbb{R}`, `\operatorname{sech}`)
// and the rest of a group after an old-style switch (`{\rm d}`) become one raw token, so
// the letters inside are never taken for variables.
import { groupEnd } from '../latexText.js';
import { isSpaceOrNbsp } from '../../syntax/lexer.js';

export type TokenType = 'cmd' | 'letter' | 'number' | 'sym' | 'open' | 'close' | 'raw';

export interface MathToken {
  type: TokenType;
  /** `\frac`, `x`, `2.5`, `+`, `{`, `}`, or a raw group `{if }` (whitespace collapsed). */
  text: string;
}

/** Commands whose argument is words or a name, never variables. */
export const LITERAL_ARG = new Set([
  'text', 'textrm', 'textit', 'textbf', 'textup', 'textsf', 'texttt', 'textnormal', 'mbox', 'hbox', 'emph',
  'mathrm', 'mathbb', 'mathcal', 'mathfrak', 'mathscr', 'mathbf', 'mathsf', 'mathtt', 'mathit', 'boldsymbol', 'bm',
  'mathbbm', 'operatorname', 'operatorname*', 'begin', 'end', 'label', 'tag', 'tag*', 'ref', 'eqref', 'cite',
  'hspace', 'hspace*', 'vspace', 'vspace*', 'intertext', 'shortintertext', 'color', 'textcolor', 'phantom', 'hphantom', 'vphantom',
]);

/** Old-style font switches: the rest of the enclosing group is literal. */
const SWITCHES = new Set(['rm', 'bf', 'it', 'cal', 'sf', 'tt', 'frak', 'Bbb', 'mit']);

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** End of the rest of the current group from `i` (before its `}`), or the end of the text. */
function restOfGroup(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) { j++; continue; }
    if (c === 123) depth++;
    else if (c === 125) { if (depth === 0) return j; depth--; }
  }
  return s.length;
}

const collapse = (t: string): string => t.replace(/\s+/g, ' ');

/** Tokens of a formula; comments are skipped. `maxTokens` bounds the work on huge inputs. */
export function lexMath(s: string, maxTokens = 20000): MathToken[] {
  const out: MathToken[] = [];
  let i = 0;
  const n = s.length;
  while (i < n && out.length < maxTokens) {
    const c = s.charCodeAt(i);
    if (isSpaceOrNbsp(c)) { i++; continue; }
    if (c === 37) { // % comment
      const e = s.indexOf('\n', i);
      i = e < 0 ? n : e + 1;
      continue;
    }
    if (c === 92) { // backslash
      let j = i + 1;
      if (j < n && isLetter(s.charCodeAt(j))) {
        while (j < n && isLetter(s.charCodeAt(j))) j++;
        if (s[j] === '*' && LITERAL_ARG.has(s.slice(i + 1, j) + '*')) j++;
      } else j = Math.min(n, j + 1);
      const name = s.slice(i + 1, j);
      out.push({ type: 'cmd', text: s.slice(i, j) });
      i = j;
      if (LITERAL_ARG.has(name)) {
        let k = i;
        while (k < n && isSpaceOrNbsp(s.charCodeAt(k))) k++;
        // `\operatorname*{…}`, `\textcolor{red}{…}`: the first brace group is the literal
        // (the math reader of latexText.ts, `%` a character in it, an unclosed group running to the end;
        // not syntax/lexer.ts readBraceGroup: the canonical forms in the built index were read so)
        if (s[k] === '{') { const g = groupEnd(s, k); const e = g < 0 ? n : g; out.push({ type: 'raw', text: collapse(s.slice(k, e)) }); i = e; }
        else if (k < n && s[k] !== '\\') { out.push({ type: 'raw', text: s[k] }); i = k + 1; }
      } else if (SWITCHES.has(name)) {
        const e = restOfGroup(s, i);
        const t = s.slice(i, e).trim();
        if (t) out.push({ type: 'raw', text: collapse(t) });
        i = e;
      }
      continue;
    }
    const prev = out.length ? out[out.length - 1].text : '';
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1) || 0))) {
      // a script takes one digit: `x^23` is x^{2}3
      if (prev === '^' || prev === '_') { out.push({ type: 'number', text: s[i] }); i++; continue; }
      let j = i;
      while (j < n && isDigit(s.charCodeAt(j))) j++;
      if (s[j] === '.' && isDigit(s.charCodeAt(j + 1) || 0)) { j++; while (j < n && isDigit(s.charCodeAt(j))) j++; }
      out.push({ type: 'number', text: s.slice(i, j) });
      i = j;
      continue;
    }
    if (isLetter(c)) { out.push({ type: 'letter', text: s[i] }); i++; continue; }
    if (c === 123) { out.push({ type: 'open', text: '{' }); i++; continue; }
    if (c === 125) { out.push({ type: 'close', text: '}' }); i++; continue; }
    // one code point (surrogate pairs stay whole)
    const cp = s.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    out.push({ type: 'sym', text: s.slice(i, i + w) });
    i += w;
  }
  return out;
}

/** Prints tokens with single spaces, none around braces and scripts (`\frac{a}{b}`, `x^{2}`). */
export function printTokens(tokens: readonly MathToken[]): string {
  let out = '';
  let prev: MathToken | undefined;
  for (const t of tokens) {
    if (prev) {
      const tight = prev.type === 'open' || t.type === 'close' || t.type === 'open'
        || t.text === '^' || t.text === '_' || prev.text === '^' || prev.text === '_' || (t.type === 'raw' && prev.type === 'cmd');
      // a control word must be separated from a following letter
      const needed = prev.type === 'cmd' && /^\\[A-Za-z]+\*?$/.test(prev.text) && /^[A-Za-z]/.test(t.text);
      if (!tight || needed) out += ' ';
    }
    out += t.text;
    prev = t;
  }
  return out;
}
