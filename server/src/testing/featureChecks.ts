// One check per editor feature, texlab style: a fixture (the cursor where the request is made,
// `^^^` under the expected places) and the result rendered to stable text, compared with the
// fixture's markers or with an inline snapshot (snapshot.ts; UPDATE_SNAPSHOTS=1 rewrites it).
// Places render as `file:line:col-line:col`, 1-based like editors show them, the file named
// as in the fixture. Each check takes the fixture's text or a Fixture already made.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type {
  CodeAction, CompletionList, Diagnostic, DocumentLink, DocumentSymbol, FoldingRange, Hover, Location, MarkupContent, Range, WorkspaceEdit,
} from 'vscode-languageserver-types';
import { fixture, type Fixture } from './fixture.js';
import { check, rangeText, type Expect } from './snapshot.js';
import { uriToPath } from '../project/files.js';
import type { Doc, Workspace } from '../project/workspace.js';
import { hoverAnswer } from '../features/hover/providers.js';
import { definitionAt, referencesAt, renameAt } from '../features/navigate.js';
import { completeAt } from '../features/complete.js';
import { testContext } from './featureContext.js';
import { documentSymbols } from '../features/symbols.js';
import { foldingRanges } from '../features/folding.js';
import { documentLinks } from '../features/documentLinks.js';
import { computeDiagnostics, type DiagnosticSettings } from '../features/diagnostics/documentDiagnostics.js';
import { typoFixes } from '../features/labels/typoFixes.js';

export type Spec = string | Fixture;

const fixtureOf = (spec: Spec): Fixture => (typeof spec === 'string' ? fixture(spec) : spec);

/** The document and offset of the fixture's cursor (which it must have, in an opened file). */
export function cursorOf(fx: Fixture): { doc: Doc; offset: number } {
  if (!fx.cursor?.doc) throw new Error('fixture: no cursor (<|> or | under a line) in an opened file');
  return fx.cursor;
}

/** A file's name as the fixture gives it (its URI when outside the fixture). */
export function fileName(fx: Fixture, uri: string): string {
  const p = uriToPath(uri);
  if (!p) return uri;
  const rel = path.relative(fx.dir, p);
  return rel.startsWith('..') || path.isAbsolute(rel) ? uri : rel.split(path.sep).join('/');
}

export { rangeText };

/** `file:line:col-line:col`. */
export function place(fx: Fixture, uri: string, range: Range): string {
  return `${fileName(fx, uri)}:${rangeText(range)}`;
}

/** Locations, one a line, sorted. */
export function renderLocations(fx: Fixture, locations: readonly Location[]): string {
  return locations.map((l) => place(fx, l.uri, l.range)).sort().join('\n');
}

/** The fixture's `^^^` ranges as locations, one a line, sorted. */
export function markedPlaces(fx: Fixture): string {
  return fx.ranges.map((r) => place(fx, fx.uri(r.name), r.range)).sort().join('\n');
}

/** The hover's range, a blank line and its Markdown; `null` for none. */
export function renderHover(fx: Fixture, uri: string, h: Hover | null): string {
  if (!h) return 'null';
  const value = typeof h.contents === 'string' ? h.contents : 'value' in h.contents ? (h.contents as MarkupContent).value : JSON.stringify(h.contents);
  return `${h.range ? place(fx, uri, h.range) : '(no range)'}\n\n${value}`;
}

/** Edits per file in file then position order: `file:range → new text`. */
export function renderEdit(fx: Fixture, edit: WorkspaceEdit | null | undefined): string {
  if (!edit) return 'null';
  const rows = Object.entries(edit.changes ?? {}).flatMap(([uri, edits]) => edits.map((e) => ({ file: fileName(fx, uri), e })));
  rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.e.range.start.line - b.e.range.start.line || a.e.range.start.character - b.e.range.start.character));
  return rows.map(({ file, e }) => `${file}:${rangeText(e.range)} → ${e.newText}`).join('\n');
}

/** Completion items in the order an editor lists them (sort text, then label): `label — detail [range]`. */
export function renderCompletion(list: CompletionList | null): string {
  if (!list) return 'null';
  const key = (i: CompletionList['items'][number]) => i.sortText ?? i.label;
  const items = [...list.items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return items.map((i) => {
    const edit = i.textEdit && 'range' in i.textEdit ? ` [${rangeText(i.textEdit.range)}${i.textEdit.newText !== i.label ? ` → ${i.textEdit.newText}` : ''}]` : '';
    return `${i.label}${i.detail ? ` — ${i.detail}` : ''}${edit}`;
  }).join('\n');
}

/** The outline as an indented tree: `name [detail] range`. */
export function renderSymbols(symbols: readonly DocumentSymbol[]): string {
  const lines = (s: DocumentSymbol, depth: number): string[] => [
    `${'  '.repeat(depth)}${s.name}${s.detail ? ` [${s.detail}]` : ''} ${rangeText(s.range)}`,
    ...(s.children ?? []).flatMap((c) => lines(c, depth + 1)),
  ];
  return symbols.flatMap((s) => lines(s, 0)).join('\n');
}

/** Folds as 1-based line spans with their kind, and the start of their first and last lines. */
export function renderFolding(doc: Doc, folds: readonly FoldingRange[]): string {
  const text = doc.text.split('\n');
  const head = (line: number) => (text[line] ?? '').slice(0, 30).trimEnd();
  return folds.map((f) => `${f.startLine + 1}-${f.endLine + 1}${f.kind ? ` ${f.kind}` : ''}: ${head(f.startLine)} … ${head(f.endLine)}`).join('\n');
}

/** Links: `range → target`. */
export function renderLinks(fx: Fixture, links: readonly DocumentLink[]): string {
  return links.map((l) => `${rangeText(l.range)} → ${l.target ? fileName(fx, l.target) : '(unresolved)'}`).join('\n');
}

const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];

