// The code lens "Find related equations" on display equations and labelled rows. Where it
// appears is a setting (`all`: every display, resolved lazily; `matches`: only displays with
// something worth opening, a confirmed equivalent or a close hit; `off`). Its title says what
// is there ("Same as eq:heat in ch-pde.tex · close: 2 in ProofWiki"), never a bare count:
// copies of the query (slides, old versions) are left out of it, the project's hits, the
// library's ("Same as Equation (3.2) in <paper>", "close: 1 in your library") and ProofWiki's
// are counted apart.
import type { CodeLens } from 'vscode-languageserver-types';
import type { Doc } from '../../project/workspace.js';
import { copyGroups, copyText } from './equationClaims.js';
import { documentEquations, equationAt, type DocEquation } from '../../analysis/equationSites.js';
import { findRelatedEquations, type RelatedContext } from './relatedEquations.js';
import type { WorkspaceSnapshot } from '../../index/workspaceEquations.js';
import type { MatchCache } from '../../index/matchCache.js';
import { SHOW_RELATED_COMMAND, type RelatedEquation, type RelatedResponse } from '../../ext/protocol.js';

export const LENS_TITLE = 'Find related equations';
export const NO_RELATED = 'No related equations';

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

/** Where lenses appear: on every display, only where there is something worth opening, or nowhere. */
export type LensMode = 'all' | 'matches' | 'off';
export const LENS_MODES: readonly LensMode[] = ['all', 'matches', 'off'];

/**
 * A hit not confirmed the same is worth opening when its text has nearly the query's shape
 * (structural similarity of the canonical texts): a twin the evaluator cannot read (integrals,
 * sets, infinite series) or the same display written again. A fingerprint collision alone is
 * not enough.
 */
export const CLOSE_STRUCTURE = 0.9;

/** What a lens says: confirmed equivalents and close hits, each source counted apart; copies left out. */
export interface LensSummary {
  same: { workspace: RelatedEquation[]; index: RelatedEquation[]; library: RelatedEquation[] };
  /** The query's text written again elsewhere in the project (not a copy of its file), unconfirmed. */
  again: RelatedEquation[];
  close: { workspace: number; index: number; library: number };
  /** The close hits counted. */
  closeHits: RelatedEquation[];
}

/** Canonical tokens a display needs before a look-alike is worth a lens (`f(t) = t` has six). */
export const MIN_CLOSE_TOKENS = 8;
const RELATION = /(?:^| )(?:=|<|>|\\leq|\\geq|\\neq|\\approx|\\equiv|\\sim|\\simeq|\\coloneqq|\\in|\\subseteq|\\subset|\\to)(?: |$)/;

/** Relations as a lens compares them: a definition's `:=` is `=`, strict and weak inequalities one direction each. */
const RELATION_OF: Record<string, string> = {
  '=': '=', ':=': '=', '\\coloneqq': '=', '\\eqqcolon': '=', '\\triangleq': '=', '\\equiv': '≡', '\\neq': '≠', '\\ne': '≠',
  '<': '<', '\\le': '<', '\\leq': '<', '\\leqslant': '<', '>': '>', '\\ge': '>', '\\geq': '>', '\\geqslant': '>',
  '\\subset': '⊂', '\\subseteq': '⊂', '\\in': '∈', '\\to': '→', '\\approx': '≈', '\\sim': '~', '\\simeq': '≃', '\\cong': '≅',
};
const RELATION_TOKEN = /:=|\\[a-zA-Z]+|[=<>]/g;

/** The relations of a display in order (`a \le b = c` → `<=`). */
export function relationsOf(latex: string): string {
  let t = latex.replace(/\\(left|right|big|Big|bigg|Bigg)[lr]?\b/g, '');
  // not those of limits and indices (`\sum_{n=0}`, `\lim_{x \to c}`)
  for (let before = ''; before !== t;) { before = t; t = t.replace(/[_^]\s*\{[^{}]*\}/g, ''); }
  let out = '';
  for (const m of t.matchAll(RELATION_TOKEN)) out += RELATION_OF[m[0]] ?? '';
  return out;
}

