// The include graph of a workspace's documents: each document's includes (its own and those
// made through the project's macros), the files they name, and what follows from the edges:
// parents and children, roots, scopes, compilations, xr external documents, include cycles and
// files read twice. Everything derived is cached per graph generation, which advances only when
// some document's includes, root comments or `\documentclass` change, or files come and go on
// disk, so ordinary typing stays cheap.
import * as path from 'node:path';
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../model/doc.js';
import { isFile, pathToUri, uriToPath } from './files.js';
import type { FileSystem } from './fileSystem.js';
import type { ReadPolicy } from './readPolicy.js';
import { effectMacros, macroUses, type MacroUse, type UserMacro } from './userMacros.js';

/** A definition body that includes a file. */
const INCLUDE_IN_BODY = /\\(?:input|include|subfile|import|subimport|subfileinclude)(?![A-Za-z@])/;

/** Documents visible through xr `\externaldocument[prefix]{file}`, under that prefix. */
export interface External { prefix: string; scope: Set<Doc> }

/** An include (index into `includesOf(doc)`) and the document it resolves to. */
interface IncludeEdge { index: number; target: Doc }

/**
 * An include that closes a cycle (`a.tex` inputs `b.tex`, which inputs `a.tex`) or reads a file a
 * second time in the same project. `index` is into `includesOf(doc)` (stable while the graph
 * generation is: offsets are taken from the current version).
 */
export interface IncludeIssue {
  index: number;
  kind: 'cycle' | 'twice';
  /** cycle: the documents along it, the included one first and last. */
  cycle?: Doc[];
  /** twice: the file, and where it was included first. */
  target?: Doc;
  first?: { doc: Doc; index: number };
}

/** What the graph reads from the workspace's document store. */
export interface GraphDocuments {
  readonly fs: FileSystem;
  /** The document stored under a normalized URI. */
  stored(uri: string): Doc | undefined;
  /** Every stored document (loading a file adds to them). */
  storedDocs(): IterableIterator<Doc>;
  storedCount(): number;
  /** Reads a file from disk into the store (undefined: it could not be read). */
  loadFile(p: string): Doc | undefined;
  /** Whether reading the file at `uri` failed already. */
  readFailed(uri: string): boolean;
}

interface GraphCache {
  gen: number;
  children: Map<Doc, Doc[]>;
  parents: Map<Doc, Doc[]>;
  scopes: Map<Doc, Set<Doc>>;
  sharedScopes: Map<number, Set<Doc>[]>;
  externals: Map<Doc, External[]>;
  edges: Map<Doc, IncludeEdge[]>;
  roots: Map<Doc, Doc[]>;
  issues?: Map<Doc, IncludeIssue[]>;
  /** Indices into includesOf(doc) (offsets move with edits; the graph generation does not). */
  missing: Map<Doc, number[]>;
  closures: Map<Doc, Set<Doc>>;
}

/** Folders of the files compiled with a shared preamble that its includes are looked up from. */
const MAX_COMPILE_FOLDERS = 8;
/** How long an include lookup's answer from the disk is used (IncludeGraph#fileThere). */
const FILE_LOOKUP_MS = 2000;

const docHashes = new WeakMap<Doc, number>();

/** A random 32-bit number per document, summed (modulo 2^32) into a scope's content hash. */
function docHash(d: Doc): number {
  let h = docHashes.get(d);
  if (h === undefined) { h = (Math.random() * 2 ** 32) >>> 0; docHashes.set(d, h); }
  return h;
}

/** Whether a file name is the written one (with `.tex` added or not) but for letter case. */
function sameFolding(name: string, written: string): boolean {
  const n = name.toLowerCase();
  const w = written.toLowerCase();
  return n === w || n === `${w}.tex`;
}

/** A file of the subfiles package (`\\documentclass[../main]{subfiles}`): compiled alone and as part of the file that includes it. */
function isSubfile(doc: Doc): boolean {
  return doc.hasDocumentClass() && doc.includes().some((i) => i.cmd === 'documentclass' && i.path === 'subfiles.cls');
}

/** A package or class file (`.sty`, `.cls`): read for its macros and theorem definitions, never checked as a document. */
export function isMacroSource(doc: Doc): boolean {
  return /\.(sty|cls)$/i.test(doc.uri);
}

