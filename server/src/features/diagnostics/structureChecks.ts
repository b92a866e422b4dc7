// Environments the analyser found unclosed or ended without a beginning (unclosed-environment,
// unmatched-end), outside verbatim-like environments.
import { diagnostic } from './codes.js';
import type { CheckContext } from './checkContext.js';

export function structureChecks(cx: CheckContext): void {
  if (!cx.settings.structure) return;
  const { doc } = cx;
  for (const p of doc.problems()) {
    if (cx.excluded(doc, p.start) || cx.verbatim.has(p.env)) continue;
    cx.out.push({ diagnostic: diagnostic(p.code, doc.range(p.start, p.end), p.message) });
  }
}
