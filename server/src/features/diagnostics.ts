// Label/reference diagnostics (undefined-ref, duplicate-label, unused-label) and structural
// problems found by the analyser (unclosed environments, unmatched \end), includes whose
// file is missing, includes that close a cycle or read a file twice, citations no
// bibliography defines (features/citations.ts).
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import type { Doc, Workspace } from '../project/workspace.js';
import { wrappedUses, wrappersOf } from '../project/wrappedLabels.js';
import { missingInclude } from './missingInclude.js';
import { citationDiagnostics } from './citations.js';

export const SOURCE = 'mathsense';

export interface DiagnosticSettings {
  unusedLabels: boolean;
  structure: boolean;
}

export const defaultDiagnosticSettings: DiagnosticSettings = { unusedLabels: false, structure: true };

export function computeDiagnostics(ws: Workspace, doc: Doc, settings: DiagnosticSettings = defaultDiagnosticSettings): Diagnostic[] {
  const out: Diagnostic[] = [];
  const readError = ws.readError(doc.uri);
  if (readError) {
    out.push({ range: doc.range(0, 0), severity: DiagnosticSeverity.Warning, source: SOURCE, code: 'unreadable', message: `Could not read this file: ${readError}` });
  }
  // Walk block facts directly (relative offsets + block start): the keystroke path then
  // allocates nothing for the thousands of references that resolve.
  const scope = ws.scope(doc);
  const duplicates = new Set<string>();
  // labels and references made by the project's own macros (\lemref{x} = Lemma~\ref{lem:x})
  const wrappers = wrappersOf(ws, doc);
  const wrappedLabels = new Set<string>();
  if (wrappers.some((w) => w.kind === 'label')) for (const d of scope) for (const u of wrappedUses(d, wrappers)) if (u.kind === 'label') wrappedLabels.add(u.name);
  const defined = (name: string) => wrappedLabels.has(name) || ws.countLabel(doc, name) > 0;
  for (const u of wrappedUses(doc, wrappers)) {
    if (u.kind !== 'ref' || defined(u.name)) continue;
    out.push({
      range: doc.range(u.start, u.end), severity: DiagnosticSeverity.Error, source: SOURCE,
      code: 'undefined-ref', message: `Undefined reference: no \\label{${u.name}} in this project (through \\${u.macro})`,
    });
  }
  for (const block of doc.blocks()) {
    for (const ref of block.facts.refs) {
      if (defined(ref.name)) continue;
      out.push({
        range: doc.range(block.start + ref.start, block.start + ref.end), severity: DiagnosticSeverity.Error, source: SOURCE,
        code: 'undefined-ref', message: `Undefined reference: no \\label{${ref.name}} in this project`,
      });
    }
    // cheap cached count first; the full lookup only for actual duplicates
    for (const l of block.facts.labels) if (ws.countLabel(doc, l.name) > 1) duplicates.add(l.name);
  }
  for (const name of duplicates) {
    const all = ws.findLabel(doc, name).filter((l) => l.prefix === '' && scope.has(l.doc));
    if (all.length < 2) continue;
    for (const l of doc.labelMap().get(name) ?? []) {
      const others = all.filter((o) => o.label !== l).map((o) => `${baseName(o.doc.uri)}:${o.doc.positionAt(o.label.start).line + 1}`);
      out.push({
        range: doc.range(l.start, l.end), severity: DiagnosticSeverity.Error, source: SOURCE,
        code: 'duplicate-label', message: `Duplicate label '${name}' (also at ${others.join(', ')})`,
      });
    }
  }
  if (settings.unusedLabels) {
    const used = usedLabelNames(ws, doc);
    for (const l of doc.labels()) {
      if (used.has(l.name)) continue;
      out.push({
        range: doc.range(l.start, l.end), severity: DiagnosticSeverity.Hint, source: SOURCE, code: 'unused-label',
        message: `Label '${l.name}' is never referenced`, tags: [DiagnosticTag.Unnecessary],
      });
    }
  }
  // undefined-citation; a missing or unreadable .bib of this document (missing-include, unreadable)
  out.push(...citationDiagnostics(ws, doc, SOURCE, settings.structure));
  if (settings.structure) {
    for (const inc of doc.includes()) {
      // a path built from macros (\input{\dir/x}) cannot be resolved here: not reported
      if (inc.kind === 'bibliography' || /[\\#]/.test(inc.path) || !inc.path.trim()) continue;
      if (ws.resolveIncludePath(doc, inc)) continue;
      const what = inc.kind === 'external' ? 'its labels (referenced through this document) are unknown' : 'its labels and contents are unknown';
      out.push(missingInclude(doc, inc, `${inc.dir ? `${inc.dir}/` : ''}${inc.path}`, what, SOURCE));
    }
    const incs = doc.includes();
    for (const issue of ws.includeIssues(doc)) {
      const inc = incs[issue.index];
      // reading a label-free snippet (a figure, a signature) twice is harmless and common
      if (!inc || (issue.kind === 'twice' && issue.target!.labels().length === 0)) continue;
      const message = issue.kind === 'cycle'
        ? `include cycle: ${issue.cycle!.map((d) => baseName(d.uri)).join(' → ')}`
        : `${baseName(issue.target!.uri)} is already included (${where(issue.first!)}): LaTeX reads it twice and reports every label in it as multiply defined`;
      out.push({ range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Warning, source: SOURCE, code: issue.kind === 'cycle' ? 'include-cycle' : 'duplicate-include', message });
    }
    for (const p of doc.problems()) {
      out.push({ range: doc.range(p.start, p.end), severity: DiagnosticSeverity.Warning, source: SOURCE, code: p.code, message: p.message });
    }
  }
  return out;
}

/** Names of labels of `doc` referenced anywhere: in its project or through xr prefixes. */
function usedLabelNames(ws: Workspace, doc: Doc): Set<string> {
  const used = new Set<string>();
  for (const d of ws.all()) {
    const names = [...d.refs().map((r) => r.name), ...wrappedUses(d, wrappersOf(ws, d)).filter((u) => u.kind === 'ref').map((u) => u.name)];
    for (const name of names) {
      for (const loc of ws.findLabel(d, name)) if (loc.doc === doc) used.add(loc.label.name);
    }
  }
  return used;
}

/** `file:line` of an include. */
function where(at: { doc: Doc; index: number }): string {
  const inc = at.doc.includes()[at.index];
  return `${baseName(at.doc.uri)}:${inc ? at.doc.positionAt(inc.start).line + 1 : '?'}`;
}

function baseName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}
