// The project's own macros that make labels, references or includes, followed through one
// another: `\thmref{x}` = `\myref{Theorem}{x}` = `Theorem~\ref*{x}`, `\lemlabel{x}` =
// `\label{lem:x}`, `\includechapter{3}{probability}` = `\include{probability/TeX/probability}`,
// `\begin{thm}{x}` whose begin code says `\label{#1}`. Books define them in their own `.sty`
// and use them more than the plain commands; read as plain commands, a label made through
// one looks undefined, a typo through one is never reported, and a chapter included through
// one is missing from the project. The per-block facts cannot see definitions made elsewhere,
// so the uses are found here, per document, against the macros of the project.
import type { Doc } from '../model/doc.js';

/** The documents compiled with a document (the workspace's scopes; macros are project-wide). */
interface Scopes { scope(doc: Doc): ReadonlySet<Doc> }
import type { Block, DocLabel, DocRef } from '../model/documentView.js';
import type { IncludeKind, MacroFact } from '../syntax/facts.js';
import { INCLUDE_COMMANDS, REF_COMMANDS } from '../syntax/blockAnalyser.js';
import { MAX_DEFINITION, readBraceGroup, readBracketGroup, skipSpaces } from '../syntax/lexer.js';
import { branchPath, branchRegions } from '../syntax/conditionals.js';
import { expand, substituteParameters, type MacroDef } from '../syntax/macroExpander.js';
import { lowerBound } from '../util/lowerBound.js';

/**
 * `set`: the macro gives an argument-free macro a value (`\\renewcommand*{\\fileprefix}{#1}`),
 * state later names are built from; `guard`: it tests whether a label is defined
 * (`\\@ifundefined{r@#1}{…}{…}`), so a reference to that key in its arguments is never undefined.
 */
export type EffectKind = 'ref' | 'label' | 'include' | 'set' | 'guard';

export interface MacroEffect {
  kind: EffectKind;
  /** The command the body ends up calling (`ref`, `label`, `include`, …; for `set`, the macro set). */
  cmd: string;
  /** The name it makes, the macro's arguments written `#1` … `#9` (`lem:#1`, `#2/TeX/#2`); for `set`, the value. */
  template: string;
  includeKind?: IncludeKind;
  /** A guard whose branches are whole arguments (`\\@ifundefined{r@#1}{#3}{#2}`): which is printed when the label is defined, which when not. */
  branches?: { defined: number; undefined: number };
}

export interface UserMacro {
  /** `thmref`, `figureref*` (a starred form defined with `\WithSuffix`), or an environment's name. */
  name: string;
  /** An environment (`\begin{name}` and its arguments) rather than a command. */
  env: boolean;
  nargs: number;
  optional: boolean;
  optDefault?: string;
  /** xparse: the kind of each argument in order (`m`, `o`, `O` with its default, `s`). */
  spec?: ArgKind[];
  effects: MacroEffect[];
}

export type ArgKind = { kind: 'm' } | { kind: 'o' } | { kind: 'O'; default: string } | { kind: 's' };

export interface MacroUse {
  kind: EffectKind;
  /** The label name, referenced key or include path it makes. */
  name: string;
  /**
   * The name depends on what the text does not spell out (another macro, a counter,
   * `\arabic{…}`): not a literal key.
   */
  computed: boolean;
  /** The argument that holds the name (the command itself when the name is not an argument). */
  start: number;
  end: number;
  /** The use's command (`\\thmref`, or `\\begin{thm}`): where it starts and ends. */
  cmdStart: number;
  cmdEnd: number;
  /** The end of the use's last argument read (a guard's: what it holds is guarded). */
  extentEnd?: number;
  /** A guard with branches known: the argument printed when its label is defined, and the one printed when not. */
  ifDefined?: { start: number; end: number };
  ifUndefined?: { start: number; end: number };
  macro: string;
  cmd: string;
  includeKind?: IncludeKind;
}

/** Commands the block analyser reads itself: a project that redefines them changes nothing here. */
const NATIVE = new Set(['label', 'hyperref', 'begin', 'end', ...Object.keys(REF_COMMANDS), ...Object.keys(INCLUDE_COMMANDS)]);

/** Include commands a macro may call (xr and bibliographies are not documents of the project). */
const DOCUMENT_INCLUDES = new Set<IncludeKind>(['input', 'include', 'subfile', 'import']);

