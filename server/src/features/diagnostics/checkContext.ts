// What every check of one document's diagnostics reads: the workspace, the document, the
// settings, and the bodies of the project's verbatim-like environments (listings, excluded
// comments), which are not LaTeX and are never compiled.
import type { Doc, Workspace } from '../../project/workspace.js';
import { verbatimEnvironments } from '../../project/userMacros.js';
import type { Candidate } from './publishGate.js';
import { readSetting } from '../../ext/settings.js';

export interface DiagnosticSettings {
  unusedLabels: boolean;
  /** Statements nothing uses (hint, off by default). */
  unusedStatements?: boolean;
  structure: boolean;
  /** False beside a neighbour that reports them too (LaTeX Workshop, texlab); default on. */
  duplicateLabels?: boolean;
}

export const defaultDiagnosticSettings: DiagnosticSettings = diagnosticSettings(undefined);

/** From the `mathsense` settings section (ext/settings.ts declares each). */
export function diagnosticSettings(raw: unknown): DiagnosticSettings {
  return {
    unusedLabels: readSetting(raw, 'diagnostics.unusedLabels'),
    unusedStatements: readSetting(raw, 'diagnostics.unusedStatements'),
    structure: readSetting(raw, 'diagnostics.structure'),
    duplicateLabels: readSetting(raw, 'diagnostics.duplicateLabels'),
  };
}

export class CheckContext {
  /** The project's verbatim-like environment names. */
  readonly verbatim: ReadonlySet<string>;
  private readonly verbatimSpans = new Map<Doc, Array<{ start: number; end: number }>>();

  constructor(readonly ws: Workspace, readonly doc: Doc, readonly settings: DiagnosticSettings, readonly out: Candidate[]) {
    this.verbatim = verbatimEnvironments(ws, doc);
  }

  /** Whether `at` in `d` (this document or another of the project) is inside a verbatim-like environment (its spans read once). */
  excluded(d: Doc, at: number): boolean {
    if (this.verbatim.size === 0) return false;
    let spans = this.verbatimSpans.get(d);
    if (!spans) { spans = d.envs().filter((e) => this.verbatim.has(e.name)).map((e) => ({ start: e.bodyStart, end: e.bodyEnd })); this.verbatimSpans.set(d, spans); }
    return spans.some((v) => at >= v.start && at < v.end);
  }
}
