// The completion request: which completion a place gets. Inside `\cite{`-like commands the
// bibliography's keys, inside `\ref{`-like ones the project's labels (each can be left to a
// neighbour extension), after `\begin{` / `\end{` environment names, else the project's macros.
import type { CompletionList } from 'vscode-languageserver-types';
import type { Doc } from '../project/workspace.js';
import type { FeatureContext } from './context.js';
import { citeCompletion, citeContextAt } from './citations/citations.js';
import { completion, refContextAt } from './labels/labelCompletion.js';
import { environmentCompletion, macroCompletion } from './structure/environmentCompletion.js';
import { rankRefCompletions } from './index/refRanking.js';

export function completeAt(ctx: FeatureContext, doc: Doc, offset: number): CompletionList | null {
  const { ws } = ctx;
  const providers = ctx.settingsFor(doc).providers;
  // each provider finds its own context; a switched-off one only needs to know it is there
  if (providers.citationCompletion) {
    const cites = ctx.guard('completion (citations)', null, () => citeCompletion(ws, doc, offset));
    if (cites) return cites;
  } else if (citeContextAt(doc, offset)) return null;
  if (providers.labelCompletion) {
    const rank = (rc: Parameters<typeof rankRefCompletions>[2], items: Parameters<typeof rankRefCompletions>[3]) =>
      ctx.guard('completion (ranking)', undefined, () => rankRefCompletions(ws, doc, rc, items, ctx.index));
    const labels = completion(ws, doc, offset, rank, () => ctx.numbers(doc), { editRangeDefault: ctx.completionEditRange });
    if (labels) return labels;
  } else if (refContextAt(doc, offset, ws)) return null;
  return environmentCompletion(ws, doc, offset) ?? macroCompletion(ws, doc, offset);
}
