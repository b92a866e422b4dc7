// The hover request. The kinds of hover and their order are in hover/providers.ts (one answer per
// place; the index's contributions only where they were asked for); here the running services are
// handed to them, and the answer's math is presented as the client shows it (presentation/hoverMath.ts).
import { MarkupKind, type Hover } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../project/workspace.js';
import { scopeMacros } from '../math/blocks.js';
import type { MacroDef } from '../math/macros.js';
import { formulaHover } from './presentation/formulaHover.js';
import { presentMath, SOURCE_MATH } from './presentation/hoverMath.js';
import { citeHover } from './citations/citations.js';
import { candidateProofsMarkdown } from './index/candidateProofs.js';
import { disambiguationMarkdown } from './index/termSenses.js';
import { hoverAnswer, type HoverSources } from './hover/providers.js';
import { libraryScope, type FeatureContext } from './context.js';
import { dependencyLine } from './dependencies/dependencyLenses.js';


/** The hover request: the document's own answer, with what the running services add where it applies. */
export function hoverAt(ctx: FeatureContext, doc: Doc, offset: number): Hover | null {
  const providers = ctx.settingsFor(doc).providers;
  return documentHover(ctx.ws, doc, offset, {
    steps: ctx.steps(doc),
    citation: providers.citationHover ? () => ctx.guard('hover (citation)', null, () => citeHover(ctx.ws, doc, offset)) : undefined,
    references: providers.referenceHover,
    term: providers.termHover ? () => ctx.guard('hover (terms)', undefined, () => disambiguationMarkdown(ctx.ws, doc, offset, ctx.index)) : undefined,
    proofs: providers.candidateProofHover ? () => ctx.guard('hover (proofs)', undefined, () => candidateProofsMarkdown(ctx.ws, doc, offset, ctx.index, 3, libraryScope(ctx, doc))) : undefined,
    math: ctx.hoverMath(),
    numbers: () => ctx.numbers(doc),
    dependencies: () => ctx.guard('hover (dependencies)', undefined, () => dependencyLine(ctx.ws, doc, offset)),
  });
}

/**
 * The hover at `offset`: the first kind that answers (hover/providers.ts), its math presented as
 * the client shows it; where none answers, the formula under the cursor, typeset (clients that
 * show images).
 */
export function documentHover(ws: Workspace, doc: Doc, offset: number, src: HoverSources): Hover | null {
  const hm = src.math ?? SOURCE_MATH;
  let macros: MacroDef[] | undefined;
  const projectMacros = () => (macros ??= scopeMacros(ws, doc));
  const h = hoverAnswer(ws, doc, offset, src);
  if (!h) return formulaHover(doc, offset, hm, projectMacros());
  if (typeof h.contents !== 'object' || !('value' in h.contents)) return h;
  return { ...h, contents: { kind: MarkupKind.Markdown, value: presentMath(h.contents.value, hm, projectMacros()) } };
}