export class IncludeGraph {
  constructor(private readonly store: GraphDocuments, private readonly policy: ReadPolicy) {}

  private generation = 0;
  /** Per document: what its includes, root comments and class make of the graph. */
  private readonly graphSig = new Map<string, string>();
  private cache: GraphCache = {
    gen: -1, children: new Map(), parents: new Map(), scopes: new Map(), sharedScopes: new Map(), externals: new Map(),
    edges: new Map(), roots: new Map(), missing: new Map(), closures: new Map(),
  };

  /** The graph must be made anew (a .bib file changed, a document went). */
  invalidate(): void {
    this.generation++;
  }

  /**
   * `doc` was stored or changed: the graph is made anew when what it reads (its includes, its
   * macros that include files, its root comment, its class) changed.
   */
  noteDocument(doc: Doc): void {
    const includeDefs = JSON.stringify(doc.macros().filter((m) => INCLUDE_IN_BODY.test(m.body)).map((m) => [m.name, m.nargs, m.optDefault, m.body]));
    if ((this.includeDefsSig.get(doc.uri) ?? '[]') !== includeDefs) {
      this.includeDefsSig.set(doc.uri, includeDefs);
      this.includeMacroList = undefined;
      this.generation++;
    }
    const sig = JSON.stringify([
      this.includesOf(doc).map((i) => [i.kind, i.path, i.prefix, i.dir]),
      doc.magic().filter((m) => m.key === 'root').map((m) => m.value),
      doc.hasDocumentClass(),
    ]);
    if (this.graphSig.get(doc.uri) !== sig) { this.graphSig.set(doc.uri, sig); this.generation++; }
  }

  /** `doc` left the store. */
  forget(uri: string): void {
    this.graphSig.delete(uri);
    if (this.includeDefsSig.delete(uri)) this.includeMacroList = undefined;
    this.generation++;
  }

  /** Whether some document defines a macro that includes files (its uses are checked on every edit). */
  hasIncludeMacros(): boolean {
    return this.includeMacros().length > 0;
  }

  /** Per document: its definitions of macros whose body includes a file (what includeMacros is made of). */
  private readonly includeDefsSig = new Map<string, string>();
  private includeMacroList: UserMacro[] | undefined;

  /** The workspace's macros that include files (`\includechapter{3}{x}` = `\include{x/TeX/x}`). */
  private includeMacros(): UserMacro[] {
    if (!this.includeMacroList) {
      const withDefs = [...this.store.storedDocs()].filter((d) => (this.includeDefsSig.get(d.uri) ?? '[]') !== '[]');
      this.includeMacroList = withDefs.length === 0 ? [] : effectMacros(withDefs)
        .map((m) => ({ ...m, effects: m.effects.filter((e) => e.kind === 'include') }))
        .filter((m) => m.effects.length > 0);
    }
    return this.includeMacroList;
  }

  /**
   * The document's includes: its own `\input`, `\include`, … and those made through the
   * workspace's macros (a path built from something the text does not spell out keeps its
   * `\`: such an include cannot be followed).
   */
  includesOf(doc: Doc): DocInclude[] {
    const own = this.ownIncludes(doc);
    const macros = this.includeMacros();
    if (macros.length === 0) return own;
    const uses = macroUses(doc, macros);
    if (uses.length === 0) return own;
    let cached = this.wrappedIncludes.get(doc);
    if (!cached || cached.own !== own || cached.uses !== uses) {
      const wrapped: DocInclude[] = uses.filter((u) => u.kind === 'include').map((u) => ({
        cmd: u.macro, kind: u.includeKind === 'import' ? 'input' : (u.includeKind ?? 'input'), path: u.name, start: u.start, end: u.end,
      }));
      cached = { own, uses, all: [...own, ...wrapped].sort((a, b) => a.start - b.start) };
      this.wrappedIncludes.set(doc, cached);
    }
    return cached.all;
  }

  private readonly wrappedIncludes = new WeakMap<Doc, { own: DocInclude[]; uses: MacroUse[]; all: DocInclude[] }>();

