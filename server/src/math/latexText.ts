// Offset-preserving LaTeX text helpers for display math. Everything that is dropped from an
// expression is *blanked* (replaced by spaces of the same length), so offsets into the
// cleaned text are offsets into the source: step ranges need no mapping back.
import { commandNameEnd } from '../syntax/lexer.js';

export function blank(s: string, start: number, end: number): string {
  return s.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + s.slice(end);
}

/** Comments (`%` to end of line, unless escaped) become spaces. */
export function blankComments(s: string): string {
  let out = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') { i++; continue; }
    if (c === '%') {
      let e = s.indexOf('\n', i);
      if (e < 0) e = s.length;
      out = blank(out, i, e);
      i = e;
    }
  }
  return out;
}

/** End of the command name starting at `i` (just after the backslash). */
export function commandEnd(s: string, i: number): number {
  return commandNameEnd(s, i, s.length);
}

/**
 * `s[i]` is `{` (or `[`): index just after the matching close, or -1. Bounded by the string.
 * Not syntax/lexer.ts readBraceGroup/readBracketGroup: `%` is a character here (the step reader
 * blanks comments first, `blankComments`), `[…]` nest, and no blank line ends a group.
 */
export function groupEnd(s: string, i: number): number {
  const open = s[i];
  const close = open === '[' ? ']' : '}';
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') { j++; continue; }
    if (open === '[' && c === '{') { const e = groupEnd(s, j); if (e < 0) return -1; j = e - 1; continue; }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return j + 1;
  }
  return -1;
}

export function skipSpaces(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i])) i++;
  return i;
}

/** Index after one TeX argument at `i` (a brace group or a single token), or -1. */
export function argEnd(s: string, i: number): number {
  i = skipSpaces(s, i);
  if (i >= s.length) return -1;
  if (s[i] === '{') return groupEnd(s, i);
  if (s[i] === '\\') return commandEnd(s, i + 1);
  return i + 1;
}

/** 32-bit FNV-1a hash as a base-36 string: cache keys for step and block texts. */
export function hashText(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + s.length.toString(36);
}
