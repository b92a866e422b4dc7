// Go to definition, find references and rename for labels, across the whole workspace
// (including references through xr `\externaldocument` prefixes).
import { DocumentHighlightKind, type DocumentHighlight, type Location, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { Doc, LabelLocation, Workspace } from '../../project/workspace.js';
import type { DocLabel } from '../../model/documentView.js';
import { pathToUri, uriToPath } from '../../project/files.js';
import { targetAt } from './cursor.js';
import { macroRefs } from '../../project/userMacros.js';

interface Occurrence { doc: Doc; start: number; end: number; isDefinition: boolean; prefix: string }

function definitionsAt(ws: Workspace, doc: Doc, offset: number): LabelLocation[] | undefined {
  const t = targetAt(doc, offset, ws);
  if (!t || t.type === 'include') return undefined;
  if (t.type === 'label') return [{ doc, label: t.label, prefix: '' }];
  return ws.findLabel(doc, t.name);
}

/** The label's definitions and the references resolving to them (in `only`, when given). */
function occurrences(ws: Workspace, defs: LabelLocation[], only?: Doc): Occurrence[] {
  if (defs.length === 0) return [];
  const out: Occurrence[] = [];
  const defLabels = new Set(defs.map((d) => d.label));
  const names = new Set(defs.map((d) => d.label.name));
  for (const d of defs) if (!only || d.doc === only) out.push({ doc: d.doc, start: d.label.start, end: d.label.end, isDefinition: true, prefix: '' });
  for (const doc of only ? [only] : ws.all()) {
    for (const ref of [...doc.refs(), ...macroRefs(ws, doc)]) {
      let candidate = false;
      for (const n of names) if (ref.name.endsWith(n)) candidate = true;
      if (!candidate) continue;
      for (const loc of ws.findLabel(doc, ref.name)) {
        if (defLabels.has(loc.label)) {
          out.push({ doc, start: ref.start, end: ref.end, isDefinition: false, prefix: loc.prefix });
          break;
        }
      }
    }
  }
  return out;
}

export function definition(ws: Workspace, doc: Doc, offset: number): Location[] {
  const t = targetAt(doc, offset, ws);
  if (t?.type === 'include') {
    const p = ws.resolveIncludePath(doc, t.include);
    const zero = { line: 0, character: 0 };
    return p ? [{ uri: pathToUri(p), range: { start: zero, end: zero } }] : [];
  }
  const defs = definitionsAt(ws, doc, offset) ?? [];
  return defs.map((d) => ({ uri: d.doc.uri, range: d.doc.range(d.label.start, d.label.end) }));
}

export function findReferences(ws: Workspace, doc: Doc, offset: number, includeDeclaration: boolean): Location[] {
  const defs = definitionsAt(ws, doc, offset);
  if (!defs) return [];
  return occurrences(ws, defs)
    .filter((o) => includeDeclaration || !o.isDefinition)
    .map((o) => ({ uri: o.doc.uri, range: o.doc.range(o.start, o.end) }));
}

/** How often a label is referenced across the workspace (through xr prefixes and the project's macros too). */
export function referenceCount(ws: Workspace, doc: Doc, label: DocLabel): number {
  let n = 0;
  for (const o of occurrences(ws, [{ doc, label, prefix: '' }])) if (!o.isDefinition) n++;
  return n;
}

/** The label under the cursor and its references in this document (the label written, the references read). */
export function labelHighlights(ws: Workspace, doc: Doc, offset: number): DocumentHighlight[] {
  const defs = definitionsAt(ws, doc, offset);
  if (!defs) return [];
  return occurrences(ws, defs, doc).map((o) => ({ range: doc.range(o.start, o.end), kind: o.isDefinition ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}

export function prepareRename(ws: Workspace, doc: Doc, offset: number): { range: Range; placeholder: string } | null {
  const t = targetAt(doc, offset, ws);
  if (!t || t.type === 'include') return null;
  if (t.type === 'ref' && ws.findLabel(doc, t.name).length === 0) return null;
  return { range: doc.range(t.start, t.end), placeholder: t.name };
}

export class RenameError extends Error {}

const LABEL_NAME = /^[^\s{}%#,\\]+$/;

export function rename(ws: Workspace, doc: Doc, offset: number, newName: string): WorkspaceEdit | null {
  if (!LABEL_NAME.test(newName)) throw new RenameError(`'${newName}' is not a valid label name (no spaces, braces, commas, % or #)`);
  const defs = definitionsAt(ws, doc, offset);
  if (!defs || defs.length === 0) return null;
  const occs = occurrences(ws, defs);
  const clash = existingLabel(ws, defs, occs, newName);
  if (clash) throw new RenameError(`a label '${newName}' already exists in this project (${clash}): renaming would duplicate it and merge its references`);
  // a name made through a macro with more around its argument (`\\lemref{x}` = `\\ref{lem:x}`) is not the argument's text
  const partial = occs.find((o) => o.doc.text.slice(o.start, o.end).trim() !== `${o.prefix}${defs[0].label.name}`);
  if (partial) throw new RenameError(`'${defs[0].label.name}' is also written through a macro that adds to its argument (${partial.doc.uri.slice(partial.doc.uri.lastIndexOf('/') + 1)}:${partial.doc.positionAt(partial.start).line + 1}): rename it there by hand`);
  const changes: Record<string, TextEdit[]> = {};
  for (const o of occs) {
    (changes[o.doc.uri] ??= []).push({ range: o.doc.range(o.start, o.end), newText: o.prefix + newName });
  }
  return { changes };
}

/**
 * Where `newName` is already defined, as seen from the project of the label being renamed
 * (its scope and the xr external documents it references under their prefixes), and from every
 * document that refers to it (`prefix + newName` there): `file:line` of one such label, or
 * undefined. The label being renamed itself does not count (renaming to the same name).
 */
function existingLabel(ws: Workspace, defs: LabelLocation[], occs: Occurrence[], newName: string): string | undefined {
  const own = new Set(defs.map((d) => d.label));
  const checked = new Set<string>();
  const probe = (from: Doc, name: string): string | undefined => {
    const key = `${from.uri}\u0000${name}`;
    if (checked.has(key)) return undefined;
    checked.add(key);
    const other = ws.findLabel(from, name).find((l) => !own.has(l.label));
    if (!other) return undefined;
    const file = uriToPath(other.doc.uri) ?? other.doc.uri;
    return `${file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1)}:${other.doc.range(other.label.start, other.label.end).start.line + 1}`;
  };
  for (const d of defs) {
    const hit = probe(d.doc, newName);
    if (hit) return hit;
  }
  for (const o of occs) {
    if (o.isDefinition) continue;
    const hit = probe(o.doc, o.prefix + newName);
    if (hit) return hit;
  }
  return undefined;
}
