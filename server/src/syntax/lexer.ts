// Low-level character helpers shared by the block splitter and the block analyser.
// Everything here is bounded: a reader never scans past the `limit` it is given, so a
// malformed document (unclosed braces, a stray `\begin{`) costs at most linear time.

export const BACKSLASH = 92;
export const PERCENT = 37;
export const LBRACE = 123;
export const RBRACE = 125;
export const LBRACKET = 91;
export const RBRACKET = 93;
export const NEWLINE = 10;
export const CR = 13;
export const DOLLAR = 36;
export const SPACE = 32;
export const TAB = 9;

export function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 64; // a-z A-Z @
}

export function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === NEWLINE;
}

export const FORM_FEED = 12;
export const NBSP = 160;

/** A space, a form feed or a no-break space (U+00A0): the blanks a formula's reader skips. */
export function isSpaceOrNbsp(c: number): boolean {
  return isSpace(c) || c === FORM_FEED || c === NBSP;
}

/** Skips spaces, tabs and newlines (not comments, not a paragraph's end: see skipTrivia). */
export function skipSpaces(text: string, pos: number): number {
  while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

/** `pos` is just after a backslash; returns the end of the command name (letters, or one symbol). */
export function commandNameEnd(text: string, pos: number, limit: number): number {
  if (pos >= limit) return pos;
  if (!isLetter(text.charCodeAt(pos))) return pos + 1;
  let i = pos + 1;
  while (i < limit && isLetter(text.charCodeAt(i))) i++;
  return i;
}

/** Position of the newline ending the line that contains `pos` (or `limit`). */
export function lineEnd(text: string, pos: number, limit: number): number {
  const i = text.indexOf('\n', pos);
  return i < 0 || i > limit ? limit : i;
}

/**
 * Skips spaces, tabs, single newlines and comments. Stops before a blank line, since a
 * paragraph break ends an argument list in TeX.
 */
export function skipTrivia(text: string, pos: number, limit: number): number {
  let newlines = 0;
  while (pos < limit) {
    const c = text.charCodeAt(pos);
    if (c === SPACE || c === TAB || c === CR) pos++;
    else if (c === NEWLINE) {
      if (++newlines > 1) return pos;
      pos++;
    } else if (c === PERCENT) {
      pos = lineEnd(text, pos, limit) + 1;
      newlines = 0;
    } else break;
  }
  return Math.min(pos, limit);
}

export interface Group {
  /** Offset of the first character inside the delimiters. */
  start: number;
  /** Offset of the closing delimiter. */
  end: number;
  /** Offset just after the closing delimiter. */
  next: number;
}

/**
 * Reads a balanced `{...}` group starting exactly at `pos`. Escaped braces and comments
 * are respected. Returns null when `pos` is not `{` or the group does not close before
 * `limit` (or, with `paragraph`, before a blank line).
 */
export function readBraceGroup(text: string, pos: number, limit: number, paragraph = false): Group | null {
  if (pos >= limit || text.charCodeAt(pos) !== LBRACE) return null;
  let depth = 0;
  for (let i = pos; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === PERCENT) i = lineEnd(text, i, limit) - 1;
    else if (c === NEWLINE) { if (paragraph && isBlankLineAt(text, i + 1, limit)) return null; }
    else if (c === LBRACE) depth++;
    else if (c === RBRACE && --depth === 0) return { start: pos + 1, end: i, next: i + 1 };
  }
  return null;
}

/**
 * A brace group that must close before the next paragraph break. The block splitter only
 * looks ahead with this reader: its decisions then never depend on text past the next blank
 * line, which is what lets an edit be re-split starting from the block before it.
 */
export function readParagraphGroup(text: string, pos: number, limit: number): Group | null {
  return readBraceGroup(text, pos, limit, true);
}

/**
 * Brace matching for definition arguments, computed in a single stack pass over a window and
 * reused: long look-aheads (definition bodies) answer in O(1) instead of rescanning, so a run
 * of unclosed `\newcommand{\a}{` stays linear. A definition body may hold blank lines
 * (`\newcommand` is long: a package's macros often do), so the window does not stop at
 * paragraph breaks; it is bounded instead, and a group that does not close within
 * `maxLength` is no group. Whoever splits text at blank lines must therefore look back at
 * least MAX_DEFINITION characters before an edit (model/latexDocument.ts#applyEdit).
 */
export class DefinitionBraces {
  private from = 0;
  private to = -1;
  private readonly close = new Map<number, number>();

