// The one message for a file a document names and that is not there (an \input, an xr
// document, a .bib), shared by the label and the citation diagnostics. A file the build
// writes (a version stamp, a figure export, a build folder's output) is information: a source
// checkout does not have it yet. A file whose name differs only in letter case says so.
import * as path from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { DocInclude } from '../model/documentView.js';
import type { Doc } from '../project/workspace.js';
import { uriToPath } from '../project/files.js';
import { nodeFileSystem, type FileSystem } from '../project/fileSystem.js';
import { buildOutput } from '../project/buildOutputs.js';

/**
 * `shown`: the file as the user wrote it (with the extension looked for); `consequence`: what is
 * unknown without it; `fs`: where to look for a file differing in case (the workspace's).
 */
export function missingInclude(doc: Doc, inc: DocInclude, shown: string, consequence: string, source: string, fs: FileSystem = nodeFileSystem): Diagnostic {
  const generated = buildOutput(shown)?.reason;
  if (generated) {
    return {
      range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Information, source, code: 'missing-include',
      message: `${shown} is not here: ${generated}; ${consequence}`,
    };
  }
  const caseTwin = differsInCase(doc, shown, fs);
  return {
    range: doc.range(inc.start, inc.end), severity: DiagnosticSeverity.Warning, source, code: 'missing-include',
    message: caseTwin
      ? `File not found: ${shown}; ${caseTwin} differs only in letter case (found on macOS and Windows, not on Linux); ${consequence}`
      : `File not found: ${shown} (looked beside this file and up to 3 folders up); ${consequence}`,
  };
}

/** A file beside the including one whose path equals `shown` (or `shown.tex`) but for letter case. */
function differsInCase(doc: Doc, shown: string, fs: FileSystem): string | undefined {
  const from = uriToPath(doc.uri);
  if (!from) return undefined;
  const wanted = path.resolve(path.dirname(from), shown);
  const dir = path.dirname(wanted);
  let names: string[];
  try {
    names = fs.readDir(dir).map((e) => e.name);
  } catch {
    return undefined;
  }
  const base = path.basename(wanted).toLowerCase();
  const hit = names.find((n) => n.toLowerCase() === base || n.toLowerCase() === `${base}.tex`);
  return hit ? path.relative(path.dirname(from), path.join(dir, hit)) : undefined;
}
