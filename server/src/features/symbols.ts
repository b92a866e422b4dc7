// Document symbols (sections nesting theorem-like environments) and workspace symbols.
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../project/workspace.js';
import { printedNumberOf, type AuxNumbers } from '../project/auxNumbers.js';
import { sectionNames, statementNames } from '../analysis/symbolNames.js';

interface Entry { start: number; end: number; symbol: DocumentSymbol; level: number }

/** The outline, each entry's detail its label (and its number from the last LaTeX run, when there is one). */
export function documentSymbols(ws: Workspace, doc: Doc, numbers?: AuxNumbers): DocumentSymbol[] {
  const detail = (label: string | undefined) => {
    // as the PDF prints it (`2.1†`), never the number with its TeX dropped
    const n = label !== undefined ? printedNumberOf(numbers, label) : undefined;
    return n ? `${n} · ${label}` : label;
  };
  const text = doc.text;
  const sections = doc.sections();
  const labels = doc.labels();
  const entries: Entry[] = [];
  let left = 0;
  const names = sectionNames(doc);
  sections.forEach((s, i) => {
    if (entries.length >= MAX_OUTLINE) { left++; return; }
    // a section runs until the next section of the same or a higher level
    let end = text.length;
    for (let k = i + 1; k < sections.length; k++) if (sections[k].level <= s.level) { end = sections[k].start; break; }
    // its label: written right after the heading (labels are in document order: only those just after it are looked at)
    let label: (typeof labels)[number] | undefined;
    for (let k = firstAfter(labels, s.end); k < labels.length && labels[k].start - s.end < 200; k++) {
      const l = labels[k];
      if (l.env < 0 && !/\S/.test(text.slice(s.end, l.cmdStart))) { label = l; break; }
    }
    const name = names[i].name;
    const range = doc.range(s.start, end);
    entries.push({
      start: s.start, end, level: s.level,
      symbol: { name, detail: detail(label?.name), kind: SymbolKind.Namespace, range, selectionRange: doc.range(s.start, s.end), children: [] },
    });
  });
  for (const { st, name } of statementNames(ws, doc)) {
    if (st.env.parent >= 0 && ws.theorems(doc).get(doc.envs()[st.env.parent].name)) continue;
    if (entries.length >= MAX_OUTLINE) { left++; continue; }
    entries.push({
      start: st.env.start, end: st.env.end, level: 99,
      symbol: {
        name, detail: detail(st.labels[0]?.name), kind: SymbolKind.Class, range: doc.range(st.env.start, st.env.end),
        selectionRange: doc.range(st.env.start, st.env.bodyStart), children: [],
      },
    });
  }
  entries.sort((a, b) => a.start - b.start || a.level - b.level);
  // nest by containment
  const roots: DocumentSymbol[] = [];
  const stack: Entry[] = [];
  for (const e of entries) {
    while (stack.length && !(e.start >= stack[stack.length - 1].start && e.end <= stack[stack.length - 1].end && e.level > stack[stack.length - 1].level)) stack.pop();
    if (stack.length) stack[stack.length - 1].symbol.children!.push(e.symbol);
    else roots.push(e.symbol);
    stack.push(e);
  }
  if (left > 0) {
    // said where the outline ends, rather than an outline that looks complete
    const end = doc.range(text.length, text.length);
    roots.push({ name: `… ${left.toLocaleString('en')} more sections and statements: the outline lists the first ${MAX_OUTLINE.toLocaleString('en')}`, kind: SymbolKind.Null, range: end, selectionRange: end });
  }
  return roots;
}

/**
 * Most entries of one outline: sections all come first, then statements in document order. A
 * generated or concatenated document can hold tens of thousands; an outline that long is
 * megabytes for the editor to receive and of no use to read.
 */
const MAX_OUTLINE = 5000;

/** Index of the first label starting after `offset` (labels in document order). */
function firstAfter(labels: ReadonlyArray<{ start: number }>, offset: number): number {
  let lo = 0;
  let hi = labels.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (labels[mid].start > offset) hi = mid; else lo = mid + 1;
  }
  return lo;
}

export function workspaceSymbols(ws: Workspace, query: string, limit = 1000): SymbolInformation[] {
  const q = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (haystack: string): boolean => q.every((w) => haystack.includes(w));
  const out: SymbolInformation[] = [];
  for (const doc of ws.all()) {
    for (const { section: s, name, haystack } of sectionNames(doc)) {
      if (matches(haystack)) out.push({ name, kind: SymbolKind.Namespace, location: { uri: doc.uri, range: doc.range(s.start, s.end) } });
      if (out.length >= limit) return out;
    }
    for (const { st, name, label, haystack } of statementNames(ws, doc)) {
      if (!matches(haystack)) continue;
      out.push({ name, containerName: label || undefined, kind: SymbolKind.Class, location: { uri: doc.uri, range: doc.range(st.env.start, st.env.bodyStart) } });
      if (out.length >= limit) return out;
    }
  }
  return out;
}
