// The code-action request: a typo in a `\ref` or `\cite` key first (the nearest names), then
// "Ignore this step" on a flagged derivation step, then the index's suggestions (results to
// cite, candidate proofs). Each source may fail on its own; every edit names the document's version.
import type { CodeAction, Diagnostic, Range } from 'vscode-languageserver-types';
import type { Doc } from '../project/workspace.js';
import type { FeatureContext } from './context.js';
import { derivationCodeActions } from './equations/derivation.js';
import { typoFixes } from './labels/typoFixes.js';
import { citeCodeActions } from './index/resultsToCite.js';
import { proofCodeActions } from './index/candidateProofs.js';
import { versionedActions } from './versionedEdits.js';

export function codeActionsAt(ctx: FeatureContext, doc: Doc, range: Range, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const { ws, index } = ctx;
  // every edit names the version of the document it was made for
  return versionedActions(ctx, [
    ...ctx.guard('codeAction (typos)', [], () => typoFixes(ws, doc, range, diagnostics)),
    ...derivationCodeActions(doc, ctx.steps(doc), range),
    ...ctx.guard('codeAction (cite)', [], () => citeCodeActions(ws, doc, range, index, ctx.resultsPanel)),
    ...ctx.guard('codeAction (proofs)', [], () => proofCodeActions(ws, doc, range, index, ctx.resultsPanel)),
  ]);
}
