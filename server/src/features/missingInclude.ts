// The one message for a file a document names and that is not there (an \input, an xr
// document, a .bib), shared by the label and the citation diagnostics. A file the build
// writes (a version stamp, a figure export, a build folder's output) is information: a source
// checkout does not have it yet. (A name that differs only in letter case is found, as TeX
// Live finds it: Workspace#resolveIncludePath.)
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../project/workspace.js';
import { buildOutput } from '../project/buildOutputs.js';

/**
 * `shown`: the file as the user wrote it (with the extension looked for); `consequence`: what is
 * unknown without it; `outside`: the file it names outside the workspace folders, not read
 * because the workspace is not trusted.
 */
export function missingInclude(doc: Doc, inc: DocInclude, shown: string, consequence: string, source: string, outside?: string): Diagnostic {
  if (outside) {
    return {
      range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Information, source, code: 'missing-include',
      message: `Not read: ${outside} is outside the workspace folders, and this workspace is not trusted; ${consequence}`,
    };
  }
  const generated = buildOutput(shown)?.reason;
  if (generated) {
    return {
      range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Information, source, code: 'missing-include',
      message: `${shown} is not here: ${generated}; ${consequence}`,
    };
  }
  return {
    range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Warning, source, code: 'missing-include',
    message: `File not found: ${shown} (looked beside this file and up to 3 folders up); ${consequence}`,
  };
}
