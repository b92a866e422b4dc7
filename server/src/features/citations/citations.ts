// Citations: completion of bibliography keys inside `\cite{`-like commands, hover on a key
// (the formatted entry), go to definition (the .bib entry or the `\bibitem`), references of a
// key across the project, and the undefined-citation / missing-bibliography diagnostics.
// The keys come from the project's .bib files (`\bibliography`, `\addbibresource`, resolved
// like includes, project/bibliography.ts) and the `\bibitem`s of its documents.
import {
  CompletionItemKind, DocumentHighlightKind, MarkupKind,
  type CompletionItem, type DocumentHighlight, type CompletionList, type Diagnostic, type Hover, type Location, type Position, type Range,
} from 'vscode-languageserver-types';
import * as path from 'node:path';
import type { BibInclude, Doc, Workspace } from '../../project/workspace.js';
import { bibItems, type BibEntry, type BibFile, type BibItem } from '../../project/bibliography.js';
import { pathToUri, uriToPath } from '../../project/files.js';
import type { DocCite } from '../../model/documentView.js';
import { latexToMarkdown, latexToPlain } from '../../analysis/render.js';
import { NOT_CITE } from '../../syntax/blockAnalyser.js';
import { keySpan } from '../labels/labelCompletion.js';
import { missingInclude } from '../diagnostics/missingInclude.js';
import { diagnostic } from '../diagnostics/codes.js';

export type CiteDefinition =
  | { kind: 'bib'; path: string; entry: BibEntry }
  | { kind: 'item'; doc: Doc; item: BibItem };

export interface CitationSources {
  includes: BibInclude[];
  files: Array<{ path: string; file: BibFile }>;
  items: Array<{ doc: Doc; items: BibItem[] }>;
  /** Every bibliography of the project was found and read (and there is at least one source). */
  complete: boolean;
  /** Some .bib file is still being read (the server reads them off the request path). */
  pending: boolean;
}

/** The bibliographies of `doc`'s project as they are now. */
export function citationSources(ws: Workspace, doc: Doc): CitationSources {
  const includes = ws.bibliographyIncludes(doc);
  const files: CitationSources['files'] = [];
  const seen = new Set<string>();
  let complete = true;
  let pending = false;
  for (const b of includes) {
    if (!b.path) { complete = false; continue; }
    const st = ws.bibs.get(b.path);
    if (!st) { complete = false; pending = true; continue; }
    if (st.error !== undefined) { complete = false; continue; }
    if (!seen.has(b.path)) { seen.add(b.path); files.push({ path: b.path, file: st.file }); }
  }
  const items: CitationSources['items'] = [];
  for (const d of ws.scope(doc)) {
    const its = bibItems(d);
    if (its.length) items.push({ doc: d, items: its });
  }
  if (files.length === 0 && items.length === 0) complete = false;
  return { includes, files, items, complete, pending };
}

export function findCitation(src: CitationSources, key: string): CiteDefinition[] {
  const out: CiteDefinition[] = [];
  for (const f of src.files) for (const entry of f.file.byKey.get(key) ?? []) out.push({ kind: 'bib', path: f.path, entry });
  for (const d of src.items) for (const item of d.items) if (item.key === key) out.push({ kind: 'item', doc: d.doc, item });
  return out;
}

/** The citation key under the cursor (inclusive of the key's end). */
export function citeAt(doc: Doc, offset: number): DocCite | undefined {
  for (const c of doc.cites()) {
    if (c.start > offset) break;
    if (offset <= c.end) return c;
  }
  return undefined;
}

// `\cite{`, `\citep[p.~3]{a,`, `\parencite[see][12]{`, `\Textcite*{`, `\cites[x]{a}{`
const CITE_BEFORE_CURSOR = /\\([A-Za-z]*[cC]ite[A-Za-z]*)\*?\s*(?:\[[^[\]{}\n]*\]\s*|\{[^{}\\%]*\}\s*)*\{([^{}\\%]*)$/;

export interface CiteContext { start: number; end: number; typed: string; cmd: string }

/** Whether `offset` is inside the key list of a citation command (after `{` or a comma). */
export function citeContextAt(doc: Doc, offset: number): CiteContext | undefined {
  const text = doc.text;
  const before = text.slice(Math.max(0, offset - 400), offset);
  const m = CITE_BEFORE_CURSOR.exec(before);
  if (!m || NOT_CITE.has(m[1])) return undefined; // the analyser's list: commands that take no keys
  // a complete `{…}` group between the command and the cursor is only allowed for multicite commands
  if (!/cites$/i.test(m[1]) && /\}\s*\{[^{}]*$/.test(m[0])) return undefined;
  return { ...keySpan(text, offset, m[2], /[,}\s%\\{]/), cmd: m[1] };
}

// ---- formatting ---------------------------------------------------------------------------

const clean = (s: string | undefined, max = 300): string => (s ? latexToPlain(s, max) : '');

/** Splits a BibTeX name list at top-level " and ". */
export function splitNames(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let s = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(c) && /^\s+and\s/i.test(value.slice(i, i + 6))) {
      out.push(value.slice(s, i).trim());
      i += /^\s+and\s+/i.exec(value.slice(i, i + 40))?.[0].length ?? 5;
      s = i;
      i--;
    }
  }
  out.push(value.slice(s).trim());
  return out.filter(Boolean);
}

