// "Search results": a statement or a formula typed in the editor, ranked results from the
// workspace and the bundled index, for any LSP client through `workspace/executeCommand
// mathsense.search {query, kind?, limit?}` (VS Code: the command "MathSense: Search Results…").
// * statements, definitions, proofs: the index's search (BM25 and the encoder when the query's
//   vector is ready; titles that name the query first) and the workspace's theorem-like
//   statements of that kind (BM25 over their text, plus the cosine of cached vectors);
// * equations (`kind: "equation"`, or a query that is a formula with a relation): the
//   related-equations search over the workspace and the index.
// Workspace results carry their place and label (a client can insert `\ref{label}`), index
// results their page and licence.
import type { Range } from 'vscode-languageserver-types';
import { Bm25Index } from '../../embeddings/bm25.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import { bodyText, statements } from '../../analysis/structure.js';
import { latexToPlain } from '../../analysis/render.js';
import { search } from '../../index/retrieval.js';
import type { ServerIndex } from '../../index/serverIndex.js';
import type { Query } from '../../index/store.js';
import { expandProofWikiMacros } from '../../syntax/proofwikiMacros.js';
import { markFormulas } from '../../index/queryText.js';
import { macroWriter } from '../../math/blocks.js';
import { isNameQuery, nameKey } from '../../index/namedResults.js';
import type { EntryKind } from '../../index/format.js';
import { findRelatedEquations, type RelatedContext } from '../equations/relatedEquations.js';
import type { SearchItem, SearchKind, SearchResponse } from '../../ext/protocol.js';
import { entryUri, libraryDetail, queryOf, type LibraryScope } from './libraryResults.js';
import { resultName } from '../../index/library/citeLibraryResult.js';

const KINDS: readonly SearchKind[] = ['statement', 'definition', 'proof', 'equation'];


const MAX_QUERY = 2000;
/** Workspace statements ranked per search (a bound for huge workspaces). */
const MAX_WORKSPACE = 5000;
const DEFINITION = /definition|notation|convention/i;
/** Query tokens from which a search reads as a statement (the library's relevance model applies). */
const STATEMENT_QUERY_TOKENS = 8;

/** `{query, kind?, limit?}` or `[query, kind?]`. */
export function parseSearchArgs(args: readonly unknown[] | undefined): { query: string; kind: SearchKind; limit: number } | { error: string } {
  const a = args ?? [];
  const first = a[0] as Record<string, unknown> | string | undefined;
  const o = typeof first === 'string' ? { query: first, kind: a[1] } : (first ?? {});
  const query = typeof o.query === 'string' ? o.query.trim().slice(0, MAX_QUERY) : '';
  if (!query) return { error: 'expected {query, kind?, limit?} with a non-empty query' };
  const kind = KINDS.includes(o.kind as SearchKind) ? (o.kind as SearchKind) : looksLikeEquation(query) ? 'equation' : 'statement';
  const limit = Number.isInteger(o.limit) && (o.limit as number) > 0 ? Math.min(50, o.limit as number) : 15;
  return { query, kind, limit };
}

/** A formula with a relation and nothing like prose around it: `\int_a^b f' = f(b) - f(a)`, `$e^{i\pi} = -1$`. */
function looksLikeEquation(q: string): boolean {
  const t = q.replace(/^\$+|\$+$/g, '').trim();
  return /(?:=|\\leq?|\\geq?|<|>)/.test(t) && !/[A-Za-z]{4,}\s+[A-Za-z]{4,}/.test(t.replace(/\\[A-Za-z]+/g, ''));
}