/** Diagnostics: `range severity code: message`. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${rangeText(d.range)} ${SEVERITY[d.severity ?? 0] ?? d.severity} ${d.code ?? ''}: ${d.message}`).join('\n');
}

/** Code actions: `title (preferred)` and their edits, indented. */
export function renderActions(fx: Fixture, actions: readonly CodeAction[]): string {
  return actions.map((a) => `${a.title}${a.isPreferred ? ' (preferred)' : ''}${a.edit ? `\n${renderEdit(fx, a.edit).replace(/^/gm, '  ')}` : ''}`).join('\n');
}

// ---- the checks -------------------------------------------------------------------------
// Requests default to the feature's entry point, as the server calls it (testing/featureContext.ts):
// what is checked is the answer an editor gets, precedence included. Hover defaults to the real
// list of hover kinds (features/hover/providers.ts) over the document's own facts, its math as
// features write it (`$…$`); `hoverAt` adds the services' parts and the client's math presentation.

const definition = (ws: Workspace, doc: Doc, offset: number) => definitionAt(testContext(ws), doc.uri, doc.positionAt(offset));
const findReferences = (ws: Workspace, doc: Doc, offset: number, includeDeclaration: boolean) => referencesAt(testContext(ws), doc.uri, doc.positionAt(offset), includeDeclaration);
const rename = (ws: Workspace, doc: Doc, offset: number, newName: string) => renameAt(testContext(ws), doc.uri, doc.positionAt(offset), newName);
const completion = (ws: Workspace, doc: Doc, offset: number) => completeAt(testContext(ws), doc, offset);

/** Hover at the cursor. */
export function checkHover(spec: Spec, snapshot: Expect, request: (ws: Workspace, doc: Doc, offset: number) => Hover | null = hoverAnswer): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  check(renderHover(fx, doc.uri, request(fx.ws, doc, offset)), snapshot);
  return fx;
}

type LocationRequest = (ws: Workspace, doc: Doc, offset: number) => readonly Location[] | undefined | null;

/** Go to definition at the cursor lands on exactly the `^^^` ranges. */
export function checkDefinition(spec: Spec, request: LocationRequest = definition): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  assert.equal(renderLocations(fx, request(fx.ws, doc, offset) ?? []), markedPlaces(fx));
  return fx;
}

/** Find references at the cursor finds exactly the `^^^` ranges. */
export function checkReferences(
  spec: Spec, includeDeclaration: boolean,
  request: (ws: Workspace, doc: Doc, offset: number, includeDeclaration: boolean) => readonly Location[] | undefined | null = findReferences,
): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  assert.equal(renderLocations(fx, request(fx.ws, doc, offset, includeDeclaration) ?? []), markedPlaces(fx));
  return fx;
}

/** Rename at the cursor: the edits. */
export function checkRename(
  spec: Spec, newName: string, snapshot: Expect,
  request: (ws: Workspace, doc: Doc, offset: number, newName: string) => WorkspaceEdit | null | undefined = rename,
): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  check(renderEdit(fx, request(fx.ws, doc, offset, newName)), snapshot);
  return fx;
}

/** Completion at the cursor. */
export function checkCompletion(spec: Spec, snapshot: Expect, request: (ws: Workspace, doc: Doc, offset: number) => CompletionList | null = completion): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  check(renderCompletion(request(fx.ws, doc, offset)), snapshot);
  return fx;
}

/** The outline of one file. */
export function checkSymbols(spec: Spec, file: string, snapshot: Expect): Fixture {
  const fx = fixtureOf(spec);
  check(renderSymbols(documentSymbols(fx.ws, fx.doc(file))), snapshot);
  return fx;
}

/** The folding ranges of one file. */
export function checkFolding(spec: Spec, file: string, snapshot: Expect): Fixture {
  const fx = fixtureOf(spec);
  check(renderFolding(fx.doc(file), foldingRanges(fx.doc(file))), snapshot);
  return fx;
}

/** The document links of one file. */
export function checkLinks(spec: Spec, file: string, snapshot: Expect): Fixture {
  const fx = fixtureOf(spec);
  check(renderLinks(fx, documentLinks(fx.ws, fx.doc(file))), snapshot);
  return fx;
}

/** The published diagnostics of one file. */
export function checkDiagnostics(spec: Spec, file: string, snapshot: Expect, settings?: DiagnosticSettings): Fixture {
  const fx = fixtureOf(spec);
  check(renderDiagnostics(computeDiagnostics(fx.ws, fx.doc(file), settings)), snapshot);
  return fx;
}

/** The typo fixes offered at the cursor. */
export function checkTypoFixes(spec: Spec, snapshot: Expect): Fixture {
  const fx = fixtureOf(spec);
  const { doc, offset } = cursorOf(fx);
  const at = doc.positionAt(offset);
  check(renderActions(fx, typoFixes(fx.ws, doc, { start: at, end: at })), snapshot);
  return fx;
}