/** "Last, First" / "First von Last" → { last, full } (display forms, LaTeX cleaned). */
function parseName(raw: string): { last: string; full: string } {
  if (raw.trim().toLowerCase() === 'others') return { last: 'others', full: 'others' };
  let depth = 0;
  const commas: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) commas.push(i);
  }
  if (commas.length) {
    const last = clean(raw.slice(0, commas[0]));
    const first = clean(raw.slice(commas[commas.length - 1] + 1));
    return { last, full: first ? `${first} ${last}` : last };
  }
  // last word at brace depth 0
  depth = 0;
  let cut = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (/\s/.test(c) && depth === 0) cut = i;
  }
  const full = clean(raw);
  return { last: clean(cut >= 0 ? raw.slice(cut + 1) : raw), full };
}

function people(e: BibEntry): { names: Array<{ last: string; full: string }>; editors: boolean } {
  const a = e.fields.author ?? '';
  if (a.trim()) return { names: splitNames(a).map(parseName), editors: false };
  const ed = e.fields.editor ?? '';
  return { names: splitNames(ed).map(parseName), editors: !!ed.trim() };
}

function year(e: BibEntry): string {
  const y = e.fields.year ?? e.fields.date ?? '';
  return /\d{4}/.exec(y)?.[0] ?? clean(y, 20);
}

/** "Hartshorne (1977)", "Artin and Mazur (1969)", "Artin et al. (1972)". */
export function entryDetail(e: BibEntry): string {
  const { names } = people(e);
  const lasts = names.map((n) => n.last).filter((n) => n !== 'others');
  let who = lasts.length === 0 ? '' : lasts.length === 1 && names.length === 1 ? lasts[0] : lasts.length === 2 && names.length === 2 ? `${lasts[0]} and ${lasts[1]}` : `${lasts[0]} et al.`;
  const y = year(e);
  if (!who) who = clean(e.fields.title, 60);
  return y ? `${who} (${y})` : who;
}

function venue(e: BibEntry): string {
  const f = e.fields;
  const parts: string[] = [];
  if (f.journal || f.journaltitle) {
    let j = clean(f.journal ?? f.journaltitle);
    if (f.volume) j += ` ${clean(f.volume, 20)}`;
    if (f.number) j += `(${clean(f.number, 20)})`;
    parts.push(j);
  }
  if (f.booktitle) parts.push(`in ${clean(f.booktitle)}`);
  if (f.series && !f.journal) parts.push(clean(f.series) + (f.volume && !f.journal ? ` ${clean(f.volume, 20)}` : ''));
  for (const k of ['publisher', 'school', 'institution', 'organization', 'howpublished']) if (f[k]) parts.push(clean(f[k]));
  if (f.pages) parts.push(`pp. ${clean(f.pages, 40)}`);
  return parts.filter(Boolean).join(', ');
}

