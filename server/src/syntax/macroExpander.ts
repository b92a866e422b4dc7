// The one macro expander of the project: definitions in the shape of `\newcommand` (arguments
// #1..#9, an optional first argument with its default) written out in a text. It is bounded (a
// number of expansions and a length of output), so a definition that calls itself cannot hang the
// derivation check, the tokenizer or a hover that uses it. Callers pick how an expansion sits in
// its text: math wraps it in a group, so `\sq{x}^3` with `\sq` = `#1^2` reads `{x^2}^3`; the
// tokenizer splices it.
import { BACKSLASH, commandNameEnd, LBRACE, readBraceGroup, readBracketGroup, skipSpaces } from './lexer.js';

export interface MacroDef {
  /** The name without its backslash (`R`, `operatorname*`). */
  name: string;
  /** Number of arguments, #1..#9, the optional one included. */
  nargs: number;
  /** Default of the first argument when it is optional (`\newcommand{\x}[2][d]{…}`). */
  optDefault?: string;
  body: string;
  /** The defining command when it changes the meaning (`DeclareMathOperator`). */
  cmd?: string;
}

/** Definitions by name (no backslash). */
export type MacroTable = ReadonlyMap<string, MacroDef>;

export interface ExpandOptions {
  /** Wrap each expansion that takes arguments or starts with a letter in `{…}`. */
  group?: boolean;
  /** Most expansions in one call (default: 200). */
  maxExpansions?: number;
  /** Longest text the expansion may grow to (default: 20,000 characters). */
  maxLength?: number;
  /**
   * After a macro without arguments, drop the spaces and an empty `{}` that follow, as TeX does
   * when it reads a name (`\prefix{} :x` is `fol:x`): for keys being built, where spaces count.
   */
  eatSpaces?: boolean;
}

export interface Expansion {
  text: string;
  /** False when a bound stopped the expansion: `text` is then expanded only as far as it got. */
  complete: boolean;
}

/**
 * Writes out the macros of `table` in `s`, rescanning each expansion (a body may use other
 * macros, or take its arguments from the text after it, as TeX does).
 */
export function expand(s: string, table: MacroTable, opts: ExpandOptions = {}): Expansion {
  if (table.size === 0 || !s.includes('\\')) return { text: s, complete: true };
  const maxExpansions = opts.maxExpansions ?? 200;
  const maxLength = opts.maxLength ?? 20_000;
  // `done` is final; `src` from `i` on is still to be read
  let done = '';
  let src = s;
  let i = 0;
  let count = 0;
  while (i < src.length) {
    const b = src.indexOf('\\', i);
    if (b < 0) break;
    const e = commandNameEnd(src, b + 1, src.length);
    let name = src.slice(b + 1, e);
    let p = e;
    if (src[e] === '*' && table.has(name + '*')) { name += '*'; p++; }
    const def = table.get(name);
    if (!def) { i = e; continue; }
    const args = readArguments(src, p, def);
    if (!args) { i = e; continue; }
    if (opts.eatSpaces && def.nargs === 0) {
      let q = skipSpaces(src, args.next);
      if (src.startsWith('{}', q)) q = skipSpaces(src, q + 2);
      args.next = q;
    }
    if (++count > maxExpansions) return { text: done + src, complete: false };
    let body = substituteParameters(def.body, args.values, '');
    // keep a following letter from gluing onto a command name that ends the body
    if (/\\[A-Za-z@]+$/.test(body) && /[A-Za-z@]/.test(src[args.next] ?? '')) body += ' ';
    if (opts.group && (def.nargs > 0 || /^[A-Za-z]/.test(body))) body = `{${body}}`;
    done += src.slice(0, b);
    src = body + src.slice(args.next);
    i = 0;
    if (done.length + src.length > maxLength) return { text: done + src, complete: false };
  }
  return { text: done + src, complete: true };
}

/**
 * `#1`..`#9` of a body replaced by the arguments; a parameter without an argument becomes
 * `missing`, or stays as written when `missing` is undefined.
 */
export function substituteParameters(body: string, args: ReadonlyArray<string | undefined>, missing?: string): string {
  return body.replace(/#([1-9])/g, (all, d: string) => args[Number(d) - 1] ?? missing ?? all);
}

/** The arguments `def` takes from `s` at `p`, and where they end; undefined when they are not there. */
function readArguments(s: string, p: number, def: MacroDef): { values: string[]; next: number } | undefined {
  const values: string[] = [];
  let k = 0;
  if (def.optDefault !== undefined && def.nargs > 0) {
    const q = skipSpaces(s, p);
    if (s.charCodeAt(q) === 91) {
      const g = readBracketGroup(s, q, s.length);
      if (!g) return undefined;
      values.push(s.slice(g.start, g.end));
      p = g.next;
    } else values.push(def.optDefault);
    k = 1;
  }
  for (; k < def.nargs; k++) {
    const q = skipSpaces(s, p);
    if (q >= s.length) return undefined;
    const c = s.charCodeAt(q);
    if (c === LBRACE) {
      const g = readBraceGroup(s, q, s.length);
      if (!g) return undefined;
      values.push(s.slice(g.start, g.end));
      p = g.next;
    } else if (c === BACKSLASH) {
      p = commandNameEnd(s, q + 1, s.length);
      values.push(s.slice(q, p));
    } else if (c === 125) return undefined;
    else { values.push(s[q]); p = q + 1; }
  }
  return { values, next: p };
}

const DEFINITION = /\\(?:(?:re)?newcommand|providecommand|DeclareMathOperator)\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?|\\def\s*\\([A-Za-z@]+)((?:#\d)*)\s*(?=\{)/g;

/**
 * Reads the definitions written in `text` (`\newcommand`, `\renewcommand`, `\providecommand`,
 * `\def` with plain parameters, `\DeclareMathOperator`) into `into`; returns the table and the
 * text with the definitions taken out.
 */
export function readDefinitions(text: string, into: Map<string, MacroDef> = new Map()): { macros: Map<string, MacroDef>; text: string } {
  let out = '';
  let last = 0;
  const re = new RegExp(DEFINITION.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const isDef = m[2] !== undefined;
    const name = m[1] ?? m[2];
    let i = skipSpaces(text, m.index + m[0].length);
    let nargs = isDef ? (m[3] ?? '').length / 2 : 0;
    let optDefault: string | undefined;
    if (!isDef && text[i] === '[') {
      const g = readBracketGroup(text, i, text.length);
      if (!g) continue;
      nargs = Number(text.slice(g.start, g.end)) || 0;
      i = skipSpaces(text, g.next);
      if (text[i] === '[') {
        const o = readBracketGroup(text, i, text.length);
        if (!o) continue;
        optDefault = text.slice(o.start, o.end);
        i = skipSpaces(text, o.next);
      }
    }
    const g = readBraceGroup(text, i, Math.min(text.length, i + 20_000));
    if (!g) continue;
    const body = text.slice(g.start, g.end);
    const operator = m[0].startsWith('\\DeclareMathOperator');
    into.set(name, { name, nargs: Math.min(9, nargs), optDefault, body: operator ? `\\operatorname{${body}}` : body });
    out += text.slice(last, m.index);
    last = g.next;
    re.lastIndex = g.next;
  }
  return { macros: into, text: last === 0 ? text : out + text.slice(last) };
}
