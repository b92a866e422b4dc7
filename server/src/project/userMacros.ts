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
import { MAX_DEFINITION, readBraceGroup, readBracketGroup } from '../syntax/lexer.js';

export type EffectKind = 'ref' | 'label' | 'include';

export interface MacroEffect {
  kind: EffectKind;
  /** The command the body ends up calling (`ref`, `label`, `include`, …). */
  cmd: string;
  /** The name it makes, the macro's arguments written `#1` … `#9` (`lem:#1`, `#2/TeX/#2`). */
  template: string;
  includeKind?: IncludeKind;
}

export interface UserMacro {
  /** `thmref`, `figureref*` (a starred form defined with `\WithSuffix`), or an environment's name. */
  name: string;
  /** An environment (`\begin{name}` and its arguments) rather than a command. */
  env: boolean;
  nargs: number;
  optional: boolean;
  optDefault?: string;
  effects: MacroEffect[];
}

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
    const m: UserMacro | null = effects.length
      ? { name: fact.name, env, nargs: fact.nargs, optional: fact.optDefault !== undefined, optDefault: fact.optDefault, effects }
      : null;
    done.set(key, m);
    return m;
  };
  const out: UserMacro[] = [];
  for (const key of defs.keys()) {
    const m = resolve(key);
    if (m) out.push(m);
  }
  return out;
}

/** What a definition body makes when it runs, its own arguments left as `#n`. */
function bodyEffects(body: string, resolve: (key: string) => UserMacro | null): MacroEffect[] {
  const out: MacroEffect[] = [];
  if (!body.includes('\\')) return out;
  const seen = new Set<string>();
  const add = (e: MacroEffect): void => {
    // `\hyperref[#1]{…\ref*{#1}}` makes one reference, not two
    const key = `${e.kind}\u0000${e.template}`;
    if (!e.template.trim() || seen.has(key)) return;
    seen.add(key);
    out.push(e);
  };
  for (let i = body.indexOf('\\'); i >= 0 && i < body.length; i = body.indexOf('\\', i + 1)) {
    const m = /^\\([A-Za-z@]+)(\*?)/.exec(body.slice(i, i + 80));
    if (!m) { i++; continue; }
    const name = m[1];
    let p = i + m[0].length;
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
      for (const e of callee.effects) add({ ...e, template: substitute(e.template, args.map((x) => x?.text)) });
    }
  }
  return out;
}

interface Arg { text: string; start: number; end: number; next: number }