  constructor(private readonly text: string, private readonly limit: number) {}

  /** The group starting with the `{` at `pos`, if it closes within `maxLength` characters. */
  group(pos: number, maxLength: number): Group | null {
    if (pos >= this.limit || this.text.charCodeAt(pos) !== LBRACE) return null;
    if (pos < this.from || pos >= this.to || (pos + maxLength > this.to && this.to < this.limit)) this.index(pos, maxLength);
    const c = this.close.get(pos);
    return c !== undefined && c - pos <= maxLength ? { start: pos + 1, end: c, next: c + 1 } : null;
  }

  /** Matches braces in [from, from + 4 maxLength): a group's match does not depend on where the scan began. */
  private index(from: number, maxLength: number): void {
    const { text } = this;
    const limit = Math.min(this.limit, from + 4 * maxLength);
    this.close.clear();
    this.from = from;
    const stack: number[] = [];
    let i = from;
    for (; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH) i++;
      else if (c === PERCENT) i = lineEnd(text, i, limit) - 1;
      else if (c === LBRACE) stack.push(i);
      else if (c === RBRACE && stack.length) this.close.set(stack.pop()!, i);
    }
    this.to = Math.max(limit, from + 1);
  }
}

/** Longest look-ahead for definition bodies and verbatim-like arguments. */
export const MAX_DEFINITION = 12_000;

/** Reads `[...]` at `pos`; brackets inside braces do not count. */
export function readBracketGroup(text: string, pos: number, limit: number): Group | null {
  if (pos >= limit || text.charCodeAt(pos) !== LBRACKET) return null;
  let braces = 0;
  for (let i = pos + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === PERCENT) i = lineEnd(text, i, limit);
    else if (c === LBRACE) braces++;
    else if (c === RBRACE) braces = Math.max(0, braces - 1);
    else if (c === RBRACKET && braces === 0) return { start: pos + 1, end: i, next: i + 1 };
    else if (c === NEWLINE && i + 1 < limit && isBlankLineAt(text, i + 1, limit)) return null;
  }
  return null;
}