/**
 * A library display is close only with the query's relations, in order: a library is another
 * author's large collection, where a sum of the same shape is often another statement (`Σ x ≤ Σ y`
 * is not `Σ r = Σ s`; a linear combination is not an equation that it is 0).
 */
function closeForLens(r: RelatedResponse, x: RelatedEquation): boolean {
  return x.why.structure >= CLOSE_STRUCTURE && (x.source !== 'library' || relationsOf(x.latex) === relationsOf(r.query.latex));
}

export function lensSummary(r: RelatedResponse): LensSummary {
  const out: LensSummary = { same: { workspace: [], index: [], library: [] }, again: [], close: { workspace: 0, index: 0, library: 0 }, closeHits: [] };
  const text = copyText(r.query.latex);
  // look-alikes count for a display that says something: a relation, and more than a few symbols
  // (not a matrix of a row reduction, not `F \vec{x}`)
  const canonical = r.query.canonical;
  const closeCounts = RELATION.test(canonical) && canonical.split(' ').length >= MIN_CLOSE_TOKENS;
  for (const x of r.results) {
    if (x.copy) continue;
    if (x.same) out.same[x.source].push(x);
    else if (x.source === 'workspace' && copyText(x.latex) === text) out.again.push(x);
    else if (closeCounts && closeForLens(r, x)) { out.close[x.source]++; out.closeHits.push(x); }
  }
  return out;
}

/** The response with the results its lens title counts marked, so the peek opens those and no others. */
export function withCounted(r: RelatedResponse): RelatedResponse {
  const s = lensSummary(r);
  const counted = new Set<RelatedEquation>([...s.same.workspace, ...s.same.library, ...s.same.index, ...s.again, ...s.closeHits]);
  return { ...r, results: r.results.map((x) => (counted.has(x) ? { ...x, counted: true as const } : x)) };
}

/** Something worth opening: a confirmed equivalent or a close hit. */
export function worthOpening(r: RelatedResponse): boolean {
  const s = lensSummary(r);
  return s.same.workspace.length + s.same.library.length + s.same.index.length + s.again.length + s.close.workspace + s.close.library + s.close.index > 0;
}

const baseName = (file: string) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);

/** "eq:transport in ch-systems.tex", "line 120 of ch-systems.tex", "line 120" in the query's own file. */
function place(x: RelatedEquation, queryUri: string | undefined): string {
  const where = x.label ?? `line ${x.line}`;
  if (x.uri === queryUri) return where;
  return `${where}${x.label ? ' in' : ' of'} ${baseName(x.file ?? x.uri ?? '')}`;
}

export function lensTitle(r: RelatedResponse): string {
  if (r.results.length === 0) return r.pending ? `${LENS_TITLE} (analysing ${r.pending} equations…)` : NO_RELATED;
  const s = lensSummary(r);
  const parts: string[] = [];
  if (s.same.workspace.length) {
    const more = s.same.workspace.length - 1;
    parts.push(`Same as ${place(s.same.workspace[0], r.query.uri)}${more ? ` and ${more} more` : ''}`);
  } else if (s.again.length) {
    // written again, not confirmed (the evaluator cannot read it): say where, not that it is "the same"
    const more = s.again.length - 1;
    parts.push(`Also at ${place(s.again[0], r.query.uri)}${more ? ` and ${more} more` : ''}`);
  } else if (s.same.library.length) {
    const more = s.same.library.length - 1;
    const first = s.same.library[0];
    parts.push(`Same as ${first.title} in ${first.paper}${more ? ` and ${more} more` : ''}`);
  } else if (s.same.index.length) {
    const more = s.same.index.length - 1;
    parts.push(`Same as ProofWiki: ${s.same.index[0].title}${more ? ` and ${more} more` : ''}`);
  }
  const close: string[] = [];
  if (s.close.workspace) close.push(`${s.close.workspace} in this project`);
  if (s.close.library) close.push(`${s.close.library} in your library`);
  if (s.close.index) close.push(`${s.close.index} in ProofWiki`);
  if (close.length) parts.push(`${parts.length ? 'close: ' : 'Close: '}${close.join(', ')}`);
  if (!parts.length) return LENS_TITLE;
  return parts.join(' · ');
}