  /**
   * The document's includes, with paths built from its own argument-free macros written out
   * (`\newcommand*{\olpath}{../..}` then `\input{\olpath/sty/x.sty}`; the definition in force
   * at the include). A path still holding a macro stays as written: it cannot be looked up.
   */
  private ownIncludes(doc: Doc): DocInclude[] {
    const own = doc.includes();
    if (!own.some((i) => i.path.includes('\\'))) return own;
    const hit = this.expandedIncludes.get(doc);
    if (hit && hit.own === own) return hit.all;
    const defs = doc.macros().filter((m) => m.nargs === 0 && !m.cmd.endsWith('DocumentCommand') && m.cmd !== 'let');
    const all = own.map((inc) => {
      if (!inc.path.includes('\\')) return inc;
      let p = inc.path;
      for (let round = 0; round < 4 && p.includes('\\'); round++) {
        p = p.replace(/\\([A-Za-z@]+)\s*(?:\{\})?/g, (whole, name: string) => {
          let body: string | undefined;
          for (const m of defs) if (m.name === name && m.start < inc.start) body = m.body;
          return body ?? whole;
        });
      }
      return p.includes('\\') || p.includes('#') ? inc : { ...inc, path: p.trim() };
    });
    this.expandedIncludes.set(doc, { own, all });
    return all;
  }

  private readonly expandedIncludes = new WeakMap<Doc, { own: DocInclude[]; all: DocInclude[] }>();

  private graph(): GraphCache {
    if (this.cache.gen !== this.generation) {
      this.cache = {
        gen: this.generation, children: new Map(), parents: new Map(), scopes: new Map(), sharedScopes: new Map(),
        externals: new Map(), edges: new Map(), roots: new Map(), missing: new Map(), closures: new Map(),
      };
      // resolving may load files from disk (which advances the generation): repeat until no new
      // document appears; a file read on the way may define a macro that includes files
      // (`\input{\olpath/sty/x.sty}` defining `\olimport`), and then the includes read before
      // it are read again
      for (;;) {
        const before = this.store.storedCount();
        const macros = this.includeMacros();
        for (const doc of [...this.store.storedDocs()]) this.childrenUncached(doc);
        if (this.includeMacros() !== macros) {
          this.cache.children.clear(); this.cache.edges.clear(); this.cache.missing.clear();
          continue;
        }
        if (this.store.storedCount() === before) break;
      }
      for (const [doc, kids] of this.cache.children) {
        for (const k of kids) {
          const ps = this.cache.parents.get(k);
          if (ps) ps.push(doc); else this.cache.parents.set(k, [doc]);
        }
      }
      this.cache.gen = this.generation;
    }
    return this.cache;
  }

