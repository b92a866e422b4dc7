// The code-lens requests: which displays get a "related equations" lens (the per-folder mode:
// every display, only those with something to say, or none) and what a lens says once
// resolved. A list answered before every display was searched, or while the workspace's
// equations are still being analysed, asks to be refreshed; the caller sends the refresh.
import type { CodeLens } from 'vscode-languageserver-types';
import type { Doc } from '../project/workspace.js';
import { SHOW_RELATED_COMMAND } from '../ext/protocol.js';
import type { FeatureContext, FeatureSettings } from './context.js';
import { dependencyLenses } from './dependencies/dependencyLenses.js';
import { equationLenses, lensData, lensSite, lensTitle, matchLenses } from './equations/equationLenses.js';
import { findRelatedEquations } from './equations/relatedEquations.js';

/** A lens resolution waits this long for workspace equations still being analysed. */
export const LENS_WAIT_MS = 1500;
/**
 * Without a client that refreshes lenses, a `matches` list waits this long for the workspace's
 * equations, searches this long, and answers with what it has, a display at a time with the
 * event loop free between them: an editor that asks for lenses as it opens a file must not hold
 * its hovers and completions behind them (the rest come with the next list).
 */
const LENS_LIST_WAIT_MS = 250;
const LENS_BUDGET_MS = 350;
/** `soon`: the rest of the displays are searched by the next request; `analysed`: once the equations are analysed; `filled`: once the caller has searched them in the background (fillLensMatches). */
export type LensRefresh = 'soon' | 'analysed' | 'filled';

export async function codeLensesAt(ctx: FeatureContext, doc: Doc): Promise<{ lenses: CodeLens[]; refresh?: LensRefresh }> {
  const settings = ctx.settingsFor(doc);
  const deps = settings.dependencies.lens
    ? ctx.guard('codeLens (dependencies)', [], () => dependencyLenses(ctx.ws, doc, { graphView: ctx.resultsPanel }))
    : [];
  const r = await equationLensesAt(ctx, doc, settings.equations.lens);
  return { ...r, lenses: [...deps, ...r.lenses] };
}

async function equationLensesAt(ctx: FeatureContext, doc: Doc, mode: FeatureSettings['equations']['lens']): Promise<{ lenses: CodeLens[]; refresh?: LensRefresh }> {
  if (mode === 'off') return { lenses: [] };
  ctx.warmEquations();
  if (mode === 'all') return { lenses: equationLenses(doc) };
  // a client that refreshes gets the list at once with what is known, nothing searched in the
  // request (nor waiting for the workspace's equations to be analysed): the displays not known
  // yet are searched in the background, and the client asked to draw the lenses again
  const opts = ctx.lensRefresh ? { waitMs: 0, budgetMs: 0 } : { waitMs: LENS_LIST_WAIT_MS, budgetMs: LENS_BUDGET_MS, yieldBetween: true };
  // nor for the index's equations (the lenses are drawn again once they are loaded)
  const m = await matchLenses(await ctx.related(opts.waitMs), doc, ctx.lensMatches, opts);
  // the background search waits for the analyses itself
  if (ctx.lensRefresh) return { lenses: m.lenses, ...(m.pending || m.incomplete ? { refresh: 'filled' as const } : {}) };
  return { lenses: m.lenses, ...(m.pending ? { refresh: 'analysed' as const } : m.incomplete ? { refresh: 'soon' as const } : {}) };
}

export async function resolveCodeLens(ctx: FeatureContext, lens: CodeLens): Promise<{ lens: CodeLens; refresh?: LensRefresh }> {
  const d = lensData(lens.data);
  const doc = d && ctx.ws.get(d.uri);
  const site = doc && lensSite(doc, d);
  if (!doc || !site) return { lens: { ...lens, command: { title: 'No equation here', command: '' } } };
  const r = await findRelatedEquations(await ctx.related(), { doc, site }, { waitMs: LENS_WAIT_MS });
  const resolved = { ...lens, command: { title: lensTitle(r), command: r.results.length || r.pending ? SHOW_RELATED_COMMAND : '', arguments: [r] } };
  return { lens: resolved, ...(r.pending ? { refresh: 'analysed' as const } : {}) };
}
