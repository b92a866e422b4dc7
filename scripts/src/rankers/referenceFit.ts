// Fitting and scoring the results-to-cite rankers (referenceRanker.ts in the server) on groups
// of candidate rows.
import type { LinearModel, SoftmaxGroup } from 'mathsense-server/api/index';
import { fitSoftmaxRanker } from './softmaxFit.js';

/** A query's candidates and which of them it cites (one group of the fit). */
export type ReferenceGroup = SoftmaxGroup;

/** Fits a model on groups of candidate rows (softmaxRanker.ts: every gold reference a target). */
export function fitReferenceModel(groups: ReferenceGroup[], features: readonly string[]): LinearModel {
  return { features: [...features], weights: fitSoftmaxRanker(groups, features.length) };
}

/** Mean average precision and recall@10 of a scored group set (gold outside a group counts as missed). */
export function groupMap(groups: Array<ReferenceGroup & { total: number }>, score: (row: number[]) => number): { map: number; r10: number } {
  let ap = 0, r10 = 0;
  for (const g of groups) {
    const order = g.x.map((x, i) => [score(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const gold = new Set(g.gold);
    let hits = 0, s = 0, top = 0;
    order.forEach(([, i], r) => { if (gold.has(i)) { hits++; s += hits / (r + 1); if (r < 10) top++; } });
    ap += s / g.total;
    r10 += top / g.total;
  }
  return { map: ap / (groups.length || 1), r10: r10 / (groups.length || 1) };
}
