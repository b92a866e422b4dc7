// The one message for a file a document names and that is not there (an \input, an xr
// document, a .bib), shared by the label and the citation diagnostics.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../project/workspace.js';

/** `shown`: the file as the user wrote it (with the extension looked for); `consequence`: what is unknown without it. */
export function missingInclude(doc: Doc, inc: DocInclude, shown: string, consequence: string, source: string): Diagnostic {
  return {
    range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Warning, source, code: 'missing-include',
    message: `File not found: ${shown} (looked beside this file and up to 3 folders up); ${consequence}`,
  };
}
