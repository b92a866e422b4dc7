// Folding ranges: sections (up to the next section of the same or a higher level, or
// `\end{document}`), environments (theorems, proofs, display math, …; the `\end` line stays
// visible), and runs of two or more comment lines. Linear in the document. A client that keeps
// only so many ranges (`rangeLimit`; VS Code's default keeps thousands) gets the outermost ones:
// a huge document then sends what the editor will use, not megabytes it drops.
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver-types';
import type { Doc } from '../project/workspace.js';

export function foldingRanges(doc: Doc, limit?: number): FoldingRange[] {
  const out: FoldingRange[] = [];
  const line = (offset: number) => doc.positionAt(offset).line;
  const push = (startLine: number, endLine: number, kind?: FoldingRangeKind) => {
    if (endLine > startLine) out.push(kind ? { startLine, endLine, kind } : { startLine, endLine });
  };
  const text = doc.text;
  const endDoc = doc.kind === 'latex' ? lastEndDocument(text) : -1;
  const sections = doc.sections();
  sections.forEach((s, i) => {
    let end = endDoc > s.start ? endDoc : text.length;
    for (let k = i + 1; k < sections.length; k++) if (sections[k].level <= s.level) { end = Math.min(end, sections[k].start); break; }
    // the fold ends on the last line before what ends it (a blank line before the next heading is kept out)
    let e = end;
    while (e > s.end && /\s/.test(text[e - 1])) e--;
    push(line(s.start), line(e));
  });
  for (const env of doc.envs()) {
    if (!env.closed) continue;
    // `\end{…}` on a line of its own stays visible; after content on the same line, that line does
    const endLine = line(env.bodyEnd);
    const before = text.slice(text.lastIndexOf('\n', env.bodyEnd - 1) + 1, env.bodyEnd);
    push(line(env.start), /\S/.test(before) ? endLine : endLine - 1);
  }
  // runs of comment lines
  let run = -1, prev = -1, n = 0;
  const flush = () => { if (run >= 0 && prev > run) push(run, prev, FoldingRangeKind.Comment); run = -1; };
  for (let at = 0; at <= text.length; n++) {
    const nl = text.indexOf('\n', at);
    const stop = nl < 0 ? text.length : nl;
    const isComment = doc.kind === 'latex' && /^[ \t]*%/.test(text.slice(at, Math.min(stop, at + 200)));
    if (isComment) { if (run < 0) run = n; prev = n; } else flush();
    if (nl < 0) break;
    at = nl + 1;
  }
  flush();
  out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return limit !== undefined && limit >= 0 && out.length > limit ? outermost(out, limit) : out;
}

/** The `limit` ranges nested least deep (in document order among equals), in document order. */
function outermost(sorted: readonly FoldingRange[], limit: number): FoldingRange[] {
  const depth = new Array<number>(sorted.length);
  const open: number[] = []; // end lines of the ranges enclosing the current one
  sorted.forEach((r, i) => {
    while (open.length && open[open.length - 1] < r.endLine) open.pop();
    depth[i] = open.length;
    open.push(r.endLine);
  });
  const order = sorted.map((_, i) => i).sort((a, b) => depth[a] - depth[b] || a - b);
  return order.slice(0, limit).sort((a, b) => a - b).map((i) => sorted[i]);
}

/** Offset of the last `\end{document}` outside a comment, or -1. */
function lastEndDocument(text: string): number {
  for (let at = text.lastIndexOf('\\end{document}'); at >= 0; at = text.lastIndexOf('\\end{document}', at - 1)) {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    if (!/(^|[^\\])%/.test(text.slice(lineStart, at))) return at;
    if (at === 0) break;
  }
  return -1;
}
