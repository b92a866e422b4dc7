// References and labels written through the user's own macros: `\newcommand{\lemref}[1]{Lemma~\ref{lem:#1}}`,
// `\newcommand{\thmlabel}[1]{\label{thm:#1}}`, HoTT's `\pg{x}` = `p.~\pageref{x}`. Papers use
// them everywhere; read as plain commands, `\lemref{typo}` would never be reported and every
// label it names would look unused, and `\ref{thm:main}` would be undefined. The model's
// per-block facts cannot see a macro defined elsewhere in the project, so the uses are found
// here, per document, for the wrappers of the document's project (cached by text and wrappers).
import type { Doc, Workspace } from './workspace.js';
import { readBraceGroup, readBracketGroup } from '../syntax/lexer.js';

export interface Wrapper {
  /** The macro's name, without the backslash. */
  name: string;
  kind: 'ref' | 'label';
  /** The command the body calls (`ref`, `eqref`, `label`, …). */
  cmd: string;
  /** Mandatory argument count, and whether an optional one comes first (`[opt]{…}` = #1). */
  nargs: number;
  optional: boolean;
  /** The label is `before` + argument `arg` + `after`. */
  arg: number;
  before: string;
  after: string;
}

export interface WrappedUse {
  kind: 'ref' | 'label';
  /** The label name it makes (`lem:foo`). */
  name: string;
  /** Span of the argument in the document (what a diagnostic underlines). */
  start: number;
  end: number;
  macro: string;
}

const CALL = /\\(ref|eqref|cref|Cref|autoref|pageref|nameref|vref|cpageref|labelcref|label)\*?\s*\{([^{}#]*)#(\d)([^{}#]*)\}/g;

/** The label- and reference-making macros among a project's definitions. */
export function wrappersOf(ws: Workspace, doc: Doc): Wrapper[] {
  const out: Wrapper[] = [];
  for (const d of ws.scope(doc)) {
    for (const m of d.macros()) {
      if (m.nargs < 1 || !m.body.includes('#') || m.theoremWrapper) continue;
      CALL.lastIndex = 0;
      for (let c = CALL.exec(m.body); c; c = CALL.exec(m.body)) {
        const arg = Number(c[3]);
        if (arg < 1 || arg > m.nargs) continue;
        out.push({
          name: m.name, kind: c[1] === 'label' ? 'label' : 'ref', cmd: c[1], nargs: m.nargs, optional: m.optDefault !== undefined,
          arg, before: c[2].trim(), after: c[4].trim(),
        });
      }
    }
  }
  return out;
}

const cache = new WeakMap<Doc, { text: string; sig: string; uses: WrappedUse[] }>();

/** Uses of `wrappers` in `doc` (outside comments), with the label names they make. */
export function wrappedUses(doc: Doc, wrappers: readonly Wrapper[]): WrappedUse[] {
  if (wrappers.length === 0) return [];
  const sig = wrappers.map((w) => `${w.name}\u0001${w.kind}\u0001${w.arg}\u0001${w.before}\u0001${w.after}\u0001${w.nargs}\u0001${w.optional}`).join('\u0002');
  const text = doc.text;
  const hit = cache.get(doc);
  if (hit && hit.text === text && hit.sig === sig) return hit.uses;
  const uses: WrappedUse[] = [];
  const byName = new Map<string, Wrapper[]>();
  for (const w of wrappers) byName.set(w.name, [...(byName.get(w.name) ?? []), w]);
  for (const [name, ws] of byName) {
    const needle = `\\${name}`;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const after = at + needle.length;
      if (/[A-Za-z@]/.test(text[after] ?? '') || inComment(text, at) || isDefinition(text, at)) continue;
      const args = readArgs(text, after, ws[0].nargs, ws[0].optional);
      if (!args) continue;
      for (const w of ws) {
        const a = args[w.arg - 1];
        if (!a || a.absent) continue;
        const value = text.slice(a.start, a.end).trim();
        if (!value || /[\\#{}]/.test(value)) continue; // built from other macros: not a name we can read
        const lead = text.slice(a.start, a.end).length - text.slice(a.start, a.end).trimStart().length;
        uses.push({ kind: w.kind, name: `${w.before}${value}${w.after}`, start: a.start + lead, end: a.start + lead + value.length, macro: name });
      }
    }
  }
  uses.sort((x, y) => x.start - y.start);
  cache.set(doc, { text, sig, uses });
  return uses;
}

/** After an unescaped `%` on the same line. */
function inComment(text: string, at: number): boolean {
  const ls = text.lastIndexOf('\n', at - 1) + 1;
  for (let i = ls; i < at; i++) {
    if (text[i] === '\\') { i++; continue; }
    if (text[i] === '%') return true;
  }
  return false;
}

/** `\newcommand{\lemref}…` / `\def\lemref…`: the definition itself is no use. */
function isDefinition(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 40), at);
  return /\\(?:re|provide)?newcommand\*?\s*\{?\s*$|\\[egx]?def\s*$|\\DeclareRobustCommand\*?\s*\{?\s*$/.test(before);
}

type Arg = { start: number; end: number; absent?: boolean };

/** The macro's arguments at `pos`: an optional `[…]` first when it has one, then `{…}` groups. */
function readArgs(text: string, pos: number, nargs: number, optional: boolean): Arg[] | undefined {
  const out: Arg[] = [];
  let p = pos;
  const skip = () => { while (p < text.length && (text[p] === ' ' || text[p] === '\t')) p++; };
  if (optional) {
    skip();
    const g = readBracketGroup(text, p, Math.min(text.length, p + 201));
    if (text[p] === '[' && !g) return undefined;
    if (g) { out.push({ start: g.start, end: g.end }); p = g.next; } else out.push({ start: p, end: p, absent: true });
  }
  while (out.length < nargs) {
    skip();
    if (text[p] !== '{') return out.length ? out : undefined;
    const g = readBraceGroup(text, p, Math.min(text.length, p + 300));
    if (!g) return undefined;
    out.push({ start: g.start, end: g.end });
    p = g.next;
  }
  return out;
}
