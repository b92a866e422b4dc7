// "Find related equations": for a display equation of the workspace (or a LaTeX text), the
// equations elsewhere in the workspace and in the bundled index that say the same thing or are
// closely related (index/equationRanking.ts fuses fingerprints, the formula encoder and
// structure). The query equation itself is excluded. Also the code lens on every display
// equation and labelled row (cheap; its resolution runs the search) and the arguments of the
// server command `mathsense.findRelatedEquations`.
import type { CodeLens, Position, Range } from 'vscode-languageserver';
import type { Doc, Workspace } from '../project/workspace.js';
import { uriToPath } from '../project/files.js';
import { expandProofWikiMacros } from '../index/proofwikiMacros.js';
import { expandMacros, macroTable, type MacroDef } from '../math/macros.js';
import type { EquationFeatures } from '../index/equationFeatures.js';
import { rankEquations, type Scored, type Why } from '../index/equationRanking.js';
import type { IndexEquations } from '../index/equationStore.js';
import type { LoadedIndex } from '../index/store.js';
import { documentEquations, equationAt, type DocEquation } from './equationSites.js';
import type { WorkspaceEquations } from './workspaceEquations.js';

export const FIND_RELATED_COMMAND = 'mathsense.findRelatedEquations';
/** Client command a resolved lens carries (VS Code: references peek + results panel). */
export const SHOW_RELATED_COMMAND = 'mathsense.showRelatedEquations';
export const LENS_TITLE = 'Find related equations';
export const NO_RELATED = 'No related equations';

export interface RelatedEquation {
  /** The equation as written. */
  latex: string;
  /** The same with the document's (or ProofWiki's) macros expanded, for rendering. */
  display: string;
  score: number;
  why: Why;
  source: 'workspace' | 'index';
  /** Workspace hits: where (line is 1-based; range is the LSP range of the equation or row). */
  uri?: string;
  file?: string;
  line?: number;
  range?: Range;
  label?: string;
  /** Index hits: the page, its URL and licence line. */
  title?: string;
  url?: string;
  licence?: string;
}

export interface RelatedResponse {
  query: { latex: string; canonical: string; uri?: string; line?: number; label?: string };
  results: RelatedEquation[];
  /** Whether formula-encoder similarities were used. */
  encoder: boolean;
  /** Workspace equations not analysed yet (results may be incomplete). */
  pending: number;
  message?: string;
}

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
}

export interface RelatedOptions {
  limit?: number;
  /** Wait up to this long for workspace equations still being analysed. */
  waitMs?: number;
}

export type RelatedQuery = { doc: Doc; site: DocEquation } | { latex: string; macros?: readonly MacroDef[] };

const MAX_QUERY_CHARS = 5000;