/** True when the line starting at `pos` holds only spaces/tabs (a paragraph break). */
export function isBlankLineAt(text: string, pos: number, limit: number): boolean {
  for (let i = pos; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) return true;
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

/** Reads an environment name group `{name}` at `pos` (short, single line). */
export function readEnvName(text: string, pos: number, limit: number): { name: string; next: number } | null {
  const p = skipTrivia(text, pos, limit);
  if (p >= limit || text.charCodeAt(p) !== LBRACE) return null;
  const max = Math.min(limit, p + 100);
  for (let i = p + 1; i < max; i++) {
    const c = text.charCodeAt(i);
    if (c === RBRACE) return { name: text.slice(p + 1, i).trim(), next: i + 1 };
    if (c === NEWLINE || c === LBRACE || c === BACKSLASH || c === PERCENT) return null;
  }
  return null;
}

// Environments whose bodies are not LaTeX.
export const VERBATIM_ENVS = new Set([
  'verbatim', 'verbatim*', 'Verbatim', 'Verbatim*', 'BVerbatim', 'LVerbatim', 'lstlisting',
  'minted', 'comment', 'filecontents', 'filecontents*', 'luacode', 'luacode*', 'pycode',
]);

// Environments that may hold sectioning commands; they are transparent to block splitting.
export const SECTION_CONTAINERS = new Set([
  'document', 'appendices', 'subappendices', 'multicols', 'multicols*', 'refsection',
  'refsegment', 'otherlanguage', 'otherlanguage*', 'landscape', 'frontmatter', 'mainmatter',
  'backmatter', 'subfiles',
]);

export const SECTION_LEVELS: Record<string, number> = {
  part: 0, chapter: 1, section: 2, subsection: 3, subsubsection: 4, paragraph: 5, subparagraph: 6,
};

/** Commands whose arguments are definitions: `\begin`/`\end` inside them are not structure. */
export const DEFINITION_COMMANDS = new Set([
  'newcommand', 'renewcommand', 'providecommand', 'DeclareRobustCommand', 'newenvironment',
  'renewenvironment', 'def', 'gdef', 'edef', 'xdef', 'DeclareMathOperator', 'NewDocumentCommand',
  'RenewDocumentCommand', 'ProvideDocumentCommand', 'DeclareDocumentCommand', 'NewDocumentEnvironment',
  'RenewDocumentEnvironment', 'newrobustcmd', 'renewrobustcmd', 'let',
]);

/**
 * Skips a definition command's arguments (after the command name): an optional star,
 * `\name` or `{\name}`, parameter text for `\def`, and up to four brace/bracket groups.
 * Bounded by `limit`; unterminated groups stop the skip where they start.
 */
export function skipDefinition(text: string, pos: number, limit: number, cmd: string, braces: DefinitionBraces): number {
  let p = pos;
  if (text.charCodeAt(p) === 42 /* * */) p++;
  p = skipTrivia(text, p, limit);
  if (cmd === 'let') {
    // \let\a\b or \let\a=\b
    for (let k = 0; k < 2; k++) {
      p = skipTrivia(text, p, limit);
      if (text.charCodeAt(p) === 61 /* = */) p = skipTrivia(text, p + 1, limit);
      if (text.charCodeAt(p) === BACKSLASH) p = commandNameEnd(text, p + 1, limit);
      else if (p < limit) p++;
    }
    return p;
  }
  if (cmd.endsWith('def')) {
    if (text.charCodeAt(p) === BACKSLASH) p = commandNameEnd(text, p + 1, limit);
    // parameter text up to the body's opening brace, on the same logical line
    const stop = Math.min(limit, p + 200);
    while (p < stop && text.charCodeAt(p) !== LBRACE && text.charCodeAt(p) !== NEWLINE) p++;
    const g = braces.group(p, MAX_DEFINITION);
    return g ? g.next : p;
  }
  for (let k = 0; k < 6; k++) {
    p = skipTrivia(text, p, limit);
    const c = text.charCodeAt(p);
    if (c === LBRACE) {
      const g = braces.group(p, MAX_DEFINITION);
      if (!g) return p;
      p = g.next;
    } else if (c === LBRACKET) {
      const g = readBracketGroup(text, p, Math.min(limit, p + 2000));
      if (!g) return p;
      p = g.next;
    } else if (c === BACKSLASH && k === 0) {
      p = commandNameEnd(text, p + 1, limit);
      // `\WithSuffix\newcommand\figref*[1]{…}` (suffix package): the star belongs to the name
      if (text.charCodeAt(p) === 42) p++;
    } else break;
  }
  return p;
}

/**
 * Skips an inline-verbatim argument; `pos` is after the command name. `\verb` ends at the
 * next occurrence of its delimiter character on the same line; `\lstinline{...}` may also
 * use braces (also on one line).
 */
export function skipVerbArg(text: string, pos: number, limit: number, braces = false): number {
  let p = pos;
  if (text.charCodeAt(p) === 42) p++;
  if (p >= limit) return p;
  const end = Math.min(lineEnd(text, p, limit), p + 1000);
  const delim = text.charCodeAt(p);
  if (braces && delim === LBRACE) {
    const g = readBraceGroup(text, p, end);
    return g ? g.next : p + 1;
  }
  for (let i = p + 1; i < end; i++) if (text.charCodeAt(i) === delim) return i + 1;
  return p + 1;
}
/** Finds `\end{name}` for a verbatim-like environment; returns the offset after it (or limit). */
export function skipVerbatimBody(text: string, pos: number, limit: number, name: string): number {
  const needle = '\\end{' + name + '}';
  const i = text.indexOf(needle, pos);
  return i < 0 || i + needle.length > limit ? limit : i + needle.length;
}

/**
 * Skips the dead branch of `\iffalse` (`pos` is after the command name): up to the matching
 * `\fi`, or the `\else` whose branch TeX does read; nested conditionals (`\ifx`, `\ifnum`, a
 * `\newif`'s `\iffoo`) are counted, `\ifthenelse` (a macro, no `\fi`) is not; comments are
 * skipped. Returns the offset after it (or `limit` when it is never closed, as TeX would read
 * on to the end).
 */
export function skipIfFalse(text: string, pos: number, limit: number): number {
  let depth = 0;
  for (let i = pos; i < limit; ) {
    const c = text.charCodeAt(i);
    if (c === PERCENT) { i = lineEnd(text, i, limit); continue; }
    if (c !== BACKSLASH) { i++; continue; }
    const end = commandNameEnd(text, i + 1, limit);
    const name = text.slice(i + 1, end);
    if (name === 'fi') { if (depth === 0) return end; depth--; }
    else if (name === 'else' && depth === 0) return end;
    else if (name.startsWith('if') && name !== 'ifthenelse') depth++;
    i = Math.max(end, i + 2);
  }
  return limit;
}
