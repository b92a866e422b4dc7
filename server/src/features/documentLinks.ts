// Document links: the file names of `\input`, `\include`, `\subfile`, `\import`, xr's
// `\externaldocument` and `\bibliography`/`\addbibresource` open the file they resolve to
// (the same resolution the project graph uses: beside the file, then up to three folders up).
// Names that resolve to nothing get no link (the missing-include diagnostic says so).
import type { DocumentLink } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../project/workspace.js';
import { pathToUri } from '../project/files.js';

export function documentLinks(ws: Workspace, doc: Doc): DocumentLink[] {
  const out: DocumentLink[] = [];
  const bibs = new Map<string, string | undefined>();
  // the resolved list is cached per include graph, which ignores offsets: matched by name
  const key = (i: { dir?: string; path: string }) => `${i.dir ?? ''}\u0000${i.path}`;
  for (const b of ws.bibliographyIncludes(doc)) if (b.doc === doc) bibs.set(key(b.inc), b.path);
  for (const inc of doc.includes()) {
    // a name built from macros (\input{\dir/x}) cannot be resolved
    if (/[\\#]/.test(inc.path) || !inc.path.trim()) continue;
    const p = inc.kind === 'bibliography' ? bibs.get(key(inc)) : ws.resolveIncludePath(doc, inc);
    if (!p) continue;
    out.push({ range: doc.range(inc.start, inc.end), target: pathToUri(p), tooltip: `Open ${inc.path}` });
  }
  return out;
}