/** The math of a site as shown: labels, tags and `\\notag` dropped; a row without its alignment marks. */
export function shownLatex(s: Pick<DocEquation, 'latex' | 'row'>): string {
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
  if ('site' in q) {
    site = q.site;
    f = ctx.equations.featuresNow(ctx.ws, site);
  } else {
    const latex = q.latex.length > MAX_QUERY_CHARS ? q.latex.slice(0, MAX_QUERY_CHARS) : q.latex;
    asked = latex.trim();
    const defs = q.macros ?? [];
    f = ctx.equations.analyses.now(latex, defs.length ? `q:${JSON.stringify(defs)}` : '', defs);
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
  const hits: Array<{ from: 'workspace' | 'index'; s: Scored }> = rankEquations(query, snap.corpus, { limit: limit * 2, exclude }).map((s) => ({ from: 'workspace' as const, s }));
  if (ctx.index) {
    // index vectors are comparable only when made by the encoder that made the query's
    const iq = vec && ctx.indexVectorsMatch?.() ? query : { ...query, vec: undefined };
    for (const s of rankEquations(iq, ctx.index.equations, { limit })) hits.push({ from: 'index', s });
  }
  hits.sort((a, b) => b.s.score - a.s.score);
  // a labelled row found: its whole environment is not listed as well
  const rowHits = hits.filter((h) => h.from === 'workspace' && snap.sites[h.s.id].row !== undefined).map((h) => snap.sites[h.s.id]);
  const covers = (s: DocEquation) => s.row === undefined && rowHits.some((r) => r.doc === s.doc && s.start <= r.start && r.end <= s.end);
  const results: RelatedEquation[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (results.length >= limit) break;
    if (h.from === 'workspace') {
      const s = snap.sites[h.s.id];
      if (covers(s)) continue;
      const where = `${s.doc.uri}#${s.line}`;
      if (seen.has(where)) continue; // a labelled row and its environment: the better one
      seen.add(where);
      const file = uriToPath(s.doc.uri) ?? s.doc.uri;
      const latex = shownLatex(s);
      results.push({
        latex, display: displayLatex(latex, ctx.equations.macros.of(ctx.ws, s.doc).defs), score: h.s.score, why: h.s.why, source: 'workspace',
        uri: s.doc.uri, file, line: s.line + 1, range: s.doc.range(formulaStart(s.doc.text, s.start, s.end), s.end), ...(s.label ? { label: s.label } : {}),
      });
    } else {
      const eq = ctx.index!.equations.line(h.s.id);
      const entry = ctx.index!.index.entry(eq.e);
      const key = `${entry.url}#${eq.latex}`;
      if (seen.has(key)) continue; // the same equation in two proofs of one page
      seen.add(key);
      results.push({ latex: eq.latex, display: expandProofWikiMacros(eq.latex), score: h.s.score, why: h.s.why, source: 'index', title: entry.title, url: entry.url, licence: entry.licence });
    }
  }
  const encoder = !!vec;
  const notes: string[] = [];
  if (!encoder) notes.push(ctx.encoderMessage?.() ?? 'formula encoder unavailable: ranked by fingerprints and structure');
  if (snap.pending) notes.push(`${snap.pending} workspace equations are still being analysed`);
  if (!ctx.index) notes.push('no bundled index: workspace equations only');
  return {
    query: { latex: site ? shownLatex(site) : asked, canonical: f.canonical, ...(site ? { uri: site.doc.uri, line: site.line + 1, ...(site.label ? { label: site.label } : {}) } : {}) },
    results, encoder, pending: snap.pending, ...(notes.length ? { message: notes.join('; ') } : {}),
  };
}

/** One lens per display equation and labelled row; resolution fills in the command. */
export function equationLenses(doc: Doc): CodeLens[] {
  return documentEquations(doc).map((s) => {
    const p = doc.positionAt(s.start);
    return { range: { start: p, end: p }, data: { uri: doc.uri, start: s.start, end: s.end, version: doc.version } };
  });
}

export interface LensData { uri: string; start: number; end: number; version?: number }

export function lensData(data: unknown): LensData | undefined {
  const d = data as Partial<LensData> | undefined;
  return d && typeof d.uri === 'string' && Number.isInteger(d.start) && Number.isInteger(d.end) ? (d as LensData) : undefined;
}

/** The site a lens was made for (the same span, else whatever equation is at its start now). */
export function lensSite(doc: Doc, d: LensData): DocEquation | undefined {
  return documentEquations(doc).find((s) => s.start === d.start && s.end === d.end) ?? equationAt(doc, d.start);
}

export function lensTitle(r: RelatedResponse): string {
  if (r.results.length === 0) return r.pending ? `${LENS_TITLE} (analysing ${r.pending} equations…)` : NO_RELATED;
  const best = r.results[0];
  const what = best.why.fingerprint === 'equation' || best.why.fingerprint === 'identity' ? ' · same equation found' : '';
  // the count alone says little (there are always 20 somewhat alike): the best score says how close they are
  return `${LENS_TITLE} (${r.results.length}${r.results.length >= 20 ? '+' : ''}, closest ${best.score.toFixed(2)})${what}`;
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
