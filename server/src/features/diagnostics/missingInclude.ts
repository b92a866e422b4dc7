// The one message for a file a document names and that is not there (an \input, an xr
// document, a .bib), shared by the label and the citation diagnostics. A file the build
// writes (a version stamp, a figure export, a build folder's output) is information: a source
// checkout does not have it yet. (A name that differs only in letter case is found, as TeX
// Live finds it: Workspace#resolveIncludePath.)
import type { Diagnostic } from 'vscode-languageserver-types';
import type { DocInclude } from '../../model/documentView.js';
import type { Doc } from '../../project/workspace.js';
import { buildOutput } from '../../project/buildOutputs.js';
import { diagnostic, type Severity } from './codes.js';

/**
 * `shown`: the file as the user wrote it (with the extension looked for); `consequence`: what is
 * unknown without it; `outside`: the file it names outside the workspace folders, not read
 * because the workspace is not trusted; `severity`: for a file that is not there as such (an xr
 * document, which its own build writes).
 */
export function missingInclude(doc: Doc, inc: DocInclude, shown: string, consequence: string, outside?: string, severity?: Severity): Diagnostic {
  const range = doc.range(inc.start, inc.end);
  if (outside) return diagnostic('missing-include', range, `Not read: ${outside} is outside the workspace folders, and this workspace is not trusted; ${consequence}`, { severity: 'information' });
  const generated = buildOutput(shown)?.reason;
  if (generated) return diagnostic('missing-include', range, `${shown} is not here: ${generated}; ${consequence}`, { severity: 'information' });
  return diagnostic('missing-include', range, `File not found: ${shown} (looked beside this file and up to 3 folders up); ${consequence}`, { severity });
}