function skipSpaces(text: string, p: number): number {
  while (p < text.length && (text[p] === ' ' || text[p] === '\t' || text[p] === '\n' || text[p] === '\r')) p++;
  return p;
}

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
  const needed = Math.max(0, ...m.effects.flatMap((e) => [...e.template.matchAll(/#(\d)/g)].map((x) => Number(x[1]))));
  const out: Array<Arg | undefined> = [];
  let p = pos;
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

function substitute(template: string, args: ReadonlyArray<string | undefined>): string {
  return template.replace(/#(\d)/g, (all, d: string) => args[Number(d) - 1] ?? all);
}

// ---- uses in a document ---------------------------------------------------------------

function signature(macros: readonly UserMacro[]): string {
  return macros.map((m) => `${m.env ? 'E' : 'C'}${m.name}\u0001${m.nargs}\u0001${m.optional}\u0001${m.optDefault ?? ''}\u0001${m.effects.map((e) => `${e.kind}:${e.cmd}:${e.template}`).join('\u0002')}`).join('\u0003');
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
const docUses = new WeakMap<Doc, { version: number; text: string; sig: string; uses: MacroUse[] }>();

/** Uses of `macros` in `doc` (outside comments and definitions), with what each makes; offsets are absolute. */
export function macroUses(doc: Doc, macros: readonly UserMacro[]): MacroUse[] {
  if (macros.length === 0) return [];
  const matcher = matcherOf(macros);
  const text = doc.latexText;
  const hit = docUses.get(doc);
  if (hit && hit.version === doc.version && hit.text === text && hit.sig === matcher.sig) return hit.uses;
  const uses: MacroUse[] = [];
  for (const b of doc.blocks()) {
    let cached = blockUses.get(b.facts);
    if (!cached || cached.sig !== matcher.sig) {
      cached = { sig: matcher.sig, uses: usesInBlock(text.slice(b.start, b.end), b.facts.definitions, matcher) };
      blockUses.set(b.facts, cached);
    }
    for (const u of cached.uses) uses.push(b.start === 0 ? u : { ...u, start: u.start + b.start, end: u.end + b.start, cmdStart: u.cmdStart + b.start, cmdEnd: u.cmdEnd + b.start });
  }
  docUses.set(doc, { version: doc.version, text, sig: matcher.sig, uses });
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
    if (!macro.env && text[after] === '*' && !macro.name.endsWith('*')) after++;
    const args = readArgs(text, after, macro, text.length);
    for (const e of macro.effects) {
      const name = substitute(e.template, args.map((a) => a?.text)).trim();
      if (!name) continue;
      // the argument holding the name, when it is one argument (what a diagnostic underlines)
      const only = /^#(\d)$/.exec(e.template.trim()) ?? /#(\d)/.exec(e.template);
      const a = only ? args[Number(only[1]) - 1] : undefined;
      const span = a && a.start >= 0 ? trimSpan(text, a.start, a.end) : { start: at, end: at + m[0].length };
      out.push({
        kind: e.kind, name, computed: isComputedName(name) || /#\d/.test(name), start: span.start, end: span.end,
        cmdStart: at, cmdEnd: at + m[0].length,
        macro: macro.env ? `begin{${macro.name}}` : macro.name, cmd: e.cmd, ...(e.includeKind ? { includeKind: e.includeKind } : {}),
      });
    }
  }
  return out;
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
  const key = [...d.macros(), ...d.envDefs()].map((m) => `${m.name}\u0001${m.nargs}\u0001${m.optDefault ?? ''}\u0001${m.body}`).join('\u0002');
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

function factsOf(uses: MacroUse[]) {
  let f = asFacts.get(uses);
  if (!f) {
    const refs: DocRef[] = [];
    const labels: DocLabel[] = [];
    for (const u of uses) {
      if (u.computed) continue;
      if (u.kind === 'ref') refs.push({ cmd: u.macro, name: u.name, start: u.start, end: u.end, cmdStart: u.cmdStart, cmdEnd: u.cmdEnd });
      else if (u.kind === 'label') labels.push({ name: u.name, start: u.start, end: u.end, cmdStart: u.cmdStart, env: -1, mathEnv: -1, row: -1 });
    }
    const labelMap = new Map<string, DocLabel[]>();
    for (const l of labels) { const list = labelMap.get(l.name); if (list) list.push(l); else labelMap.set(l.name, [l]); }
    f = { refs, labels, labelMap };
    asFacts.set(uses, f);
  }
  return f;
}

/** References `doc` makes through its project's macros (`\\thmref{x}`), shaped like its own `\\ref`s. */
export function macroRefs(ws: Scopes, doc: Doc): DocRef[] {
  const macros = projectMacros(ws, doc);
  return macros.length ? factsOf(macroUses(doc, macros)).refs : [];
}

/** Labels `doc` defines through its project's macros (`\\theorem{thm:x}{…}{…}`), by name. */
export function macroLabelMap(doc: Doc, macros: readonly UserMacro[]): Map<string, DocLabel[]> {
  return macros.length ? factsOf(macroUses(doc, macros)).labelMap : EMPTY_MAP;
}

const EMPTY_MAP = new Map<string, DocLabel[]>();

/** Whether any macro of the project makes a label. */
export function makesLabels(macros: readonly UserMacro[]): boolean {
  return macros.some((m) => m.effects.some((e) => e.kind === 'label'));
}
