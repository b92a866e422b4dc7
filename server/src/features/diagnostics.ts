// Label/reference diagnostics (undefined-ref, duplicate-label, unused-label) and structural
// problems found by the analyser (unclosed environments, unmatched \end).
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import type { Doc, Workspace } from '../project/workspace.js';

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
  for (const ref of doc.refs()) {
    if (ws.countLabel(doc, ref.name) > 0) continue;
    out.push({
      range: doc.range(ref.start, ref.end), severity: DiagnosticSeverity.Error, source: SOURCE,
      code: 'undefined-ref', message: `Undefined reference: no \\label{${ref.name}} in this project`,
    });
  }
  const scope = ws.scope(doc);
  for (const [name, defs] of doc.labelMap()) {
    // cheap cached count first; the full lookup only for actual duplicates
    if (defs.length < 2 && ws.countLabel(doc, name) < 2) continue;
    const all = ws.findLabel(doc, name).filter((l) => l.prefix === '' && scope.has(l.doc));
    if (all.length > 1) {
      for (const l of defs) {
        const others = all.filter((o) => o.label !== l).map((o) => `${baseName(o.doc.uri)}:${o.doc.positionAt(o.label.start).line + 1}`);
        out.push({
          range: doc.range(l.start, l.end), severity: DiagnosticSeverity.Error, source: SOURCE,
          code: 'duplicate-label', message: `Duplicate label '${name}' (also at ${others.join(', ')})`,
        });
      }
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
  if (settings.structure) {
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
    for (const ref of d.refs()) {
      for (const loc of ws.findLabel(d, ref.name)) if (loc.doc === doc) used.add(loc.label.name);
    }
  }
  return used;
}

function baseName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}
