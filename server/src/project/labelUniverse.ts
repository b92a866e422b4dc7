// Which labels a project can define, and whether that is known in full. A reference is only
// undefined when no label of the project has its name and nothing the project cannot show
// might define it: a file that is missing or built by the build, an include whose path is
// built from macros, a label whose name is computed (`\label{eoce_sol_\arabic{…}}`, a
// macro's `\label{#1}` used with an argument built from other macros).
import * as path from 'node:path';
import type { Doc, Workspace } from './workspace.js';
import { buildOutput } from './buildOutputs.js';
import { uriBaseName } from './files.js';
import { readBraceGroup } from '../syntax/lexer.js';
import type { DocInclude } from '../model/documentView.js';
import { inheritedState, isComputedName, macroUses, projectMacros, type UserMacro } from './userMacros.js';

export interface LabelUniverse {
  /** Every label the project can define is known (no gap). */
  complete: boolean;
  /** What is not known, in words (`chapter3.tex is missing`), for logs and tests. */
  gaps: string[];
  /** Label names made through the project's macros with literal arguments (`\lemlabel{x}` = `lem:x`). */
  madeByMacros: Set<string>;
  /** Labels whose names are computed: a key one of them may produce is not undefined. */
  patterns: RegExp[];
  /** xr prefixes whose external document is missing: a key with one of them is unknown. */
  unknownPrefixes: string[];
  /**
   * Other projects of the workspace this one is a variant of (they share labels with it: an
   * old standalone chapter, a course's other version, slides cut from a book): a key they
   * define is what the text refers to, though this compilation does not have it.
   */
  variants: ReadonlySet<Doc>;
}

/** Shared label names that make another project a variant of this one. */
const VARIANT_OVERLAP = 3;

/**
 * Extensions of files that are input but hold no labels: what a figure or data tool writes,
 * configuration, and files of other formats read into a field (an AUTHORS.md in \\author).
 */
const LABEL_FREE_EXTENSIONS = new Set([
  '.pgf', '.tikz', '.csv', '.tsv', '.dat', '.txt', '.table', '.cfg', '.def', '.clo', '.fd',
  '.md', '.markdown', '.json', '.yaml', '.yml', '.toml', '.html', '.xml', '.svg', '.png', '.jpg', '.jpeg', '.pdf', '.eps',
  '.lean', '.py', '.bib',
]);

/** Whether an included file (by its name) may define labels: not a figure, a data table or a version stamp. */
export function mayHoldLabels(file: string): boolean {
  const generated = buildOutput(file);
  if (generated) return generated.mayHoldLabels;
  return !LABEL_FREE_EXTENSIONS.has(path.extname(file).toLowerCase());
}

/**
 * An include read only when some macro is defined (`\\ifdefined\\lang \\input{locale/\\langid/x}\\fi`):
 * an optional file (a localisation, a local configuration), no gap.
 */
function optionalInclude(d: Doc, inc: DocInclude): boolean {
  const before = d.latexText.slice(Math.max(0, inc.start - 300), inc.start);
  const test = Math.max(before.lastIndexOf('\\ifdefined'), before.lastIndexOf('\\@ifundefined'));
  return test >= 0 && !/\\fi(?![A-Za-z@])/.test(before.slice(test));
}