/** Statements, definitions or proofs: the workspace's and the index's. */
export function searchStatements(ws: Workspace, si: ServerIndex, query: string, kind: Exclude<SearchKind, 'equation'>, limit: number, library?: LibraryScope): SearchResponse {
  const latex = markFormulas(query);
  const items: SearchItem[] = [];
  const named: SearchItem[] = [];
  const got = si.get();
  const q = got ? si.query(latex) : undefined;
  if (got && q) {
    for (const r of search(got.index, q, kind as EntryKind, { limit, name: query, nameOnly: isNameQuery(query), sources: got.sources })) {
      const src = got.index.sourceOf(r.entry);
      const item: SearchItem = { title: r.entry.title, latex: expandProofWikiMacros(r.entry.text).slice(0, 1500), detail: `${src.name} · ${r.entry.licence}${r.named ? ' · its title names the query' : ''}`, source: 'index', score: r.score, url: r.entry.url, licence: r.entry.licence };
      (r.named ? named : items).push(item);
    }
  }
  // the index's scores and the workspace's are on different scales: each list relative to its best
  const top = Math.max(0, ...items.map((x) => x.score)) || 1;
  for (const x of items) x.score = Math.round((x.score / top) * 1000) / 1000;
  items.push(...librarySearch(si, library, latex, kind, limit));
  const own: SearchItem[] = [];
  // without the index (no tokenizer for its text search) the workspace's statements are found by name alone
  if (kind !== 'proof') {
    // the project's own statements that its titles or labels name come before everything
    for (const w of workspaceStatements(ws, si, q, kind, limit, query)) (w.named ? own : items).push(w.item);
  }
  // results whose titles name the query keep their place at the top; the rest merge by score
  // (the workspace's first at equal scores)
  items.sort((a, b) => b.score - a.score || (a.source === 'workspace' ? -1 : 0) - (b.source === 'workspace' ? -1 : 0));
  items.unshift(...own, ...named);
  const message = !got ? 'no bundled index: workspace results only' : q && !q.vec ? 'lexical match (the encoder\'s vector for the query is on its way: type on or search again)' : undefined;
  return { query, kind, items: items.slice(0, limit), ...(message ? { message } : {}) };
}

const nameWords = (s: string) => new Set(nameKey(s).split(/[ /]+/).filter((w) => w.length > 1).map((w) => (w.length > 4 ? w.replace(/s$/, '') : w)));

/** Whether a statement's title or label names the query: every word of the query is one of theirs. */
function namesQuery(query: string, title: string | undefined, label: string | undefined): boolean {
  const want = nameWords(query);
  if (want.size === 0) return false;
  const have = new Set([...nameWords(title ?? ''), ...nameWords((label ?? '').replace(/[:_.-]+/g, ' '))]);
  return [...want].every((w) => have.has(w));
}

/**
 * The workspace's theorem-like statements (or definitions) by BM25 over their text, plus the
 * cosine of vectors already computed; `named` where the statement's title or label names the
 * query (a name typed into the search box).
 */
function workspaceStatements(ws: Workspace, si: ServerIndex, q: Query | undefined, kind: 'statement' | 'definition', limit: number, query: string): Array<{ item: SearchItem; named: boolean }> {
  // `text` is what is searched (its title too: "Sum of odd numbers"), `body` what is shown
  const cands: Array<{ text: string; body: string; title: string; doc: Doc; uri: string; range: Range; label?: string; named: boolean }> = [];
  const asName = isNameQuery(query);
  scan: for (const doc of ws.all()) {
    for (const st of statements(ws, doc)) {
      if ((kind === 'definition') !== (DEFINITION.test(st.kind.title) || DEFINITION.test(st.env.name))) continue;
      const text = bodyText(doc, st.env);
      if (text.length < 10) continue;
      const label = st.labels[0]?.name;
      const named = asName && namesQuery(query, st.title, label);
      cands.push({ text: st.title ? `${st.title}. ${text}` : text, body: text, title: `${st.kind.title}${st.title ? ` (${latexToPlain(st.title, 80)})` : ''}`, doc, uri: doc.uri, range: doc.range(st.env.start, st.env.end), ...(label ? { label } : {}), named });
      if (cands.length >= MAX_WORKSPACE) break scan;
    }
  }
  if (!cands.length) return [];
  const bm = new Bm25Index();
  for (const c of cands) bm.add(si.tokens(c.text));
  const s = q ? bm.scores(q.ids) : new Float32Array(cands.length);
  const max = Math.max(...s) || 1;
  const scored = cands.map((c, i) => {
    const v = q?.vec && si.vector(c.text);
    let cos = 0;
    if (v && q?.vec) for (let j = 0; j < v.length; j++) cos += v[j] * q.vec[j];
    // relative to the best lexical match, and the cosine when both vectors are there
    return { c, score: Math.round((v && q?.vec ? (s[i] / max) * 0.5 + Math.max(0, cos) * 0.5 : s[i] / max) * 1000) / 1000, lexical: s[i] };
  }).filter((x) => x.c.named || x.lexical > 0 || x.score > 0.3).sort((a, b) => Number(b.c.named) - Number(a.c.named) || b.score - a.score).slice(0, limit);
  si.want(scored.map((x) => x.c.text));
  // shown typeset by a client that knows none of the project's macros: written out
  const shown = macroWriter(ws);
  return scored.map(({ c, score }) => ({
    named: c.named,
    item: {
      title: shown(c.doc, c.title), latex: shown(c.doc, c.body.slice(0, 1500)), detail: `${c.uri.slice(c.uri.lastIndexOf('/') + 1)}:${c.range.start.line + 1}${c.label ? ` · \\ref{${c.label}}` : ''}${c.named ? ' · its title or label names the query' : ''}`,
      source: 'workspace' as const, score, uri: c.uri, range: c.range, ...(c.label ? { label: c.label } : {}),
    },
  }));
}