  private childrenUncached(doc: Doc): Doc[] {
    let kids = this.cache.children.get(doc);
    if (kids) return kids;
    kids = [];
    this.cache.children.set(doc, kids);
    const edges: IncludeEdge[] = [];
    this.cache.edges.set(doc, edges);
    const missing: number[] = [];
    this.cache.missing.set(doc, missing);
    const incs = this.includesOf(doc);
    incs.forEach((inc, index) => {
      if (inc.kind === 'external' || inc.kind === 'bibliography') return;
      const target = this.resolveInclude(doc, inc);
      if (!target) {
        // a system package is not the project's; a path built from macros cannot be looked up
        if (inc.kind !== 'package' && !/[\\#]/.test(inc.path) && inc.path.trim() && !this.resolveIncludePath(doc, inc)) missing.push(index);
        return;
      }
      // a package is loaded once however often it is asked for: no cycle or twice issue; one
      // macro use reading one file through alternatives (`\\ifnew{\\subfile{x}}{\\subfile{\\base x}}`) reads it once
      const sameUse = edges.some((e) => e.target === target && incs[e.index]?.start === inc.start && incs[e.index]?.cmd === inc.cmd);
      if (inc.kind !== 'package' && !sameUse) edges.push({ index, target });
      if (target !== doc && !kids.includes(target)) kids.push(target);
    });
    return kids;
  }

  /**
   * Includes that close a cycle or read a file a second time (cached per graph generation).
   * Each project is walked depth-first in source order from its top documents (those nobody
   * includes; then, for cycles nobody enters from outside, the first document of the cycle
   * by path): an include of a document on the current path closes a cycle, one of a document
   * already read in this walk reads it twice.
   */
  includeIssues(doc: Doc): IncludeIssue[] {
    const g = this.graph();
    if (!g.issues) {
      const issues = new Map<Doc, IncludeIssue[]>();
      const reported = new Set<string>();
      const add = (d: Doc, issue: IncludeIssue): void => {
        const key = `${d.uri}\u0000${issue.index}`;
        if (reported.has(key)) return;
        reported.add(key);
        const list = issues.get(d);
        if (list) list.push(issue); else issues.set(d, [issue]);
      };
      const docs = [...g.edges.keys()].sort((a, b) => a.uri.localeCompare(b.uri));
      const walked = new Set<Doc>();
      const walk = (top: Doc): void => {
        const firstAt = new Map<Doc, { doc: Doc; index: number }>([[top, { doc: top, index: -1 }]]);
        const path: Doc[] = [top];
        const onPath = new Set<Doc>([top]);
        // iterative: include chains may be long
        const frames: Array<{ doc: Doc; next: number }> = [{ doc: top, next: 0 }];
        walked.add(top);
        while (frames.length) {
          const f = frames[frames.length - 1];
          const edges = g.edges.get(f.doc) ?? [];
          if (f.next >= edges.length) { frames.pop(); onPath.delete(path.pop()!); continue; }
          const e = edges[f.next++];
          if (onPath.has(e.target)) {
            add(f.doc, { index: e.index, kind: 'cycle', cycle: [...path.slice(path.indexOf(e.target)), e.target] });
            continue;
          }
          const first = firstAt.get(e.target);
          if (first) {
            if (first.index >= 0) add(f.doc, { index: e.index, kind: 'twice', target: e.target, first });
            continue;
          }
          firstAt.set(e.target, { doc: f.doc, index: e.index });
          walked.add(e.target);
          path.push(e.target);
          onPath.add(e.target);
          frames.push({ doc: e.target, next: 0 });
        }
      };
      for (const d of docs) if (!g.parents.get(d)?.length) walk(d);
      for (const d of docs) if (!walked.has(d)) walk(d);
      g.issues = issues;
    }
    return g.issues.get(doc) ?? [];
  }

  /**
   * When false, resolving an include never reads the disk: files not yet loaded are only
   * recorded (see pendingIncludes) so a server can load them asynchronously instead of
   * blocking a request. The CLI keeps the default (read synchronously).
   */
  loadIncludesSynchronously = true;
  private readonly pending = new Set<string>();

  /** Resolves an include to a document, loading it from disk if allowed. */
  resolveInclude(doc: Doc, inc: DocInclude): Doc | undefined {
    const p = this.resolveIncludePath(doc, inc);
    if (!p) return undefined;
    const known = this.store.stored(pathToUri(p));
    if (known) return known;
    if (this.loadIncludesSynchronously) return this.store.loadFile(p);
    if (!this.store.readFailed(pathToUri(p))) this.pending.add(p);
    return undefined;
  }

  /** Included files found on disk but not loaded yet (cleared by the call). */
  takePendingIncludes(): string[] {
    const out = [...this.pending];
    this.pending.clear();
    return out;
  }

  /**
   * The file an include points at, if it exists (relative to the file, then its ancestors).
   * Like TeX Live's kpathsea (since 2018), a name not found as written is looked up again
   * ignoring letter case in the same folder (`\subfile{Preface}` reads `preface.tex`), except
   * for packages, which are looked up as written.
   */
  resolveIncludePath(doc: Doc, inc: DocInclude): string | undefined {
    return this.lookUpInclude(doc, inc, false) ?? (inc.kind === 'package' ? undefined : this.lookUpInclude(doc, inc, true));
  }

  /**
   * Includes of `doc` that read their file only through the case-insensitive lookup, with the
   * file found (relative to `doc`); from the include graph, so no file is looked at.
   */
  foundByLetterCase(doc: Doc): Array<{ inc: DocInclude; found: string }> {
    const edges = (this.graph(), this.cache.edges.get(doc));
    const from = uriToPath(doc.uri);
    if (!edges?.length || !from) return [];
    const incs = this.includesOf(doc);
    const out: Array<{ inc: DocInclude; found: string }> = [];
    for (const e of edges) {
      const inc = incs[e.index];
      const target = uriToPath(e.target.uri);
      if (!inc || !target) continue;
      const written = path.basename(inc.path);
      const name = path.basename(target);
      if (name === written || name === `${written}.tex` || !sameFolding(name, written)) continue;
      out.push({ inc, found: path.relative(path.dirname(from), target) });
    }
    return out;
  }

  /**
   * Whether a file is at `p`, as the disk said at most FILE_LOOKUP_MS ago: while a project is
   * read, the include graph is rebuilt for each request (documents keep coming), and looked every
   * include up on disk again each time. A file event (`filesChanged`) forgets what was seen.
   */
  private fileThere(p: string): boolean {
    const now = performance.now();
    const seen = this.fileLookups.get(p);
    if (seen && now - seen.at < FILE_LOOKUP_MS) return seen.there;
    const there = isFile(p, this.store.fs);
    if (this.fileLookups.size >= 50_000) this.fileLookups.clear();
    this.fileLookups.set(p, { at: now, there });
    return there;
  }

  private readonly fileLookups = new Map<string, { at: number; there: boolean }>();

  /** Files appeared or went on disk: include lookups ask the disk again, and the include graph is made anew. */
  filesChanged(): void {
    this.fileLookups.clear();
    this.generation++;
  }

  private lookUpInclude(doc: Doc, inc: DocInclude, ignoreCase: boolean): string | undefined {
    const from = uriToPath(doc.uri);
    if (!from) return undefined;
    let rel = inc.dir ? path.join(inc.dir, inc.path) : inc.path;
    if (rel.includes('\\')) {
      // `\olpath/sty/x.sty` with the folder macro set by another file: the rest of the path,
      // looked up from this file's folder and its ancestors, names the file
      // (`\\filebase intro`: a folder macro before a bare name, found only where that file is)
      const rest = /^(?:\\[A-Za-z@]+(?:\s*\{\}\/|\/|\s+))+([^\\#\s][^\\#]*)$/.exec(rel)?.[1];
      if (!rest) return undefined;
      rel = rest;
    }
    const candidates = inc.kind === 'package' ? [rel] : path.extname(rel) && inc.kind !== 'external' ? [rel, rel + '.tex'] : [rel + '.tex', rel];
    if (inc.kind === 'bibliography') candidates.unshift(rel.endsWith('.bib') ? rel : rel + '.bib');
    const look = (dir: string): string | undefined => {
      for (const c of candidates) {
        const full = path.resolve(dir, c);
        if (!this.policy.mayRead(full)) {
          // not read; only its being there is looked at, to say why the include is not followed
          if (inc.kind !== 'package' && !ignoreCase && this.fileThere(full)) {
            this.policy.skipped(doc, inc, full);
          }
          continue;
        }
        if (!ignoreCase) {
          if (this.store.stored(pathToUri(full)) || this.fileThere(full)) return full;
          continue;
        }
        const name = this.folderNames(path.dirname(full)).get(path.basename(full).toLowerCase());
        if (name) return path.join(path.dirname(full), name);
      }
      return undefined;
    };
    let dir = path.dirname(from);
    for (let up = 0; up < 4; up++) {
      const hit = look(dir);
      if (hit) return hit;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    // TeX reads relative to where it runs: a shared preamble's \input is relative to the file compiled with it
    for (const d of this.compileFolders(from)) {
      const hit = look(d);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * Folders LaTeX runs in when it reads `file` as a preamble: those of the files naming it as
   * their main file (`\documentclass[../main]{subfiles}`), a few at most (per graph generation).
   */
  private compileFolders(file: string): string[] {
    if (this.preambleUsers.gen !== this.generation) {
      const byFile = new Map<string, string[]>();
      for (const d of this.store.storedDocs()) {
        const from = uriToPath(d.uri);
        if (!from) continue;
        for (const inc of d.includes()) {
          if (inc.cmd !== 'documentclass' || inc.kind !== 'package' || !inc.path.endsWith('.tex')) continue;
          const target = path.resolve(path.dirname(from), inc.path);
          const dirs = byFile.get(target) ?? [];
          if (dirs.length < MAX_COMPILE_FOLDERS && !dirs.includes(path.dirname(from))) dirs.push(path.dirname(from));
          byFile.set(target, dirs);
        }
      }
      this.preambleUsers = { gen: this.generation, byFile };
    }
    return this.preambleUsers.byFile.get(file) ?? [];
  }

  private preambleUsers = { gen: -1, byFile: new Map<string, string[]>() };

  /** A folder's file names by their lower-case form (read once per graph generation). */
  private folderNames(dir: string): Map<string, string> {
    if (this.caseListings.gen !== this.generation) this.caseListings = { gen: this.generation, dirs: new Map() };
    let names = this.caseListings.dirs.get(dir);
    if (!names) {
      names = new Map();
      try {
        for (const e of this.store.fs.readDir(dir)) if (e.isFile && !names.has(e.name.toLowerCase())) names.set(e.name.toLowerCase(), e.name);
      } catch { /* no such folder */ }
      this.caseListings.dirs.set(dir, names);
    }
    return names;
  }

  private caseListings = { gen: -1, dirs: new Map<string, Map<string, string>>() };

  /** Where the one file including `doc` reads it, if exactly one place of the project does. */
  includeSite(doc: Doc): { doc: Doc; offset: number } | undefined {
    let found: { doc: Doc; offset: number } | undefined;
    for (const p of this.parents(doc)) {
      const incs = this.includesOf(p);
      // the graph's edges (no file is looked at); packages make none
      for (const e of this.cache.edges.get(p) ?? []) {
        if (e.target !== doc || !incs[e.index]) continue;
        if (found) return undefined;
        found = { doc: p, offset: incs[e.index].start };
      }
    }
    return found;
  }

  includedBefore(doc: Doc, offset: number): Doc[] {
    const incs = this.includesOf(doc);
    const out: Doc[] = [];
    for (const e of (this.graph(), this.cache.edges.get(doc)) ?? []) if ((incs[e.index]?.start ?? Infinity) < offset) out.push(e.target);
    return out;
  }

  children(doc: Doc): Doc[] {
    return this.graph().children.get(doc) ?? [];
  }

  /**
   * Includes of `doc` (not packages, bibliographies or xr documents) whose file is not on disk
   * (cached per graph generation). A file found but not read yet is not missing.
   */
  missingIncludes(doc: Doc): DocInclude[] {
    const missing = this.graph().missing.get(doc);
    if (!missing?.length) return [];
    const incs = this.includesOf(doc);
    return missing.map((i) => incs[i]).filter((x) => x !== undefined);
  }

  /** Advances whenever the include graph may have changed (what per-project caches key on). */
  graphGeneration(): number {
    return this.graph().gen;
  }

  parents(doc: Doc): Doc[] {
    return this.graph().parents.get(doc) ?? [];
  }

  /** The document a `%!TEX root` comment of `doc` names, if it resolves. */
  private magicRoot(doc: Doc): Doc | undefined {
    const magic = doc.magic().find((m) => m.key === 'root');
    return magic ? this.resolveInclude(doc, { cmd: 'root', kind: 'input', path: magic.value, start: 0, end: 0 }) : undefined;
  }

  /**
   * Whether LaTeX compiles `doc` as a document: a note (Markdown), or a file one of whose roots
   * has `\documentclass` (or `\begin{document}`, with the class in an input preamble). A draft no
   * root includes, an old chapter, a snippet on its own are not compiled: what they reference
   * is not knowable. A package or class file is a macro source, never compiled as a document.
   */
  isCompiled(doc: Doc): boolean {
    if (doc.kind === 'markdown') return true;
    if (isMacroSource(doc)) return false;
    // the class may come from an input preamble (`\input{preamble}` holding `\documentclass`, maybe a level down)
    return this.compilations(doc).some((c) => [...c].some((d) => d.hasDocumentClass() || d.hasBeginDocument()));
  }

  /** Root documents `doc` is compiled from (cached per graph generation: callers must not change the list). */
  roots(doc: Doc): readonly Doc[] {
    const g = this.graph();
    let r = g.roots.get(doc);
    if (!r) {
      r = this.rootsUncached(doc);
      // resolving a root comment may have loaded a file (a new graph generation): cache only in the current one
      if (this.cache === g && g.gen === this.generation) g.roots.set(doc, r);
    }
    return r;
  }

  private rootsUncached(doc: Doc): Doc[] {
    const own = this.magicRoot(doc);
    if (own) return [own];
    const roots = new Set<Doc>();
    if (doc.hasDocumentClass()) roots.add(doc);
    const seen = new Set<Doc>([doc]);
    const queue = [...this.parents(doc)];
    const tops: Doc[] = [];
    while (queue.length) {
      const d = queue.shift()!;
      if (seen.has(d)) continue;
      seen.add(d);
      // an ancestor that names its root (a chapter's `%!TEX root = ../main.tex`) is compiled from
      // there, even when that root has not been read yet (the CLI checking one file)
      const named = this.magicRoot(d);
      if (named) { roots.add(named); continue; }
      if (d.hasDocumentClass()) roots.add(d);
      const ps = this.parents(d);
      if (ps.length === 0) tops.push(d);
      // a subfile (`\\documentclass[main]{subfiles}`) compiles alone and inside its parent alike
      else if (!d.hasDocumentClass() || isSubfile(d)) queue.push(...ps);
    }
    if (roots.size === 0) for (const t of tops) roots.add(t);
    if (roots.size === 0) roots.add(doc);
    return [...roots];
  }

  /** Every document compiled together with `doc` (itself included). */
  scope(doc: Doc): Set<Doc> {
    const g = this.graph();
    let s = g.scopes.get(doc);
    if (s) return s;
    s = new Set<Doc>([doc]);
    const stack = [...this.roots(doc)];
    while (stack.length) {
      const d = stack.pop()!;
      if (s.has(d) && d !== doc) continue;
      s.add(d);
      for (const k of this.children(d)) if (!s.has(k)) stack.push(k);
    }
    // the descendants of doc itself are in scope even when roots are not known
    const own = [...this.children(doc)];
    while (own.length) {
      const d = own.pop()!;
      if (s.has(d)) continue;
      s.add(d);
      own.push(...this.children(d));
    }
    // documents compiled together share one scope object, so what is cached per scope (the
    // project's macros, its label universe) is built once for all of them (a book of subfiles)
    // exact integer sums in any order: the same set gets the same hash however it was collected
    let h = s.size;
    for (const d of s) h = (h + docHash(d)) >>> 0;
    const same = g.sharedScopes.get(h)?.find((o) => o.size === s!.size && [...s!].every((d) => o.has(d)));
    if (same) s = same;
    else g.sharedScopes.set(h, [...(g.sharedScopes.get(h) ?? []), s]);
    g.scopes.set(doc, s);
    return s;
  }

  /**
   * The compilations `doc` is part of: for each of its roots, every document that root reads
   * (cached per graph generation). Two volumes of a book over shared chapters are two
   * compilations: a label in each is no duplicate.
   */
  compilations(doc: Doc): Set<Doc>[] {
    const g = this.graph();
    return this.roots(doc).map((r) => {
      let c = g.closures.get(r);
      if (!c) {
        c = new Set<Doc>();
        const stack = [r];
        while (stack.length) {
          const d = stack.pop()!;
          if (c.has(d)) continue;
          c.add(d);
          for (const k of this.children(d)) if (!c.has(k)) stack.push(k);
        }
        g.closures.set(r, c);
      }
      return c;
    });
  }

  /** Documents visible through xr `\externaldocument[prefix]{file}` from `doc`'s project. */
  externals(doc: Doc): External[] {
    const g = this.graph();
    let ext = g.externals.get(doc);
    if (ext) return ext;
    ext = [];
    for (const d of this.scope(doc)) {
      for (const inc of d.includes()) {
        if (inc.kind !== 'external') continue;
        const target = this.resolveInclude(d, inc);
        if (target) ext.push({ prefix: inc.prefix ?? '', scope: this.scope(target) });
      }
    }
    g.externals.set(doc, ext);
    return ext;
  }

  private externalsByPrefix = new WeakMap<External[], { lengths: number[]; map: Map<string, External[]> }>();

  /** xr documents by prefix, and the prefix lengths in use (for a reference's name to be split at). */
  prefixIndex(ext: External[]): { lengths: number[]; map: Map<string, External[]> } {
    let idx = this.externalsByPrefix.get(ext);
    if (!idx) {
      const map = new Map<string, External[]>();
      for (const e of ext) { const l = map.get(e.prefix); if (l) l.push(e); else map.set(e.prefix, [e]); }
      idx = { lengths: [...new Set(ext.map((e) => e.prefix.length))].sort((a, b) => a - b), map };
      this.externalsByPrefix.set(ext, idx);
    }
    return idx;
  }

  /** Documents of the given roots in include (depth-first, source) order. */
  includeOrder(roots: readonly Doc[]): Doc[] {
    const out: Doc[] = [];
    const seen = new Set<Doc>();
    const visit = (d: Doc): void => {
      if (seen.has(d)) return;
      seen.add(d);
      out.push(d);
      for (const k of this.children(d)) visit(k);
    };
    for (const r of roots) visit(r);
    return out;
  }
}
