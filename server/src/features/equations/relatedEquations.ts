// "Find related equations": for a display equation of the workspace (or a LaTeX text), the
// equations elsewhere in the workspace, in the author's library (the papers' displays, read
// under each paper's macros) and in the bundled index that say the same thing or are closely
// related (index/equationRanking.ts fuses fingerprints, the formula encoder and
// structure). The query equation itself is excluded. Also the code lens on every display
// equation and labelled row (cheap; its resolution runs the search) and the arguments of the
// server command `mathsense.findRelatedEquations` (the lenses: equationLenses.ts).
import * as path from 'node:path';
import type { Position } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { pathToUri, uriToPath } from '../../project/files.js';
import { within } from '../../util/paths.js';
import { expandProofWikiMacros } from '../../syntax/proofwikiMacros.js';
import { expandMacros, macroTable, type MacroDef } from '../../math/macros.js';
import type { EquationFeatures } from '../../index/equationFeatures.js';
import { rankEquations, W_FINGERPRINT, type Scored } from '../../index/equationRanking.js';
import type { RelatedEquation, RelatedResponse, Why } from '../../ext/protocol.js';
import type { IndexEquations } from '../../index/equationStore.js';
import type { LoadedIndex } from '../../index/store.js';
import { documentEquations, type DocEquation } from '../../analysis/equationSites.js';
import type { WorkspaceEquations } from '../../index/workspaceEquations.js';
import { confirmedSame, copyGroup, copyText } from './equationClaims.js';
import type { DisplayRelations } from '../../math/equations/equation.js';
import type { LibraryEquations } from '../../index/library/libraryStore.js';
import { resultName } from '../../index/library/citeLibraryResult.js';
import { displayEntry } from '../../index/library/papers.js';

/** What a search needs; the server and the CLI each provide it. */
export interface RelatedContext {
  ws: Workspace;
  equations: WorkspaceEquations;
  /** Loaded index with its equations (undefined: workspace only). */
  index?: { index: LoadedIndex; equations: IndexEquations };
  /** The query's formula-encoder vector (bounded wait); undefined without the model. */
  queryVector?: (canonical: string) => Promise<Float32Array | undefined>;
  /** Whether index vectors were made by the encoder that makes query vectors. */
  indexVectorsMatch?: () => boolean;
  /** Why the encoder is not used, when it is not. */
  encoderMessage?: () => string | undefined;
  /** The library folders a document reads (every served folder for a LaTeX text), with their displays. */
  library?: (doc: Doc | undefined) => ReadonlyArray<{ folder: string; equations: LibraryEquations }>;
  /** Whether a file is the project's (in a workspace folder); absent: every open document is. */
  inProject?: (uri: string) => boolean;
}

/** A ranked hit and where it is from; a library's carries its folder and displays (ids index them). */
type Source = { from: 'workspace' | 'index'; s: Scored; lib?: undefined } | { from: 'library'; s: Scored; lib: { folder: string; equations: LibraryEquations } };

export interface RelatedOptions {
  limit?: number;
  /** Wait up to this long for workspace equations still being analysed. */
  waitMs?: number;
  /** Fewer candidates scored exactly (many searches at once: lenses). */
  quick?: boolean;
}

export type RelatedQuery = { doc: Doc; site: DocEquation } | { latex: string; macros?: readonly MacroDef[] };

const MAX_QUERY_CHARS = 5000;
/** Index equations are read with ProofWiki's macros written out (no table of their own). */
const PROOFWIKI_KEY = 'proofwiki';
/** A display in a copy of the query's file with nearly its shape is the query's display there, edited or not. */
const COPY_STRUCTURE = 0.9;
/** An equal fingerprint not confirmed ranks above the rest only with at least this much of the query's shape. */
const PROMOTED_STRUCTURE = 0.5;
/** Scores this close count as equal evidence: the workspace's equation goes first. */
const NEAR_EQUAL = 0.02;

/** The math of a site as shown: labels, tags and `\\notag` dropped; a row without its alignment marks. */
export function shownLatex(s: Pick<DocEquation, 'latex'> & Partial<Pick<DocEquation, 'row'>>): string {
  let t = s.latex.replace(/\\(label|tag\*?)\s*\{[^{}]*\}|\\(nonumber|notag)\b/g, '');
  if (s.row !== undefined) t = t.replace(/(?<!\\)&/g, ' ').replace(/\\\\\s*$/, '');
  return t.replace(/[ \t]+\n/g, '\n').replace(/\n{2,}/g, '\n').replace(/[ \t]{2,}/g, ' ').trim();
}

function displayLatex(latex: string, defs: readonly MacroDef[]): string {
  return expandMacros(latex, macroTable(defs)) ?? latex;
}