export interface MatchLensOptions {
  /** Wait up to this long for the workspace's analyses. */
  waitMs?: number;
  /** Search for at most this long (then serve earlier titles, or none, for the rest: `incomplete`); 0: search nothing (`fillLensMatches` does, in the background). */
  budgetMs?: number;
  /** Let the event loop run between displays (a request path: other requests are answered meanwhile). */
  yieldBetween?: boolean;
}

/** Searching runs at most this long before the event loop gets its turn. */
const YIELD_AFTER_MS = 8;

/** A display of the document with its key in the cache: by text (typing above a display moves it, not its results), the n-th copy in the file apart. */
function* lensSites(doc: Doc): Generator<{ site: DocEquation; key: string }> {
  const seen = new Map<string, number>();
  for (const site of documentEquations(doc)) {
    const n = (seen.get(site.latex) ?? 0) + 1;
    seen.set(site.latex, n);
    yield { site, key: `${doc.uri}#${n}#${site.latex}` };
  }
}

/** What the lens titles are computed against: the workspace's analysed equations, the library's displays the document reads, and the index's. */
function lensSignature(ctx: RelatedContext, doc: Doc, snap = ctx.equations.snapshot(ctx.ws, { queue: false })): string {
  const library = (ctx.library?.(doc) ?? []).map((l) => `${l.folder}:${l.equations.displays.length}`).join(',');
  return `${corpusSignature(snap)}|${library}|${ctx.index ? ctx.index.equations.size : 0}`;
}

/** Lenses search without the formula encoder and with fewer candidates: fingerprints and structure. */
function quickContext(ctx: RelatedContext): RelatedContext {
  return { ...ctx, queryVector: undefined, encoderMessage: () => 'lens: ranked by fingerprints and structure' };
}

/** Searches one display for its lens title and keeps it; false when its equations are not all analysed yet. */
async function searchLens(quick: RelatedContext, doc: Doc, site: DocEquation, key: string, sig: string, cache: MatchCache): Promise<{ title: string | undefined; kept: boolean }> {
  const r = await findRelatedEquations(quick, { doc, site }, { limit: 10, quick: true });
  const title = worthOpening(r) ? lensTitle(r) : undefined;
  if (!r.pending) cache.set(key, sig, title);
  return { title, kept: !r.pending };
}

/**
 * The lenses of the `matches` mode, commands filled in: only displays with something worth
 * opening. Searched without the formula encoder and with fewer candidates (fingerprints and
 * structure), kept per display text; after the workspace's equations or the index change, a
 * display keeps its earlier title until it is searched again. A request searches for at most
 * `budgetMs` (none with 0); `incomplete` says displays are left (the caller has them searched
 * in the background, or asks the client to ask again).
 * Displays not analysed when `waitMs` runs out get no lens, and `pending` says how many.
 */