/** Fields of the title page and front matter: what is read into them is no part of the text that labels live in. */
const FIELD_COMMANDS = /\\(?:author|title|subtitle|date|thanks|address|email|affiliation|affil|institute|dedicatory|dedication|keywords|subjclass|publishers|uppertitleback|lowertitleback)\*?\s*(?:\[[^\]]*\]\s*)?\{/g;

/** How far back from an include its enclosing field is looked for. */
const FIELD_LOOKBACK = 2000;

/**
 * Whether a missing included file could hold labels a reference needs: not a file of another
 * format, a figure or a data table, and not read inside a title-page field
 * (`\\author{\\input{AUTHORS.md}}`).
 */
export function missingMayHoldLabels(d: Doc, inc: DocInclude): boolean {
  if (!mayHoldLabels(inc.path)) return false;
  const text = d.latexText;
  const from = Math.max(0, inc.start - FIELD_LOOKBACK);
  const window = text.slice(from, inc.start);
  FIELD_COMMANDS.lastIndex = 0;
  for (let m = FIELD_COMMANDS.exec(window); m; m = FIELD_COMMANDS.exec(window)) {
    const open = from + m.index + m[0].length - 1;
    const g = readBraceGroup(text, open, Math.min(text.length, inc.end + FIELD_LOOKBACK));
    if (g && g.start <= inc.start && inc.end <= g.end) return false;
  }
  return true;
}

interface DocPart { gaps: string[]; computed: string[]; madeByMacros: string[] }

const parts = new WeakMap<Doc, { version: number; graph: number; macros: unknown; state: string; part: DocPart }>();

/** What one document adds to its project's universe (cached per version, graph generation, macro set and state read in). */
function docPart(ws: Workspace, d: Doc, macros: readonly UserMacro[]): DocPart {
  const graph = ws.graphGeneration();
  const hit = parts.get(d);
  const state = inheritedState(ws, d);
  if (hit && hit.version === d.version && hit.graph === graph && hit.macros === macros && hit.state === state.key) return hit.part;
  const part: DocPart = { gaps: [], computed: [], madeByMacros: [] };
  for (const l of d.labels()) if (isComputedName(l.name)) part.computed.push(l.name);
  const incs = ws.includesOf(d);
  for (const inc of incs) {
    if (inc.kind === 'external' || inc.kind === 'bibliography' || inc.kind === 'package') continue;
    if (!isComputedName(inc.path) || inc.guarded || optionalInclude(d, inc) || ws.resolveIncludePath(d, inc)) continue;
    // another file the same macro use may read instead was found (one of its alternatives)
    if (incs.some((o) => o !== inc && o.start === inc.start && o.cmd === inc.cmd && ws.resolveIncludePath(d, o))) continue;
    part.gaps.push(`${uriBaseName(d.uri)} includes a file named by macros (${inc.path})`);
  }
  // `\IfFileExists{x}{\input{x}}{}` reads an optional file (a local configuration): no gap
  for (const inc of ws.missingIncludes(d)) if (!inc.guarded && missingMayHoldLabels(d, inc)) part.gaps.push(`${inc.path} (included by ${uriBaseName(d.uri)}) is not here`);
  for (const u of macroUses(d, macros, state)) {
    if (u.kind !== 'label') continue;
    if (u.computed) part.computed.push(u.name); else part.madeByMacros.push(u.name);
  }
  // an edit that changes none of this keeps the part (and the project's universe) as it was
  const same = hit && hit.macros === macros && sameList(hit.part.gaps, part.gaps) && sameList(hit.part.computed, part.computed) && sameList(hit.part.madeByMacros, part.madeByMacros);
  const kept = same ? hit.part : part;
  parts.set(d, { version: d.version, graph, macros, state: state.key, part: kept });
  return kept;
}

const cache = new WeakMap<ReadonlySet<Doc>, { key: unknown[]; universe: LabelUniverse }>();

/** The label universe of `doc`'s project (cached while its documents' parts stay the same). */
export function labelUniverse(ws: Workspace, doc: Doc): LabelUniverse {
  const scope = ws.scope(doc);
  const macros = projectMacros(ws, doc);
  const externals = ws.externals(doc);
  const key: unknown[] = [macros, externals];
  for (const d of scope) key.push(docPart(ws, d, macros));
  const hit = cache.get(scope);
  if (hit && hit.key.length === key.length && hit.key.every((k, i) => k === key[i])) return hit.universe;
  const gaps: string[] = [];
  const patterns = new Map<string, RegExp>();
  const madeByMacros = new Set<string>();
  // a name with no literal text cannot be referenced by a literal key either (its references are computed too)
  const addPattern = (name: string) => { if (!patterns.has(name) && literalLength(name) >= 2) patterns.set(name, namePattern(name)); };
  for (const part of key.slice(2) as DocPart[]) {
    gaps.push(...part.gaps);
    for (const n of part.computed) addPattern(n);
    for (const n of part.madeByMacros) madeByMacros.add(n);
  }
  // labels a macro makes whatever its arguments (`\label{sol:\arabic{ex}}` in a definition)
  for (const m of macros) {
    for (const e of m.effects) {
      if (e.kind !== 'label' || /#\d/.test(e.template)) continue;
      if (isComputedName(e.template)) addPattern(e.template); else madeByMacros.add(e.template);
    }
  }
  const unknownPrefixes: string[] = [];
  for (const d of scope) {
    for (const inc of d.includes()) {
      if (inc.kind !== 'external' || ws.resolveIncludePath(d, inc)) continue;
      if (inc.prefix) unknownPrefixes.push(inc.prefix);
      else gaps.push(`the external document ${inc.path} is not here`);
    }
  }
  const universe = { complete: gaps.length === 0, gaps, madeByMacros, patterns: [...patterns.values()], unknownPrefixes, variants: variantsOf(ws, scope) };
  cache.set(scope, { key, universe });
  return universe;
}

/** Whether `key` may name a label of the project without being one of its literal labels. */
export function mayBeDefined(u: LabelUniverse, key: string, ws?: Workspace): boolean {
  if (!u.complete || u.madeByMacros.has(key)) return true;
  if (u.unknownPrefixes.some((p) => key.startsWith(p))) return true;
  if (u.patterns.some((re) => re.test(key))) return true;
  if (ws && u.variants.size) for (const d of ws.labelHolders(key)) if (u.variants.has(d)) return true;
  return false;
}

/** How many other compilations are searched for a label made by their macros. */
const ELSEWHERE_SCOPES = 40;

/**
 * For `doc`, the documents of another compilation of the workspace that define a label: literally,
 * or (for a few other compilations) through their own macros (`\\mtable{…}{fig:disk}{…}`), named
 * then by a root of that compilation. A file no root compiles (an old chapter whose include is
 * commented out) defines nothing. Empty when no such document is known. The other compilations
 * are listed once, on the first name asked about, for all the names of one pass.
 */
export function definedElsewhere(ws: Workspace, doc: Doc): (name: string) => Doc[] {
  const scope = ws.scope(doc);
  let others: Doc[] | undefined;
  const otherCompilations = (): Doc[] => {
    const seen = new Set<Set<Doc>>([scope]);
    const out: Doc[] = [];
    for (const d of ws.all()) {
      if (out.length >= ELSEWHERE_SCOPES) break;
      if (d.kind !== 'latex' || scope.has(d) || !ws.isCompiled(d)) continue;
      const other = ws.scope(d);
      if (seen.has(other)) continue;
      seen.add(other);
      out.push(d);
    }
    return out;
  };
  return (name) => {
    const literal = [...ws.labelHolders(name)].filter((d) => !scope.has(d) && ws.isCompiled(d));
    if (literal.length) return literal;
    const d = (others ??= otherCompilations()).find((x) => labelUniverse(ws, x).madeByMacros.has(name));
    return d ? [ws.roots(d)[0] ?? d] : [];
  };
}

/** Documents outside `scope` holding at least VARIANT_OVERLAP of its label names, with their projects. */
function variantsOf(ws: Workspace, scope: ReadonlySet<Doc>): ReadonlySet<Doc> {
  const shared = new Map<Doc, number>();
  for (const d of scope) {
    for (const name of d.labelMap().keys()) {
      for (const other of ws.labelHolders(name)) if (!scope.has(other)) shared.set(other, (shared.get(other) ?? 0) + 1);
    }
  }
  const out = new Set<Doc>();
  for (const [d, n] of shared) if (n >= VARIANT_OVERLAP) for (const x of ws.scope(d)) if (!scope.has(x)) out.add(x);
  return out;
}

/**
 * A computed label name as a pattern: the literal text stays, every macro (with its brace
 * arguments) and every `#n` may become any non-empty text.
 */
export function namePattern(name: string): RegExp {
  let out = '';
  let i = 0;
  while (i < name.length) {
    const c = name[i];
    if (c === '#' && /\d/.test(name[i + 1] ?? '')) { out += '.+'; i += 2; continue; }
    if (c === '\\') {
      let j = i + 1;
      if (/[A-Za-z@]/.test(name[j] ?? '')) while (j < name.length && /[A-Za-z@]/.test(name[j])) j++;
      else j++;
      // the macro's arguments are part of what it produces (braces counted as written, not
      // syntax/lexer.ts readBraceGroup: a label name has no comments, and an unclosed group takes the rest)
      while (name[j] === '{') {
        let depth = 0;
        let k = j;
        for (; k < name.length; k++) { if (name[k] === '{') depth++; else if (name[k] === '}' && --depth === 0) break; }
        j = k + 1;
      }
      if (!out.endsWith('.+')) out += '.+';
      i = j;
      continue;
    }
    if (c === '{' || c === '}') { i++; continue; }
    out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    i++;
  }
  return new RegExp(`^${out}$`, 's');
}

/** Characters of a computed name that are written out (not macros, their arguments or `#n`). */
export function literalLength(name: string): number {
  return namePattern(name).source.replace(/^\^|\$$/g, '').replace(/\.\+/g, '').replace(/\\(.)/g, '$1').length;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