export async function findRelatedEquations(ctx: RelatedContext, q: RelatedQuery, opts: RelatedOptions = {}): Promise<RelatedResponse> {
  const limit = opts.limit ?? 20;
  let f: EquationFeatures;
  let site: DocEquation | undefined;
  let asked = '';
  let askedKey = '';
  let askedDefs: readonly MacroDef[] = [];
  if ('site' in q) {
    site = q.site;
    f = ctx.equations.featuresNow(ctx.ws, site);
  } else {
    const latex = q.latex.length > MAX_QUERY_CHARS ? q.latex.slice(0, MAX_QUERY_CHARS) : q.latex;
    asked = latex.trim();
    askedDefs = q.macros ?? [];
    askedKey = askedDefs.length ? `q:${JSON.stringify(askedDefs)}` : '';
    f = ctx.equations.analyses.now(latex, askedKey, askedDefs);
  }
  const vecP = ctx.queryVector ? ctx.queryVector(f.canonical) : Promise.resolve(undefined);
  if (opts.waitMs) {
    ctx.equations.snapshot(ctx.ws); // queues what is not analysed yet
    await ctx.equations.analyses.idle(opts.waitMs);
  }
  const vec = await vecP;
  const query = { f, vec };
  const snap = ctx.equations.snapshot(ctx.ws);
  const exclude = site ? (id: number) => { const s = snap.sites[id]; return s.doc === site!.doc && s.start < site!.end && site!.start < s.end; } : undefined;
  const hits: Source[] = rankEquations(query, snap.corpus, { limit: limit * 2, exclude, quick: opts.quick }).map((s) => ({ from: 'workspace' as const, s }));
  if (ctx.index) {
    // index vectors are comparable only when made by the encoder that made the query's
    const iq = vec && ctx.indexVectorsMatch?.() ? query : { ...query, vec: undefined };
    for (const s of rankEquations(iq, ctx.index.equations, { limit, quick: opts.quick })) hits.push({ from: 'index', s });
  }
  // the library's displays have no formula-encoder vectors. A display of a project file the
  // workspace has open is the workspace's hit; a library paper opened in the editor (from a peek)
  // stays the library's, and is no hit of "this project"
  const libraries = ctx.library?.(site?.doc) ?? [];
  const inProject = (uri: string) => !ctx.inProject || ctx.inProject(uri);
  for (const lib of libraries) {
    // the library's files open as the project's (or as the query's own document), found once per search
    const open = new Set<string>();
    for (const d of libraries.length ? ctx.ws.all() : []) {
      const file = uriToPath(d.uri);
      if (file && within(lib.folder, file) && (inProject(d.uri) || d === site?.doc)) open.add(path.relative(lib.folder, file));
    }
    const exclude = open.size ? (id: number) => open.has(lib.equations.displays[id].display.file) : undefined;
    for (const s of rankEquations({ ...query, vec: undefined }, lib.equations.corpus, { limit, quick: opts.quick, exclude })) hits.push({ from: 'library', s, lib });
  }
  const libraryPaper = (doc: Doc) => {
    if (doc === site?.doc || inProject(doc.uri)) return false;
    const file = uriToPath(doc.uri);
    return !!file && libraries.some((l) => within(l.folder, file));
  };
  /** A library display's macro table, as the equation analyses keep it (one per paper). */
  const paperMacros = (d: LibraryEquations['displays'][number]) => ctx.equations.analyses.table(`lib:${d.paper.hash}`, d.macros);
  // "same equation" only where confirmed; the query's display is read once
  const reader = ctx.equations.displays;
  let queryDisplay: DisplayRelations | undefined | null = null;
  const qDisplay = () => {
    if (queryDisplay === null) {
      queryDisplay = site ? ctx.equations.displayOf(ctx.ws, site) : reader.read(asked, askedKey, ctx.equations.analyses.table(askedKey, askedDefs));
    }
    return queryDisplay;
  };
  /** 'same' when confirmed, 'differs' when both displays were read and no renaming makes them agree, else 'unknown'. */
  const verdict = (h: Source): 'same' | 'differs' | 'unknown' => {
    if (h.s.why.fingerprint !== 'equation' && h.s.why.fingerprint !== 'identity') return 'unknown';
    const q = qDisplay();
    if (!q) return 'unknown';
    const libraryDisplay = () => {
      const d = h.lib!.equations.displays[h.s.id];
      return reader.read(d.display.latex, `lib:${d.paper.hash}`, paperMacros(d));
    };
    const c = h.from === 'workspace'
      ? ctx.equations.displayOf(ctx.ws, snap.sites[h.s.id])
      : h.from === 'library' ? libraryDisplay()
      : reader.read(expandProofWikiMacros(ctx.index!.equations.line(h.s.id).latex), PROOFWIKI_KEY, undefined);
    if (!c) return 'unknown';
    return confirmedSame(q, c) ? 'same' : 'differs';
  };
  const ranked = hits.map((h): Source & { same: boolean } => {
    const v = verdict(h);
    // an equal fingerprint that does not hold up, on a display of another shape, was a collision:
    // it no longer counts (`\frac{dx}{ds} = 1` is not `\arccot x = \frac12`)
    if (v === 'differs' && h.s.why.structure < PROMOTED_STRUCTURE) {
      const why: Why = { ...h.s.why };
      delete why.fingerprint;
      return { ...h, s: { ...h.s, score: Math.round((h.s.score - W_FINGERPRINT) * 1000) / 1000, why }, same: false };
    }
    return { ...h, same: v === 'same' };
  });
  // confirmed equivalents first, then the other equal fingerprints (each the workspace's before
  // the index's); otherwise by score, the workspace's first where the evidence is about equal
  // (an unconfirmed collision of a quite different shape is not promoted: `u_s = 0` and `x + y y' = 0`)
  const exact = (h: (typeof ranked)[number]) => (h.s.why.fingerprint === 'equation' || h.s.why.fingerprint === 'identity') && h.s.why.structure >= PROMOTED_STRUCTURE;
  const tier = (h: (typeof ranked)[number]) => (h.same ? 0 : exact(h) ? 2 : 4) + (h.from === 'workspace' || !(h.same || exact(h)) ? 0 : 1);
  const sortScore = (h: (typeof ranked)[number]) => h.s.score + (h.from === 'workspace' ? NEAR_EQUAL : 0);
  ranked.sort((a, b) => tier(a) - tier(b) || sortScore(b) - sortScore(a));
  // a labelled row found: its whole environment is not listed as well
  const rowHits = ranked.filter((h) => h.from === 'workspace' && snap.sites[h.s.id].row !== undefined).map((h) => snap.sites[h.s.id]);
  const covers = (s: DocEquation) => s.row === undefined && rowHits.some((r) => r.doc === s.doc && s.start <= r.start && r.end <= s.end);
  const results: RelatedEquation[] = [];
  const copies: RelatedEquation[] = [];
  const seen = new Set<string>();
  const byText = new Map<string, RelatedEquation>();
  const queryText = site ? copyText(shownLatex(site)) : undefined;
  const queryGroup = site ? copyGroup(snap, site.doc) : undefined;
  for (const h of ranked) {
    if (results.length >= limit) break;
    if (h.from === 'workspace') {
      const s = snap.sites[h.s.id];
      if (covers(s) || libraryPaper(s.doc)) continue;
      const where = `${s.doc.uri}#${s.line}`;
      if (seen.has(where)) continue; // a labelled row and its environment: the better one
      seen.add(where);
      const file = uriToPath(s.doc.uri) ?? s.doc.uri;
      const latex = shownLatex(s);
      const r: RelatedEquation = {
        latex, display: displayLatex(latex, ctx.equations.macros.of(ctx.ws, s.doc).defs), score: h.s.score, why: h.s.why, source: 'workspace',
        ...(h.same ? { same: true as const } : {}),
        uri: s.doc.uri, file, line: s.line + 1, range: s.doc.range(formulaStart(s.doc.text, s.start, s.end), s.end), ...(s.label ? { label: s.label } : {}),
      };
      const group = copyGroup(snap, s.doc);
      const text = copyText(latex);
      // the query's own display in a copy of its file (slides, an old version, perhaps edited a
      // little there): a copy, not a find
      if (queryGroup !== undefined && group === queryGroup && s.doc !== site!.doc && (text === queryText || h.same || h.s.why.structure >= COPY_STRUCTURE)) { copies.push({ ...r, copy: true }); continue; }
      // identical displays in copies of one file count once
      const first = byText.get(`${group}\u0000${text}`);
      if (first) { (first.copies ??= []).push({ uri: r.uri!, file, line: r.line!, range: r.range! }); continue; }
      byText.set(`${group}\u0000${text}`, r);
      results.push(r);
    } else if (h.from === 'library') {
      const d = h.lib.equations.displays[h.s.id];
      const { paper, display } = d;
      // the same display twice in one paper (a restatement, a copy in an appendix): once
      const key = `${h.lib.folder}\u0000${paper.id}\u0000${copyText(display.latex)}`;
      if (byText.has(key)) continue;
      const latex = shownLatex({ latex: display.latex });
      const file = path.join(h.lib.folder, display.file);
      const entry = displayEntry(display);
      const at = { line: display.line - 1, character: 0 };
      const r: RelatedEquation = {
        latex, display: expandMacros(latex, paperMacros(d)) ?? latex, score: h.s.score, why: h.s.why, source: 'library', ...(h.same ? { same: true as const } : {}),
        uri: pathToUri(file), file, line: display.line, range: { start: at, end: at }, ...(display.label ? { label: display.label } : {}),
        title: resultName(entry), paper: paper.meta.title ?? paper.id,
        cite: { folder: h.lib.folder, paper: paper.id, file: display.file, line: display.line },
      };
      byText.set(key, r);
      results.push(r);
    } else {
      const eq = ctx.index!.equations.line(h.s.id);
      const entry = ctx.index!.index.entry(eq.e);
      // the same equation on a page and its subpages (`Page/Proof 2`): once, on the first
      const page = entry.title.split('/')[0];
      const key = `${page}#${copyText(eq.latex)}`;
      const first = byText.get(key);
      if (first) { if (entry.title !== first.title && !(first.pages ??= []).includes(entry.title)) first.pages.push(entry.title); continue; }
      const r: RelatedEquation = { latex: eq.latex, display: expandProofWikiMacros(eq.latex), score: h.s.score, why: h.s.why, source: 'index', ...(h.same ? { same: true as const } : {}), title: entry.title, url: entry.url, licence: entry.licence };
      byText.set(key, r);
      results.push(r);
    }
  }
  results.push(...copies.slice(0, Math.max(0, limit - results.length)));
  const encoder = !!vec;
  const notes: string[] = [];
  if (!encoder) notes.push(ctx.encoderMessage?.() ?? 'formula encoder unavailable: ranked by fingerprints and structure');
  if (snap.pending) notes.push(`${snap.pending} workspace equations are still being analysed`);
  if (!ctx.index) notes.push('no bundled index: workspace equations only');
  return {
    query: { latex: site ? shownLatex(site) : asked, canonical: f.canonical, ...(site ? { uri: site.doc.uri, line: site.line + 1, character: site.doc.positionAt(site.start).character, ...(site.label ? { label: site.label } : {}), after: site.doc.positionAt(displayEnd(site)) } : {}) },
    results, encoder, pending: snap.pending, ...(notes.length ? { message: notes.join('; ') } : {}),
  };
}