/** Equations: the related-equations search for the typed formula. */
export async function searchEquations(ctx: RelatedContext, query: string, limit: number): Promise<SearchResponse> {
  const latex = query.replace(/^\$+|\$+$/g, '').trim();
  const r = await findRelatedEquations(ctx, { latex }, { limit });
  return {
    query, kind: 'equation',
    items: r.results.map((x) => ({
      title: x.source === 'index' ? x.title ?? 'ProofWiki' : x.source === 'library' ? `${x.title} · ${x.paper}` : `${(x.file ?? '').split(/[\\/]/).pop()}:${x.line}${x.label ? ` · ${x.label}` : ''}`,
      latex: x.display, detail: `${x.same ? 'same equation · ' : ''}score ${x.score.toFixed(2)}${x.source === 'index' ? ` · ${x.licence ?? ''}` : x.source === 'library' ? ` · your library · ${(x.file ?? '').split(/[\\/]/).pop()}:${x.line}` : ''}`,
      source: x.source, score: x.score, ...(x.uri ? { uri: x.uri } : {}), ...(x.range ? { range: x.range } : {}), ...(x.label ? { label: x.label } : {}),
      ...(x.url ? { url: x.url } : {}), ...(x.licence ? { licence: x.licence } : {}), ...(x.cite ? { cite: x.cite } : {}),
    })),
    ...(r.message ? { message: r.message } : {}),
  };
}

/**
 * The library's entries of a kind for a typed query, each scored by its probability of being
 * relevant (without a model, relative to the best, as the index's list). A query as long as a
 * statement (what the relevance model was fitted on) has those it doubts withheld; a shorter
 * one (a name, a few words) lists them all, where their probability ranks them.
 */
export function librarySearch(si: ServerIndex, library: LibraryScope | undefined, query: string, kind: SearchKind, limit: number): SearchItem[] {
  if (!library?.lib.has(library.folders)) return [];
  const q = queryOf(si, library, query);
  if (!q) return [];
  const hits = si.withRelevance('library', library.lib.search(q, { kinds: [kind], limit, folders: library.folders }).map((h, id) => ({ ...h, id })), q).filter((h) => h.fits !== false || q.ids.length < STATEMENT_QUERY_TOKENS);
  const top = Math.max(0, ...hits.map((h) => h.score)) || 1;
  return hits.map((h) => {
    const r = { folder: h.folder, hit: h, statement: h.entry, fits: true };
    return {
      title: resultName(h.entry), latex: h.entry.text.slice(0, 1500), detail: libraryDetail(r), source: 'library' as const,
      score: Math.round((h.relevance ?? Math.max(0, h.score) / top) * 1000) / 1000, uri: entryUri(h.folder, h.entry),
      range: { start: { line: h.entry.line - 1, character: 0 }, end: { line: h.entry.line - 1, character: 0 } },
      cite: { folder: h.folder, paper: h.paper.id, file: h.entry.file, line: h.entry.line },
    };
  });
}