export async function matchLenses(ctx: RelatedContext, doc: Doc, cache: MatchCache, opts: MatchLensOptions = {}): Promise<{ lenses: CodeLens[]; pending: number; incomplete: boolean }> {
  // a timer, not setImmediate: the connection reads a request in a turn of its own, which setImmediate would go before
  const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const searching = opts.budgetMs !== 0;
  // a list that searches nothing reads the titles known under the last snapshot (the background
  // search makes the next one); one that searches needs the current one, which queues what is
  // not analysed yet
  let snap = (!searching && ctx.equations.latest()) || ctx.equations.snapshot(ctx.ws);
  if (snap.pending && opts.waitMs) {
    await ctx.equations.analyses.idle(opts.waitMs);
    snap = ctx.equations.snapshot(ctx.ws);
  }
  // the first list of a session that searches pays for which files copy which: in its own turn
  // of the event loop, so that a hover sent meanwhile waits for one of them only
  if (opts.yieldBetween && searching) {
    await turn();
    copyGroups(snap);
    await turn();
  }
  const sig = lensSignature(ctx, doc, snap);
  const quick = quickContext(ctx);
  const lenses: CodeLens[] = [];
  const t0 = performance.now();
  let incomplete = false;
  let lastYield = performance.now();
  for (const { site, key } of lensSites(doc)) {
    // the searches below settle in microtasks: give the event loop its turn (a hover, a keystroke)
    if (opts.yieldBetween && searching && performance.now() - lastYield > YIELD_AFTER_MS) {
      await turn();
      lastYield = performance.now();
    }
    const had = cache.get(key);
    let title = had?.title;
    if (!had || had.sig !== sig) {
      if (!searching || (opts.budgetMs !== undefined && performance.now() - t0 > opts.budgetMs)) incomplete = true;
      else title = (await searchLens(quick, doc, site, key, sig, cache)).title;
    }
    if (title === undefined) continue;
    const p = doc.positionAt(site.start);
    // the client searches in full (with the encoder, current positions) when the lens is opened
    const shown: RelatedResponse = { query: { latex: site.latex, canonical: '', uri: doc.uri, line: site.line + 1, character: p.character, ...(site.label ? { label: site.label } : {}) }, results: [], encoder: false, pending: 0, provisional: true };
    lenses.push({ range: { start: p, end: p }, command: { title, command: SHOW_RELATED_COMMAND, arguments: [shown] } });
  }
  return { lenses, pending: snap.pending, incomplete };
}

/**
 * Searches, in the background, the displays of `doc` whose lens is not known for the current
 * equations: one display per turn of the event loop (`turn`), so requests are answered between
 * them, once the equations queued for analysis are analysed. Ends early (false) when `stop`
 * says so, or when the document or the equations change (the next lens list starts again);
 * `progress` is called every `progressMs` and at the end when titles were found. A display whose
 * equations are not all analysed is left for a later search.
 */
export async function fillLensMatches(ctx: RelatedContext, doc: Doc, cache: MatchCache, opts: { turn: () => Promise<void>; stop: () => boolean; progress?: () => void; progressMs?: number }): Promise<boolean> {
  const gone = () => opts.stop() || ctx.ws.get(doc.uri) !== doc;
  let snap = ctx.equations.snapshot(ctx.ws);
  // titles are searched against analysed equations: wait while the analyses go forward
  for (let pending = Infinity; snap.pending && snap.pending < pending;) {
    pending = snap.pending;
    await ctx.equations.analyses.whenIdle();
    await opts.turn();
    if (gone()) return false;
    snap = ctx.equations.snapshot(ctx.ws);
  }
  await opts.turn();
  copyGroups(snap);
  const sig = lensSignature(ctx, doc);
  const quick = quickContext(ctx);
  let shown = performance.now();
  let found = 0;
  for (const { site, key } of lensSites(doc)) {
    const had = cache.get(key);
    if (had && had.sig === sig) continue;
    await opts.turn();
    if (gone() || lensSignature(ctx, doc) !== sig) return false;
    if (!(await searchLens(quick, doc, site, key, sig, cache)).kept) continue;
    found++;
    if (opts.progress && performance.now() - shown > (opts.progressMs ?? Infinity)) { opts.progress(); shown = performance.now(); found = 0; }
  }
  if (found) opts.progress?.();
  return true;
}

const signatures = new WeakMap<object, string>();

/** A cheap signature of the workspace's analysed equations (changes when any display is added, removed or edited). */
function corpusSignature(snap: WorkspaceSnapshot): string {
  // by the corpus: a snapshot of the same displays moved by a keystroke keeps it
  let s = signatures.get(snap.corpus);
  if (s === undefined) {
    let h = 0x811c9dc5;
    snap.features.forEach((f, i) => {
      const t = `${f ? f.canonical : '?'}@${snap.sites[i].doc.uri}`;
      for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193);
    });
    s = `${snap.sites.length}:${(h >>> 0).toString(36)}`;
    signatures.set(snap.corpus, s);
  }
  return s;
}