/** Where a site's display ends: a labelled row's, its environment's (a citation after it is not inside the alignment). */
function displayEnd(site: DocEquation): number {
  if (site.row === undefined) return site.end;
  return documentEquations(site.doc).find((s) => s.row === undefined && s.start <= site.start && site.end <= s.end)?.end ?? site.end;
}

/** Arguments of `mathsense.findRelatedEquations`: `{uri, position}` / `{latex}`, or `[uri, position]` / `[latex]`. */
export function parseFindArgs(args: readonly unknown[] | undefined): { uri: string; position: Position } | { latex: string } | { error: string } {
  const a = args ?? [];
  const first = a[0] as Record<string, unknown> | string | undefined;
  const isPos = (p: unknown): p is Position => !!p && typeof p === 'object' && Number.isInteger((p as Position).line) && Number.isInteger((p as Position).character) && (p as Position).line >= 0 && (p as Position).character >= 0;
  if (typeof first === 'string') {
    if (isPos(a[1])) return { uri: first, position: a[1] };
    return first.trim() ? { latex: first } : { error: 'empty LaTeX' };
  }
  if (first && typeof first === 'object') {
    if (typeof first.latex === 'string') return first.latex.trim() ? { latex: first.latex } : { error: 'empty LaTeX' };
    const uri = first.uri ?? (first.textDocument as { uri?: unknown } | undefined)?.uri;
    if (typeof uri === 'string' && isPos(first.position)) return { uri, position: first.position };
  }
  return { error: `expected {uri, position} or {latex}, got ${JSON.stringify(a).slice(0, 200)}` };
}

/** An empty answer saying why (bad arguments, no equation at the position, …). */
export function emptyResponse(message: string, latex = ''): RelatedResponse {
  return { query: { latex, canonical: '' }, results: [], encoder: false, pending: 0, message };
}

/** A display's opener, labels and blank space before its formula. */
const OPENER = /^(?:\s+|\\begin\s*\{[^{}]*\}(?:\s*\{\d+\})?|\\\[|\$\$|\\label\s*\{[^{}]*\}|\\(?:notag|nonumber)\b|%[^\n]*)+/;

/**
 * Where the formula of the display at [start, end) begins: after `\begin{…}`, `\[`, `$$` and
 * labels. A location there makes an editor's references peek show the equation's own text, not
 * its `\begin` line.
 */
export function formulaStart(text: string, start: number, end: number): number {
  const m = OPENER.exec(text.slice(start, Math.min(end, start + 400)));
  const at = start + (m?.[0].length ?? 0);
  return at < end ? at : start;
}