const esc = (s: string) => s.replace(/([*_`[\]<>])/g, '\\$1');

/** Title and venue (completion documentation). */
export function entryMarkdown(e: BibEntry): string {
  const { names, editors } = people(e);
  const who = names.map((n) => (n.full === 'others' ? 'et al.' : n.full)).join(', ');
  const lines: string[] = [];
  if (who) lines.push(`**${esc(who)}**${editors ? ' (ed.)' : ''}`);
  const title = clean(e.fields.title);
  if (title) lines.push(`*${esc(title)}*`);
  const v = venue(e);
  const y = year(e);
  const tail = [v && esc(v), y].filter(Boolean).join(', ');
  if (tail) lines.push(tail);
  return lines.join('  \n');
}

function fileLine(p: string, line: number, from: Doc): string {
  const here = uriToPath(from.uri);
  const rel = here ? path.relative(path.dirname(here), p) : path.basename(p);
  const shown = rel && !rel.startsWith('..') ? rel : path.basename(p);
  return `${shown}:${line + 1}`;
}

function definitionMarkdown(def: CiteDefinition, from: Doc): string {
  if (def.kind === 'bib') {
    const e = def.entry;
    const where = `\`@${e.type}{${e.key}}\` — [${fileLine(def.path, e.line, from)}](${pathToUri(def.path)}#L${e.line + 1})`;
    return `${entryMarkdown(e)}\n\n${where}`;
  }
  const { doc, item } = def;
  const body = latexToMarkdown(item.text, { maxLength: 600 });
  const p = uriToPath(doc.uri);
  const line = doc.positionAt(item.start).line;
  const where = `\`\\bibitem${item.label ? `[${item.label}]` : ''}{${item.key}}\` — ${p ? `[${fileLine(p, line, from)}](${doc.uri}#L${line + 1})` : `line ${line + 1}`}`;
  return `${body}\n\n${where}`;
}

// ---- requests -----------------------------------------------------------------------------

/** Above this many keys only those matching the typed text are listed (and the list is incomplete). */
const MAX_ITEMS = 2000;

export function citeCompletion(ws: Workspace, doc: Doc, offset: number): CompletionList | null {
  const ctx = citeContextAt(doc, offset);
  if (!ctx) return null;
  const src = citationSources(ws, doc);
  const range = doc.range(ctx.start, ctx.end);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const typed = ctx.typed.toLowerCase();
  let total = 0;
  for (const f of src.files) total += f.file.entries.length;
  for (const d of src.items) total += d.items.length;
  const filter = total > MAX_ITEMS;
  let capped = false;
  const push = (key: string, make: () => Omit<CompletionItem, 'label' | 'textEdit'>) => {
    if (seen.has(key)) return;
    if (filter && !key.toLowerCase().includes(typed)) return;
    if (items.length >= MAX_ITEMS) { capped = true; return; }
    seen.add(key);
    items.push({ label: key, textEdit: { range, newText: key }, filterText: key, sortText: key.toLowerCase(), ...make() });
  };
  for (const f of src.files) {
    for (const e of f.file.entries) {
      push(e.key, () => ({
        kind: CompletionItemKind.Reference,
        detail: entryDetail(e),
        documentation: { kind: MarkupKind.Markdown, value: `${entryMarkdown(e)}\n\n\`@${e.type}\` · ${fileLine(f.path, e.line, doc)}` },
      }));
    }
  }
  for (const d of src.items) {
    for (const it of d.items) {
      push(it.key, () => ({
        kind: CompletionItemKind.Reference,
        detail: it.label ? `[${latexToPlain(it.label, 40)}]` : latexToPlain(it.text, 60),
        documentation: { kind: MarkupKind.Markdown, value: latexToMarkdown(it.text, { maxLength: 400 }) },
      }));
    }
  }
  // incomplete while .bib files are still being read, or when the typed text narrowed a long list
  return { isIncomplete: src.pending || filter || capped, items };
}

export function citeHover(ws: Workspace, doc: Doc, offset: number): Hover | null {
  const c = citeAt(doc, offset);
  if (!c) return null;
  const range = doc.range(c.start, c.end);
  if (c.key === '*') return { range, contents: { kind: MarkupKind.Markdown, value: '`\\nocite{*}`: every entry of the bibliography' } };
  const src = citationSources(ws, doc);
  const defs = findCitation(src, c.key);
  if (defs.length === 0) {
    if (!src.complete) return null;
    return { range, contents: { kind: MarkupKind.Markdown, value: `**Undefined citation** \`${c.key}\`` } };
  }
  const parts = defs.slice(0, 3).map((d) => definitionMarkdown(d, doc));
  if (defs.length > 1) parts.unshift(`*${defs.length} entries for \`${c.key}\`*`);
  return { range, contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') } };
}

/** The entry of the bibliography at `bibPath` (as the store has it) whose key holds `pos`. */
export function bibEntryAt(ws: Workspace, bibPath: string, pos: Position): BibEntry | undefined {
  const file = ws.bibs.get(bibPath)?.file;
  return file?.entries.find((e) => e.line === pos.line && pos.character >= e.character && pos.character <= e.character + e.key.length);
}

export const bibKeyRange = (e: BibEntry): Range => ({ start: { line: e.line, character: e.character }, end: { line: e.line, character: e.character + e.key.length } });

function defLocation(def: CiteDefinition): Location {
  if (def.kind === 'bib') return { uri: pathToUri(def.path), range: bibKeyRange(def.entry) };
  return { uri: def.doc.uri, range: def.doc.range(def.item.start, def.item.end) };
}

/** Go to definition from a citation key; undefined when the cursor is not on one. */
export function citeDefinition(ws: Workspace, doc: Doc, offset: number): Location[] | undefined {
  const c = citeAt(doc, offset);
  if (!c) return undefined;
  return findCitation(citationSources(ws, doc), c.key).map(defLocation);
}

const defId = (d: CiteDefinition) => (d.kind === 'bib' ? `${d.path}\u0000${d.entry.keyStart}` : `${d.doc.uri}\u0000${d.item.start}`);

/** Every citation of the key under the cursor that resolves to the same entry (or, undefined, in the same project). */
export function citeReferences(ws: Workspace, doc: Doc, offset: number, includeDeclaration: boolean): Location[] | undefined {
  const c = citeAt(doc, offset);
  if (!c || c.key === '*') return undefined;
  const defs = findCitation(citationSources(ws, doc), c.key);
  const out: Location[] = includeDeclaration ? defs.map(defLocation) : [];
  for (const h of citeOccurrences(ws, c.key, defs, doc)) out.push({ uri: h.doc.uri, range: h.doc.range(h.start, h.end) });
  return out;
}

/** The citations of the key under the cursor in this document (the same key, read). */
export function citeHighlights(doc: Doc, offset: number): DocumentHighlight[] | undefined {
  const c = citeAt(doc, offset);
  if (!c || c.key === '*') return undefined;
  return doc.cites().filter((x) => x.key === c.key).map((x) => ({ range: doc.range(x.start, x.end), kind: DocumentHighlightKind.Read }));
}

/** From the key of an entry in a .bib file: the citations that resolve to that entry. */
export function bibReferences(ws: Workspace, bibPath: string, pos: Position, includeDeclaration: boolean): Location[] {
  const entry = bibEntryAt(ws, bibPath, pos);
  if (!entry) return [];
  const def: CiteDefinition = { kind: 'bib', path: bibPath, entry };
  const out = includeDeclaration ? [defLocation(def)] : [];
  const hits = citeOccurrences(ws, entry.key, [def]);
  for (const h of hits) out.push({ uri: h.doc.uri, range: h.doc.range(h.start, h.end) });
  out.push(...keyFieldMentions(ws, entry.key, bibPathsOf(ws, [def], hits.map((h) => h.doc))));
  return out;
}

/** The .bib files of the entries `defs` and of the projects of the `citing` documents. */
export function bibPathsOf(ws: Workspace, defs: CiteDefinition[], citing: Doc[]): Set<string> {
  const out = new Set(defs.flatMap((d) => (d.kind === 'bib' ? [d.path] : [])));
  for (const doc of new Set(citing)) for (const f of citationSources(ws, doc).files) out.add(f.path);
  return out;
}

/** Where entries of the .bib files `paths` name `key` in a `crossref`, `xref`, `xdata`, `related` or `set` field. */
export function keyFieldMentions(ws: Workspace, key: string, paths: Iterable<string>): Location[] {
  const out: Location[] = [];
  for (const p of paths) {
    for (const e of ws.bibs.get(p)?.file?.entries ?? []) {
      for (const r of e.keyRefs ?? []) {
        if (r.key === key) out.push({ uri: pathToUri(p), range: { start: { line: r.line, character: r.character }, end: { line: r.line, character: r.character + key.length } } });
      }
    }
  }
  return out;
}

/**
 * The citations of `key` in the workspace's documents that resolve to one of `defs`; with no
 * definition, those in the project of `from` (an undefined key is the same key there).
 */
export function citeOccurrences(ws: Workspace, key: string, defs: CiteDefinition[], from?: Doc): Array<{ doc: Doc; start: number; end: number }> {
  const ids = new Set(defs.map(defId));
  const scope = from && ids.size === 0 ? ws.scope(from) : undefined;
  const out: Array<{ doc: Doc; start: number; end: number }> = [];
  for (const d of ws.all()) {
    const hits = d.cites().filter((x) => x.key === key);
    if (hits.length === 0) continue;
    const same = ids.size
      ? findCitation(citationSources(ws, d), key).some((x) => ids.has(defId(x)))
      : !!scope?.has(d);
    if (same) for (const h of hits) out.push({ doc: d, start: h.start, end: h.end });
  }
  return out;
}

/**
 * Bibliography diagnostics of one document: its own `\bibliography{x}` whose file is missing
 * (missing-include) or unreadable, and citations no bibliography of the project defines
 * (undefined-citation, only when every bibliography was found and read; never `\nocite{*}`).
 */
export function citationDiagnostics(ws: Workspace, doc: Doc, structure: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hasCites = doc.cites().length > 0;
  const ownBib = doc.includes().some((i) => i.kind === 'bibliography');
  if (!hasCites && !ownBib) return out;
  const src = citationSources(ws, doc);
  if (structure) {
    // the resolved list is cached per include graph (which ignores offsets): ranges come from
    // this version's includes, matched by path
    const resolved = new Map<string, string | undefined>();
    for (const b of src.includes) if (b.doc === doc) resolved.set(`${b.inc.dir ?? ''}\u0000${b.inc.path}`, b.path);
    for (const inc of doc.includes()) {
      const key = `${inc.dir ?? ''}\u0000${inc.path}`;
      if (inc.kind !== 'bibliography' || !resolved.has(key)) continue;
      const b = { path: resolved.get(key) };
      const shown = `${inc.path}${/\.[A-Za-z]+$/.test(inc.path) ? '' : '.bib'}`;
      if (!b.path) {
        out.push(missingInclude(doc, inc, shown, 'its entries are unknown, so citations are not checked', ws.skippedInclude(doc, inc)));
        continue;
      }
      const st = ws.bibs.get(b.path);
      if (st?.error !== undefined) {
        out.push(diagnostic('unreadable', doc.range(inc.start, inc.end), `Could not read ${shown}: ${st.error}; its entries are unknown, so citations are not checked`));
      }
    }
  }
  if (!hasCites || !src.complete) return out;
  const where = [
    ...src.files.map((f) => path.basename(f.path)),
    ...(src.items.length ? ['\\bibitem'] : []),
  ].slice(0, 4).join(', ');
  const itemKeys = new Set(src.items.flatMap((d) => d.items.map((i) => i.key)));
  // classic BibTeX finds an entry whatever the letter case of the key; biber and \bibitem do not
  const bibtex = bibBackend(ws, doc) === 'bibtex';
  for (const c of doc.cites()) {
    if (c.key === '*' || /[\\#{}\s]/.test(c.key)) continue;
    if (itemKeys.has(c.key) || src.files.some((f) => f.file.byKey.has(c.key))) continue;
    const folded = src.files.map((f) => lowerKeys(f.file).get(c.key.toLowerCase())).find((k) => k !== undefined);
    if (folded && bibtex) continue;
    out.push(diagnostic('undefined-citation', doc.range(c.start, c.end), folded
      ? `Undefined citation: no entry '${c.key}'; '${folded}' differs only in letter case, which biber does not ignore (${where})`
      : `Undefined citation: no entry '${c.key}' in this project's bibliography (${where})`));
  }
  return out;
}

const lowerKeyCache = new WeakMap<BibFile, Map<string, string>>();

/** A .bib file's keys by their lower-case form. */
function lowerKeys(file: BibFile): Map<string, string> {
  let m = lowerKeyCache.get(file);
  if (!m) {
    m = new Map();
    for (const k of file.byKey.keys()) if (!m.has(k.toLowerCase())) m.set(k.toLowerCase(), k);
    lowerKeyCache.set(file, m);
  }
  return m;
}

/**
 * Which program reads the project's .bib files: biber when biblatex is loaded (its default
 * backend) unless its options name another backend; classic BibTeX for `\bibliography`.
 */
export function bibBackend(ws: Workspace, doc: Doc): 'bibtex' | 'biber' {
  for (const d of ws.scope(doc)) {
    for (const inc of d.includes()) {
      if (inc.kind === 'bibliography' && inc.cmd === 'addbibresource') return 'biber';
      if (inc.kind !== 'package' || !/^biblatex(?:\.sty)?$/.test(inc.path.trim())) continue;
      const before = d.latexText.slice(Math.max(0, inc.start - 400), inc.start);
      const opts = /\\(?:usepackage|RequirePackage)\s*\[([^\]]*)\][^\\]*$/.exec(before)?.[1] ?? '';
      const backend = /backend\s*=\s*([A-Za-z0-9]+)/.exec(opts)?.[1];
      return backend && backend !== 'biber' ? 'bibtex' : 'biber';
    }
  }
  return 'bibtex';
}