/** A name built from something other than literal text. */
export function isComputedName(name: string): boolean {
  return /[\\#{}]/.test(name);
}

// ---- the project's macros -------------------------------------------------------------

/** The label-, reference- and include-making macros defined by `docs`, each followed through the others. */
export function effectMacros(docs: Iterable<Doc>): UserMacro[] {
  const defs = new Map<string, { fact: MacroFact; env: boolean }>();
  for (const d of docs) {
    for (const m of d.macros()) if (!NATIVE.has(m.name) && !m.theoremWrapper && !defs.has(m.name)) defs.set(m.name, { fact: m, env: false });
    for (const m of d.envDefs()) if (!defs.has(`begin{${m.name}}`)) defs.set(`begin{${m.name}}`, { fact: m, env: true });
  }
  const done = new Map<string, UserMacro | null>();
  const visiting = new Set<string>();
  const resolve = (key: string): UserMacro | null => {
    const known = done.get(key);
    if (known !== undefined) return known;
    const def = defs.get(key);
    if (!def || visiting.has(key)) return null;
    visiting.add(key);
    const { fact, env } = def;
    const effects = bodyEffects(fact.body, resolve);
    visiting.delete(key);
    const spec = fact.spec !== undefined ? parseSpec(fact.spec) : undefined;
    const m: UserMacro | null = effects.length
      ? { name: fact.name, env, nargs: fact.nargs, optional: fact.optDefault !== undefined, optDefault: fact.optDefault, ...(spec ? { spec } : {}), effects }
      : null;
    done.set(key, m);
    return m;
  };
  const out: UserMacro[] = [];
  for (const key of defs.keys()) {
    const m = resolve(key);
    if (m) out.push(m);
  }
  // in name order: two projects over the same definitions get the same list (and share what is cached on its signature)
  return out.sort((a, b) => (a.env === b.env ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.env ? 1 : -1));
}

/** What a definition body makes when it runs, its own arguments left as `#n`. */
function bodyEffects(body: string, resolve: (key: string) => UserMacro | null): MacroEffect[] {
  const out: MacroEffect[] = [];
  if (!body.includes('\\')) return out;
  body = stripComments(body);
  const seen = new Set<string>();
  const tests = testBranches(body);
  let at = 0;
  const add = (e: MacroEffect): void => {
    if (!e.template.trim()) return;
    // made only in a branch of an xparse test of the arguments: the test goes with it, decided at each use
    let template = e.template;
    for (const t of tests) {
      if (at < t.start || at >= t.end) continue;
      template = t.branch === 0 ? `\\${t.test}{${t.arg}}{${template}}{}` : `\\${t.test}{${t.arg}}{}{${template}}`;
    }
    // `\hyperref[#1]{…\ref*{#1}}` makes one reference, not two
    const key = `${e.kind}\u0000${template}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ ...e, template });
  };
  for (let i = body.indexOf('\\'); i >= 0 && i < body.length; i = body.indexOf('\\', i + 1)) {
    at = i;
    const m = /^\\([A-Za-z@]+)(\*?)/.exec(body.slice(i, i + 80));
    if (!m) { i++; continue; }
    const name = m[1];
    let p = i + m[0].length;
    if (LABEL_TESTS.has(name)) {
      // `\\@ifundefined{r@#1}`, `\\ifcsname r@#1\\endcsname`, `\\@ifundefined{r@#1#2plus}`: whether
      // the label #1 (or the one its arguments spell) is defined
      const g = /^\s*\{?\s*r@((?:[^{}\s\\#]|#\d)*#\d(?:[^{}\s\\#]|#\d)*)/.exec(body.slice(p, p + 80));
      if (g) add({ kind: 'guard', cmd: name, template: g[1], ...guardBranches(name, body, p) });
      continue;
    }
    if (SETTERS.has(name)) {
      // `\renewcommand*{\prefix}{#1}`, `\def\prefix{#1}`: state that later names read
      const set = setterAt(body, p);
      if (set) { add({ kind: 'set', cmd: set.target, template: set.value }); i = set.next - 1; }
      continue;
    }
    if (name === 'label') {
      // `\label{…}` or `\label#1`; `\let\label\relax` is no label
      const a = argAt(body, p);
      if (a && (body[skipSpaces(body, p)] === '{' || /^#\d$/.test(a.text))) add({ kind: 'label', cmd: 'label', template: a.text.trim() });
    } else if (name === 'hyperref') {
      const g = readBracketGroup(body, skipSpaces(body, p), body.length);
      if (g) add({ kind: 'ref', cmd: 'hyperref', template: body.slice(g.start, g.end).trim() });
    } else if (REF_COMMANDS[name]) {
      const mode = REF_COMMANDS[name];
      const a = argAt(body, p);
      if (!a) continue;
      const names = mode === 'list' ? a.text.split(',') : [a.text];
      if (mode === 'two') { const b = argAt(body, a.next); if (b) names.push(b.text); }
      for (const n of names) add({ kind: 'ref', cmd: name, template: n.trim() });
    } else if (INCLUDE_COMMANDS[name] && DOCUMENT_INCLUDES.has(INCLUDE_COMMANDS[name])) {
      const kind = INCLUDE_COMMANDS[name];
      const a = argAt(body, p);
      if (!a) continue;
      let template = a.text.trim();
      if (kind === 'import') { const b = argAt(body, a.next); if (!b) continue; template = `${template.replace(/\/?$/, '/')}${b.text.trim()}`; }
      add({ kind: 'include', cmd: name, template, includeKind: kind });
    } else {
      let key = m[2] && resolve(`${name}*`) ? `${name}*` : name;
      if (name === 'begin') {
        const a = argAt(body, p);
        if (!a) continue;
        key = `begin{${a.text.trim()}}`;
        p = a.next;
      }
      const callee = resolve(key);
      if (!callee) continue;
      const args = readArgs(body, p, callee, body.length);
      for (const e of callee.effects) add({ ...e, template: substituteParameters(e.template, args.map((x) => x?.text)) });
    }
  }
  return out;
}

/** TeX comments out of a body (`%` to the end of the line and the next line's indentation). */
function stripComments(body: string): string {
  return body.includes('%') ? body.replace(/(^|[^\\])%[^\n]*(?:\n[ \t]*)?/g, '$1') : body;
}

/**
 * The branches of xparse argument tests in a body, outermost first, as the two-branch test they
 * stand for (`\\IfNoValueT{#2}{X}` is `\\IfNoValueTF{#2}{X}{}`).
 */
function testBranches(body: string): Array<{ test: string; arg: string; branch: 0 | 1; start: number; end: number }> {
  const out: Array<{ test: string; arg: string; branch: 0 | 1; start: number; end: number }> = [];
  const re = new RegExp(ARG_TEST.source, 'g');
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const arg = argAt(body, m.index + m[0].length);
    const first = arg && argAt(body, arg.next);
    if (!arg || !first) continue;
    const two = m[1].replace(/(TF|T|F)$/, 'TF');
    const kind = m[1].endsWith('TF') ? 'TF' : m[1].endsWith('T') ? 'T' : 'F';
    if (kind === 'TF') {
      const second = argAt(body, first.next);
      out.push({ test: two, arg: arg.text, branch: 0, start: first.start, end: first.end });
      if (second) out.push({ test: two, arg: arg.text, branch: 1, start: second.start, end: second.end });
    } else out.push({ test: two, arg: arg.text, branch: kind === 'T' ? 0 : 1, start: first.start, end: first.end });
  }
  return out;
}

/**
 * The branches of a label test that are whole arguments of the macro: `\\@ifundefined{r@#1}{#3}{#2}`
 * prints #3 when the label is undefined and #2 when it is defined. Other shapes (`\\ifcsname … \\else
 * … \\fi`) are left unknown: then nothing the guard holds is checked.
 */
function guardBranches(test: string, body: string, p: number): { branches: { defined: number; undefined: number } } | Record<string, never> {
  const first = readBraceGroup(body, skipSpaces(body, p), body.length);
  if (!first || test === 'ifcsname') return {};
  const a = readBraceGroup(body, skipSpaces(body, first.next), body.length);
  const b = a && readBraceGroup(body, skipSpaces(body, a.next), body.length);
  const argOf = (g: { start: number; end: number }) => /^\s*#(\d)\s*$/.exec(body.slice(g.start, g.end))?.[1];
  const x = a && argOf(a), y = b && argOf(b);
  if (!x || !y) return {};
  // `\\ifcsdef` tests the other way round
  return test === 'ifcsdef' ? { branches: { defined: Number(x), undefined: Number(y) } } : { branches: { defined: Number(y), undefined: Number(x) } };
}

/** Commands that test whether a control sequence (here a label's `r@key`) is defined. */
const LABEL_TESTS = new Set(['@ifundefined', 'ifcsname', 'ltx@ifundefined', 'ifcsundef', 'ifcsdef']);

/** Commands that give a macro a value. */
const SETTERS = new Set(['renewcommand', 'newcommand', 'providecommand', 'def', 'gdef', 'edef', 'xdef']);

/** `{\name}{value}` / `\name{value}` after a setter (its star skipped); none when the macro takes arguments. */
function setterAt(body: string, pos: number): { target: string; value: string; next: number } | null {
  let p = skipSpaces(body, pos);
  if (body[p] === '*') p = skipSpaces(body, p + 1);
  let target: string | undefined;
  if (body[p] === '{') {
    const g = readBraceGroup(body, p, Math.min(body.length, p + 200));
    target = g ? /^\s*\\([A-Za-z@]+)\s*$/.exec(body.slice(g.start, g.end))?.[1] : undefined;
    if (g) p = g.next;
  } else {
    const t = /^\\([A-Za-z@]+)/.exec(body.slice(p, p + 80));
    if (t) { target = t[1]; p += t[0].length; }
  }
  if (!target) return null;
  p = skipSpaces(body, p);
  if (body[p] !== '{') return null;
  const v = readBraceGroup(body, p, Math.min(body.length, p + MAX_DEFINITION));
  return v ? { target, value: body.slice(v.start, v.end).trim(), next: v.next } : null;
}

/** An xparse argument specification, kind by kind (`s o m`, `O{x} m`); kinds read like `m` otherwise. */
function parseSpec(spec: string): ArgKind[] {
  const out: ArgKind[] = [];
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (/\s/.test(c)) continue;
    if (c === 'O' && spec[i + 1] === '{') {
      const g = readBraceGroup(spec, i + 1, spec.length);
      out.push({ kind: 'O', default: g ? spec.slice(g.start, g.end) : '' });
      i = g ? g.next - 1 : spec.length;
    } else if (c === 'o' || c === 's' || c === 'm') out.push({ kind: c });
    else if (c === '+' || c === '!') continue;
    else if (/[rRdDeEtgGvb]/.test(c)) out.push({ kind: 'm' });
  }
  return out;
}

/** An xparse test of an argument given or not (`\\IfNoValueTF`, `\\IfBooleanT`, …), its name captured. */
const ARG_TEST = /\\(If(?:No)?Value(?:TF|T|F)|IfBoolean(?:TF|T|F))(?![A-Za-z@])/;

/** Stands for an optional xparse argument not given (`\\IfNoValueTF` reads it). */
export const NO_VALUE = '\uE030';
/** Stand for an xparse star given or not (`\\IfBooleanTF` reads them). */
export const STAR_TRUE = '\uE031';
export const STAR_FALSE = '\uE032';

interface Arg { text: string; start: number; end: number; next: number }

/** A TeX argument: a brace group, or one token (`#1`, `\cmd`, a character). */
function argAt(text: string, pos: number, limit = text.length): Arg | null {
  const p = skipSpaces(text, pos);
  if (p >= limit) return null;
  const c = text[p];
  if (c === '{') {
    const g = readBraceGroup(text, p, Math.min(limit, p + MAX_DEFINITION));
    return g ? { text: text.slice(g.start, g.end), start: g.start, end: g.end, next: g.next } : null;
  }
  if (c === '#' && /\d/.test(text[p + 1] ?? '')) return { text: text.slice(p, p + 2), start: p, end: p + 2, next: p + 2 };
  if (c === '\\') {
    const m = /^\\(?:[A-Za-z@]+|.)/.exec(text.slice(p, p + 80));
    if (m) return { text: m[0], start: p, end: p + m[0].length, next: p + m[0].length };
  }
  if (c === '}' || c === '%' || c === '[') return null;
  return { text: c, start: p, end: p + 1, next: p + 1 };
}

/** The arguments of a call at `pos`: the optional one first (its default when absent), then the mandatory ones in use. */
function readArgs(text: string, pos: number, m: UserMacro, limit: number): Array<Arg | undefined> {
  // a guard holds all its arguments; other macros are read as far as their names need
  const needed = m.effects.some((e) => e.kind === 'guard') ? m.nargs : Math.max(0, ...m.effects.flatMap((e) => [...e.template.matchAll(/#(\d)/g)].map((x) => Number(x[1]))));
  const out: Array<Arg | undefined> = [];
  let p = pos;
  if (m.spec) {
    for (const k of m.spec) {
      if (out.length >= needed) break;
      const q = skipSpaces(text, p);
      if (k.kind === 's') {
        const star = text[q] === '*';
        out.push({ text: star ? STAR_TRUE : STAR_FALSE, start: -1, end: -1, next: star ? q + 1 : p });
        if (star) p = q + 1;
      } else if (k.kind === 'o' || k.kind === 'O') {
        const g = text[q] === '[' ? readBracketGroup(text, q, Math.min(limit, q + 2000)) : null;
        if (g) { out.push({ text: text.slice(g.start, g.end), start: g.start, end: g.end, next: g.next }); p = g.next; }
        else out.push({ text: k.kind === 'O' ? k.default : NO_VALUE, start: -1, end: -1, next: p });
      } else {
        const a = argAt(text, p, limit);
        if (!a) break;
        out.push(a);
        p = a.next;
      }
    }
    return out;
  }
  if (m.optional) {
    const q = skipSpaces(text, p);
    const g = text[q] === '[' ? readBracketGroup(text, q, Math.min(limit, q + 2000)) : null;
    if (g) { out.push({ text: text.slice(g.start, g.end), start: g.start, end: g.end, next: g.next }); p = g.next; }
    else out.push(m.optDefault !== undefined ? { text: m.optDefault, start: -1, end: -1, next: p } : undefined);
  }
  while (out.length < Math.min(needed, m.nargs)) {
    const a = argAt(text, p, limit);
    if (!a) break;
    out.push(a);
    p = a.next;
  }
  return out;
}


// ---- uses in a document ---------------------------------------------------------------

function signature(macros: readonly UserMacro[]): string {
  return macros.map((m) => `${m.env ? 'E' : 'C'}${m.name}\u0001${m.nargs}\u0001${m.optional}\u0001${m.optDefault ?? ''}\u0001${m.spec ? JSON.stringify(m.spec) : ''}\u0001${m.effects.map((e) => `${e.kind}:${e.cmd}:${e.template}`).join('\u0002')}`).join('\u0003');
}

interface Matcher { sig: string; re: RegExp; byName: Map<string, UserMacro> }

const matchers = new WeakMap<readonly UserMacro[], Matcher>();

function matcherOf(macros: readonly UserMacro[]): Matcher {
  let m = matchers.get(macros);
  if (!m) {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const cmds = macros.filter((x) => !x.env).map((x) => x.name).sort((a, b) => b.length - a.length).map(escape);
    const envs = macros.filter((x) => x.env).map((x) => escape(x.name));
    const parts: string[] = [];
    if (cmds.length) parts.push(`\\\\(${cmds.join('|')})(?![A-Za-z@])`);
    if (envs.length) parts.push(`\\\\begin\\s*\\{(${envs.join('|')})\\}`);
    const byName = new Map<string, UserMacro>();
    for (const x of macros) byName.set(x.env ? `begin{${x.name}}` : x.name, x);
    m = { sig: signature(macros), re: new RegExp(parts.join('|') || '(?!)', 'g'), byName };
    matchers.set(macros, m);
  }
  return m;
}

const blockUses = new WeakMap<Block['facts'], { sig: string; uses: MacroUse[] }>();
const docUses = new WeakMap<Doc, { version: number; text: string; bySig: Map<string, MacroUse[]> }>();

/**
 * Uses of `macros` in `doc` (outside comments and definitions), with what each makes; offsets
 * are absolute. Names built from state (`\\label{\\fileprefix:#1}` after
 * `\\setfileid{fol}{syn}`) are written out with the values in force at each use: those the
 * document sets in order, starting from `state`, what is in force where its includer reads it.
 */
export function macroUses(doc: Doc, macros: readonly UserMacro[], state: MacroState = NO_STATE): MacroUse[] {
  const base = plainMacroUses(doc, macros);
  const sets = topLevelSets(doc);
  if (state.values.size === 0 && sets.length === 0 && !base.some((u) => u.kind === 'set')) return base;
  const hit = statefulUses.get(base);
  if (hit && hit.state === state.key && hit.sets === sets) return hit.uses;
  const uses: MacroUse[] = [];
  foldState(base, sets, new Map(state.values), Infinity, uses, branchSets(doc, base, sets));
  statefulUses.set(base, { state: state.key, sets, uses });
  return uses;
}

/** The values of state macros in force — what a use's name may be built from. */
export interface MacroState {
  /** The values, as one string (what caches compare). */
  key: string;
  values: ReadonlyMap<string, string>;
}

export const NO_STATE: MacroState = { key: '', values: new Map() };

/** Where a document is read from: the one place that includes it, if exactly one. */
export interface Includers {
  includeSite(doc: Doc): { doc: Doc; offset: number } | undefined;
  /** The documents `doc` reads before `offset` (TeX's state set in them goes on after them). */
  includedBefore(doc: Doc, offset: number): Doc[];
}

/** How many includers up the state in force is followed. */
const MAX_STATE_DEPTH = 4;

/**
 * The state in force where `doc` is read: its includer's at the include, following includers
 * up (bounded). None when no single includer reads it.
 */
export function inheritedState(ws: Includers & Scopes, doc: Doc): MacroState {
  // the chain of includers and their versions: what the state read in depends on
  const chain: Array<{ doc: Doc; offset: number }> = [];
  const seen = new Set<Doc>([doc]);
  for (let d = doc; chain.length < MAX_STATE_DEPTH; ) {
    const site = ws.includeSite(d);
    if (!site || seen.has(site.doc)) break;
    seen.add(site.doc);
    chain.push(site);
    d = site.doc;
  }
  if (chain.length === 0) return NO_STATE;
  const macros = projectMacros(ws, chain[0].doc);
  const key = chain.map((c) => `${c.doc.uri}@${c.doc.version}:${c.offset}`).join('|');
  const hit = stateCache.get(doc);
  if (hit && hit.key === key && hit.macros === macros) return hit.state;
  const values = new Map<string, string>();
  for (let k = chain.length - 1; k >= 0; k--) {
    const site = chain[k];
    const uses = plainMacroUses(site.doc, macros);
    const sets = topLevelSets(site.doc);
    foldState(uses, sets, values, site.offset, undefined, branchSets(site.doc, uses, sets));
    // what a file read earlier set may go on after it (no group ends there): not known here
    for (const earlier of ws.includedBefore(site.doc, site.offset)) {
      for (const u of plainMacroUses(earlier, macros)) if (u.kind === 'set') values.delete(u.cmd);
      for (const x of topLevelSets(earlier)) values.delete(x.target);
    }
  }
  const state = values.size === 0 ? NO_STATE : { key: [...values].map(([n, v]) => `${n}\u0001${v}`).join('\u0002'), values };
  stateCache.set(doc, { key, macros, state });
  return state;
}

const stateCache = new WeakMap<Doc, { key: string; macros: readonly UserMacro[]; state: MacroState }>();

const statefulUses = new WeakMap<MacroUse[], { state: string; sets: readonly SetFact[]; uses: MacroUse[] }>();

interface SetFact { target: string; value: string; at: number; onlyIfNew: boolean }

const setCache = new WeakMap<Doc, { version: number; sets: SetFact[] }>();
const NO_SETS: SetFact[] = [];

/** The document's own argument-free definitions outside other definitions (`\\renewcommand{\\prefix}{a}`), in order. */
function topLevelSets(doc: Doc): readonly SetFact[] {
  const hit = setCache.get(doc);
  if (hit && hit.version === doc.version) return hit.sets;
  const sets: SetFact[] = [];
  for (const m of doc.macros()) {
    if (m.nargs !== 0 || !SETTERS.has(m.cmd) || m.spec !== undefined) continue;
    sets.push({ target: m.name, value: m.body.trim(), at: m.start, onlyIfNew: m.cmd === 'providecommand' });
  }
  const out = sets.length ? sets : NO_SETS;
  setCache.set(doc, { version: doc.version, sets: out });
  return out;
}

/**
 * Runs the document's state changes in order up to `upTo`, on `values`: its own definitions
 * and the macros that set state; with `out`, every use with its name written out.
 */
function foldState(uses: readonly MacroUse[], sets: readonly SetFact[], values: Map<string, string>, upTo: number, out?: MacroUse[], branches?: BranchSets): void {
  let k = 0;
  // a value set in a branch holds after it only when every branch of that conditional sets the same
  const assign = (target: string, value: string, at: number) => {
    const uncertain = branches?.uncertainAt(at, target, value);
    if (uncertain) values.delete(target); else values.set(target, value);
  };
  const applyUpTo = (at: number) => {
    for (; k < sets.length && sets[k].at < at; k++) {
      const s = sets[k];
      if (!(s.onlyIfNew && values.has(s.target))) assign(s.target, writeOut(s.value, values), s.at);
    }
  };
  for (const u of uses) {
    if (u.cmdStart >= upTo) break;
    applyUpTo(u.cmdStart);
    if (u.kind === 'set') {
      assign(u.cmd, writeOut(u.name, values), u.cmdStart);
      out?.push(u);
      continue;
    }
    if (!out) continue;
    if (!u.computed) { out.push(u); continue; }
    const name = writeOut(u.name, values);
    out.push(name === u.name ? u : { ...u, name, computed: isComputedName(name) || hasStandIn(name) });
  }
  applyUpTo(upTo);
}

interface BranchSets {
  /** Whether a value set at `at` may not hold after its conditional (not every branch sets it so). */
  uncertainAt(at: number, target: string, value: string): boolean;
}

const branchCache = new WeakMap<readonly MacroUse[], { sets: readonly SetFact[]; version: number; result: BranchSets | undefined }>();

/**
 * How the document's state changes sit in conditional branches (`\\iftag{x}{\\setid{a}}{\\setid{b}}`):
 * a change in a branch is certain only when every branch of its conditional makes the same one.
 */
function branchSets(doc: Doc, uses: readonly MacroUse[], sets: readonly SetFact[]): BranchSets | undefined {
  const hit = branchCache.get(uses);
  if (hit && hit.sets === sets && hit.version === doc.version) return hit.result;
  const changes = [...uses.filter((u) => u.kind === 'set').map((u) => ({ at: u.cmdStart, target: u.cmd, value: u.name })), ...sets.map((x) => ({ at: x.at, target: x.target, value: x.value }))];
  let result: BranchSets | undefined;
  if (changes.length) {
    const { regions, complete } = branchRegions(doc.latexText);
    if (regions.length || !complete) {
      // per conditional: how many branches it has, and per target the values each branch sets
      const branchCount = new Map<number, number>();
      for (const r of regions) branchCount.set(r.cond, Math.max(branchCount.get(r.cond) ?? 0, r.branch + 1));
      const byCond = new Map<number, Map<string, Map<number, Set<string>>>>();
      for (const c of changes) {
        for (const st of branchPath(regions, c.at)) {
          const targets = byCond.get(st.cond) ?? new Map<string, Map<number, Set<string>>>();
          byCond.set(st.cond, targets);
          const perBranch = targets.get(c.target) ?? new Map<number, Set<string>>();
          targets.set(c.target, perBranch);
          const vals = perBranch.get(st.branch) ?? new Set<string>();
          vals.add(c.value);
          perBranch.set(st.branch, vals);
        }
      }
      result = {
        uncertainAt(at, target, value) {
          if (!complete) return true;
          for (const st of branchPath(regions, at)) {
            const perBranch = byCond.get(st.cond)?.get(target);
            // a TeX conditional without \\else has an empty branch that sets nothing
            const total = Math.max(branchCount.get(st.cond) ?? 1, 2);
            if (!perBranch || perBranch.size < total) return true;
            for (const vals of perBranch.values()) if (vals.size !== 1 || !vals.has(value)) return true;
          }
          return false;
        },
      };
    }
  }
  branchCache.set(uses, { sets, version: doc.version, result });
  return result;
}

function hasStandIn(s: string): boolean {
  return s.includes(NO_VALUE) || s.includes(STAR_TRUE) || s.includes(STAR_FALSE);
}

/** xparse tests of an argument given or not, and which branch each takes. */
const ARG_TESTS: Record<string, { branches: 'TF' | 'T' | 'F'; when: (arg: string) => boolean | undefined }> = {
  IfNoValueTF: { branches: 'TF', when: (a) => noValue(a) }, IfNoValueT: { branches: 'T', when: (a) => noValue(a) }, IfNoValueF: { branches: 'F', when: (a) => noValue(a) },
  IfValueTF: { branches: 'TF', when: (a) => neg(noValue(a)) }, IfValueT: { branches: 'T', when: (a) => neg(noValue(a)) }, IfValueF: { branches: 'F', when: (a) => neg(noValue(a)) },
  IfBooleanTF: { branches: 'TF', when: (a) => star(a) }, IfBooleanT: { branches: 'T', when: (a) => star(a) }, IfBooleanF: { branches: 'F', when: (a) => star(a) },
};

function noValue(a: string): boolean | undefined {
  const t = a.trim();
  return t === NO_VALUE ? true : /[\\#]/.test(t) ? undefined : false;
}
function star(a: string): boolean | undefined {
  const t = a.trim();
  return t === STAR_TRUE ? true : t === STAR_FALSE ? false : undefined;
}
function neg(b: boolean | undefined): boolean | undefined {
  return b === undefined ? undefined : !b;
}

/** Rounds of writing out at most (a value may name another state macro). */
const MAX_ROUNDS = 6;
/** A name longer than this is not a key being built. */
const MAX_NAME_LENGTH = 500;

/**
 * A name with the state macros it reads written out (`\\fileprefix:#1` → `fol:syn:#1`), xparse
 * argument tests decided, `\\csname x\\endcsname` read as `\\x`; what is not known stays as it is.
 */
export function writeOut(name: string, values: ReadonlyMap<string, string>): string {
  let s = name;
  for (let round = 0; round < MAX_ROUNDS && s.includes('\\') && s.length <= MAX_NAME_LENGTH; round++) {
    const before = s;
    s = decideTests(s);
    s = s.replace(/\\(?:protect|relax|expandafter|noexpand)(?![A-Za-z@])\s*/g, '');
    s = s.replace(/\\csname\s*([A-Za-z@]+)\s*\\endcsname/g, (all, n: string) => (values.has(n) ? `\\${n} ` : all));
    s = expand(s, valueTable(values), { eatSpaces: true, maxExpansions: 64, maxLength: MAX_NAME_LENGTH * 4 }).text;
    if (s === before) break;
  }
  // braces left around written-out text group nothing in a key
  if (!/[\\#]/.test(s)) s = s.replace(/[{}]/g, '');
  return s.trim();
}

const valueTables = new WeakMap<ReadonlyMap<string, string>, { key: string; table: Map<string, MacroDef> }>();

/**
 * State values as macros without arguments, for the expander. Kept per map while its values stay
 * the same: the fold of a document's state changes sets new values in the same map as it goes.
 */
function valueTable(values: ReadonlyMap<string, string>): Map<string, MacroDef> {
  let key = '';
  for (const [name, body] of values) key += `${name}\u0001${body}\u0002`;
  const hit = valueTables.get(values);
  if (hit?.key === key) return hit.table;
  const table = new Map([...values].map(([name, body]) => [name, { name, nargs: 0, body }]));
  valueTables.set(values, { key, table });
  return table;
}

function decideTests(s: string): string {
  // a decided test may leave another test in its branch
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = decideOnce(s);
    if (next === s) break;
    s = next;
  }
  return s;
}

function decideOnce(s: string): string {
  const re = new RegExp(ARG_TEST.source, 'g');
  let out = '';
  let last = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const test = ARG_TESTS[m[1]];
    const arg = argAt(s, m.index + m[0].length);
    const first = arg && argAt(s, arg.next);
    const second = test.branches === 'TF' && first ? argAt(s, first.next) : undefined;
    if (!arg || !first || (test.branches === 'TF' && !second)) continue;
    const when = test.when(arg.text);
    if (when === undefined) continue;
    const chosen = test.branches === 'TF' ? (when ? first.text : second!.text) : test.branches === 'T' ? (when ? first.text : '') : (when ? '' : first.text);
    out += s.slice(last, m.index) + chosen;
    last = (second ?? first).next;
    re.lastIndex = last;
  }
  return out + s.slice(last);
}

/** Uses as the text spells them, per block (cached), before state is applied. */
function plainMacroUses(doc: Doc, macros: readonly UserMacro[]): MacroUse[] {
  if (macros.length === 0) return [];
  const matcher = matcherOf(macros);
  const text = doc.latexText;
  const hits = docUses.get(doc);
  const hit = hits && hits.version === doc.version && hits.text === text ? hits.bySig.get(matcher.sig) : undefined;
  if (hit) return hit;
  const uses: MacroUse[] = [];
  for (const b of doc.blocks()) {
    let cached = blockUses.get(b.facts);
    if (!cached || cached.sig !== matcher.sig) {
      cached = { sig: matcher.sig, uses: usesInBlock(text.slice(b.start, b.end), b.facts.definitions, matcher) };
      blockUses.set(b.facts, cached);
    }
    for (const u of cached.uses) {
      uses.push(b.start === 0 ? u : {
        ...u, start: u.start + b.start, end: u.end + b.start, cmdStart: u.cmdStart + b.start, cmdEnd: u.cmdEnd + b.start,
        ...(u.extentEnd !== undefined ? { extentEnd: u.extentEnd + b.start } : {}),
        ...(u.ifDefined && u.ifUndefined ? {
          ifDefined: { start: u.ifDefined.start + b.start, end: u.ifDefined.end + b.start },
          ifUndefined: { start: u.ifUndefined.start + b.start, end: u.ifUndefined.end + b.start },
        } : {}),
      });
    }
  }
  // a document read by projects with different macro sets keeps a few lists
  const bySig = hits && hits.version === doc.version && hits.text === text && hits.bySig.size < 4 ? hits.bySig : new Map<string, MacroUse[]>();
  bySig.set(matcher.sig, uses);
  docUses.set(doc, { version: doc.version, text, bySig });
  return uses;
}

function usesInBlock(text: string, definitions: ReadonlyArray<{ start: number; end: number }>, matcher: Matcher): MacroUse[] {
  const out: MacroUse[] = [];
  const re = new RegExp(matcher.re.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index;
    if (inComment(text, at) || definitions.some((d) => at >= d.start && at < d.end)) continue;
    const key = m[1] !== undefined ? m[1] : `begin{${m[2]}}`;
    const macro = matcher.byName.get(key);
    if (!macro) continue;
    let after = at + m[0].length;
    // `\thmref*{x}` without a starred definition of its own: the macro reads its star itself
    // (an xparse `s` argument reads it as an argument)
    if (!macro.env && text[after] === '*' && !macro.name.endsWith('*') && macro.spec?.[0]?.kind !== 's') after++;
    const args = readArgs(text, after, macro, text.length);
    for (const e of macro.effects) {
      // xparse tests of the arguments given are decided here; a name still holding an argument
      // not given comes from a branch not taken (`\\subfile{#2/#3}` when #2 is absent)
      const name = decideTests(substituteParameters(e.template, args.map((a) => a?.text))).trim();
      // an argument it needs is not there (`\\apptocmd{\\mylabel}{…}` names the macro, does not call it)
      if (!name || /#\d/.test(name) || hasStandIn(name)) continue;
      // the argument holding the name, when it is one argument (what a diagnostic underlines)
      const only = /^#(\d)$/.exec(e.template.trim()) ?? /#(\d)/.exec(e.template);
      const a = only ? args[Number(only[1]) - 1] : undefined;
      const span = a && a.start >= 0 ? trimSpan(text, a.start, a.end) : { start: at, end: at + m[0].length };
      out.push({
        kind: e.kind, name, computed: isComputedName(name) || /#\d/.test(name) || hasStandIn(name), start: span.start, end: span.end,
        cmdStart: at, cmdEnd: at + m[0].length,
        extentEnd: Math.max(at + m[0].length, ...args.map((a) => a?.next ?? 0)),
        ...(e.kind === 'guard' ? branchSpans(e, args) : {}),
        macro: macro.env ? `begin{${macro.name}}` : macro.name, cmd: e.cmd, ...(e.includeKind ? { includeKind: e.includeKind } : {}),
      });
    }
  }
  return out;
}

/** A guard's branches at one use: the spans of the arguments it prints when its label is defined and when not. */
function branchSpans(e: MacroEffect, args: Array<Arg | undefined>): Pick<MacroUse, 'ifDefined' | 'ifUndefined'> {
  const d = e.branches && args[e.branches.defined - 1], u = e.branches && args[e.branches.undefined - 1];
  if (!d || !u || d.start < 0 || u.start < 0) return {};
  return { ifDefined: { start: d.start, end: d.end }, ifUndefined: { start: u.start, end: u.end } };
}

function trimSpan(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
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

// ---- environments whose body is not LaTeX ------------------------------------------------

/** Definitions that make an environment's body verbatim (source code, excluded comments). */
const VERBATIM_DEFINERS = new Set(['lstnewenvironment', 'DefineVerbatimEnvironment', 'newtcblisting', 'NewTCBListing', 'DeclareTCBListing', 'excludecomment', 'newminted']);
/** A `\newenvironment` whose begin code starts a verbatim reader. */
const VERBATIM_BEGIN = /\\VerbatimEnvironment|\\begin\s*\{(?:Verbatim|BVerbatim|LVerbatim|verbatim|lstlisting|minted|comment)\}|\\lstlisting\b|\\comment\b|\\verbatim\b/;

const verbatimCache = new WeakMap<ReadonlySet<Doc>, { keys: unknown[]; names: Set<string> }>();

/** Names of the project's environments whose bodies are not LaTeX (their text holds no references or structure). */
export function verbatimEnvironments(ws: Scopes, doc: Doc): ReadonlySet<string> {
  const scope = ws.scope(doc);
  const keys: unknown[] = [];
  for (const d of scope) keys.push(d.envDefs());
  const hit = verbatimCache.get(scope);
  if (hit && hit.keys.length === keys.length && hit.keys.every((k, i) => k === keys[i])) return hit.names;
  const names = new Set<string>();
  for (const d of scope) for (const e of d.envDefs()) if (VERBATIM_DEFINERS.has(e.cmd) || VERBATIM_BEGIN.test(e.body)) names.add(e.name);
  verbatimCache.set(scope, { keys, names });
  return names;
}

// ---- per project ----------------------------------------------------------------------

const projectCache = new WeakMap<ReadonlySet<Doc>, { keys: string[]; macros: UserMacro[] }>();
const docKeys = new WeakMap<Doc, { version: number; text: string; key: string }>();

/** What a document defines, as a string that changes only when its definitions do (per version). */
function definitionsKey(d: Doc): string {
  const hit = docKeys.get(d);
  if (hit && hit.version === d.version && hit.text === d.latexText) return hit.key;
  const key = [...d.macros(), ...d.envDefs()].map((m) => `${m.name}\u0001${m.nargs}\u0001${m.optDefault ?? ''}\u0001${m.spec ?? ''}\u0001${m.body}`).join('\u0002');
  docKeys.set(d, { version: d.version, text: d.latexText, key });
  return key;
}

/**
 * The effect-making macros of `doc`'s project (its scope: documents, packages, classes). The
 * same array while no definition changes, so what is cached on it (uses, the label universe)
 * survives ordinary typing.
 */
export function projectMacros(ws: Scopes, doc: Doc): UserMacro[] {
  const scope = ws.scope(doc);
  const keys: string[] = [];
  for (const d of scope) keys.push(definitionsKey(d));
  const hit = projectCache.get(scope);
  if (hit && hit.keys.length === keys.length && hit.keys.every((k, i) => k === keys[i])) return hit.macros;
  const macros = effectMacros(scope);
  projectCache.set(scope, { keys, macros });
  return macros;
}

// ---- references and labels made through macros, as the document's own -------------------

const asFacts = new WeakMap<MacroUse[], { refs: DocRef[]; labels: DocLabel[]; labelMap: Map<string, DocLabel[]> }>();

function factsOf(doc: Doc, uses: MacroUse[]) {
  let f = asFacts.get(uses);
  if (!f) {
    const refs: DocRef[] = [];
    const labels: DocLabel[] = [];
    for (const u of uses) {
      if (u.computed) continue;
      if (u.kind === 'ref') refs.push({ cmd: u.macro, name: u.name, start: u.start, end: u.end, cmdStart: u.cmdStart, cmdEnd: u.cmdEnd });
      else if (u.kind === 'label') labels.push({ name: u.name, start: u.start, end: u.end, cmdStart: u.cmdStart, ...placeIn(doc, u.cmdStart) });
    }
    const labelMap = new Map<string, DocLabel[]>();
    for (const l of labels) { const list = labelMap.get(l.name); if (list) list.push(l); else labelMap.set(l.name, [l]); }
    f = { refs, labels, labelMap };
    asFacts.set(uses, f);
  }
  return f;
}

/**
 * Where a label made through a macro sits, as the block reader places a `\\label`: its innermost
 * environment, and its display and row when it is in one. What the label labels (a theorem, an
 * item, an equation) is read from there, as for a plain `\\label`.
 */
function placeIn(doc: Doc, offset: number): { env: number; mathEnv: number; row: number } {
  const envs = doc.envs();
  let env = lowerBound(envs.length, (k) => envs[k].start <= offset) - 1;
  while (env >= 0 && !(offset < envs[env].end || (!envs[env].closed && offset <= envs[env].end))) env = envs[env].parent;
  let mathEnv = env;
  while (mathEnv >= 0 && !envs[mathEnv].rows) mathEnv = envs[mathEnv].parent;
  let row = -1;
  if (mathEnv >= 0) {
    const rows = envs[mathEnv].rows!;
    row = Math.max(0, lowerBound(rows.length, (k) => rows[k].start <= offset) - 1);
  }
  return { env, mathEnv, row };
}

/** References `doc` makes through its project's macros (`\\thmref{x}`), shaped like its own `\\ref`s. */
export function macroRefs(ws: Scopes & Includers, doc: Doc): DocRef[] {
  const macros = projectMacros(ws, doc);
  return macros.length ? factsOf(doc, macroUses(doc, macros, inheritedState(ws, doc))).refs : NO_REFS;
}

/**
 * The text of `doc` from `start` to `end` with each reference made through the project's macros
 * written as the reference it makes (`\\olref[z][sep]{x}` → `\\cref{sth:z:sep:x}`): what a
 * renderer that knows none of the project's macros shows as a reference, not as "[z][sep]x".
 */
export function refsWrittenOut(ws: Scopes & Includers, doc: Doc, start: number, end: number): string {
  const text = doc.latexText;
  const macros = projectMacros(ws, doc);
  if (!macros.length) return text.slice(start, end);
  let out = '';
  let at = start;
  for (const u of macroUses(doc, macros, inheritedState(ws, doc))) {
    if (u.kind !== 'ref' || u.computed || u.extentEnd === undefined || u.cmdStart < at || u.extentEnd > end) continue;
    out += `${text.slice(at, u.cmdStart)}\\${REF_COMMANDS[u.cmd] === 'one' || REF_COMMANDS[u.cmd] === 'list' ? u.cmd : 'ref'}{${u.name}}`;
    at = u.extentEnd;
  }
  return out + text.slice(at, end);
}

/** One empty list, so callers may keep what they derived from a document's macro references by identity. */
const NO_REFS: DocRef[] = [];

/** Labels `doc` defines through its project's macros (`\\theorem{thm:x}{…}{…}`), by name. */
export function macroLabelMap(doc: Doc, macros: readonly UserMacro[], state: MacroState = NO_STATE): Map<string, DocLabel[]> {
  return macros.length ? factsOf(doc, macroUses(doc, macros, state)).labelMap : EMPTY_MAP;
}

const EMPTY_MAP = new Map<string, DocLabel[]>();

/**
 * Every label `doc` defines, its own `\\label`s and those made through its project's macros
 * (`\\ollabel{x}` after `\\olfileid{…}`), in document order: what a statement's labels are.
 * The same array while neither changes.
 */
export function documentLabels(ws: Scopes & Includers, doc: Doc): readonly DocLabel[] {
  const own = doc.labels();
  const macros = projectMacros(ws, doc);
  if (!macros.length || !makesLabels(macros)) return own;
  const made = factsOf(doc, macroUses(doc, macros, inheritedState(ws, doc))).labels;
  if (!made.length) return own;
  const hit = allLabels.get(own);
  if (hit?.made === made) return hit.all;
  const all = [...own, ...made].sort((a, b) => a.start - b.start);
  allLabels.set(own, { made, all });
  return all;
}
const allLabels = new WeakMap<readonly DocLabel[], { made: readonly DocLabel[]; all: DocLabel[] }>();

/** Whether any macro of the project makes a label. */
export function makesLabels(macros: readonly UserMacro[]): boolean {
  return macros.some((m) => m.effects.some((e) => e.kind === 'label'));
}
