// Retrieval and classification metrics for the model evaluation, and the global decoding of
// statement->proof matching (one proof per statement: a linear assignment over each
// statement's top-k candidates, as in the MATcH thesis).
import { topK } from 'mathsense-server/api/util';

/** 1-based rank of the best-ranked gold candidate. */
export function goldRank(scores: ArrayLike<number>, gold: ReadonlySet<number>): number {
  let best = -Infinity;
  for (const g of gold) best = Math.max(best, scores[g]);
  let rank = 1; // ties count against the gold (pessimistic)
  for (let i = 0; i < scores.length; i++) if (!gold.has(i) && scores[i] >= best) rank++;
  return rank;
}

/** Average precision of the full ranking for one query. */
export function averagePrecision(scores: ArrayLike<number>, gold: ReadonlySet<number>): number {
  const order = topIndices(scores, scores.length);
  let hits = 0;
  let sum = 0;
  for (let r = 0; r < order.length && hits < gold.size; r++) if (gold.has(order[r])) { hits++; sum += hits / (r + 1); }
  return gold.size ? sum / gold.size : 0;
}

export function recallAt(scores: ArrayLike<number>, gold: ReadonlySet<number>, k: number): number {
  const top = topIndices(scores, k);
  return gold.size ? top.filter((i) => gold.has(i)).length / gold.size : 0;
}

/** Indices of the k highest scores, best first (ties: lower index first). */
export function topIndices(scores: ArrayLike<number>, k: number): number[] {
  return topK(scores, k);
}

/**
 * Global decoding: assigns each row (statement) a distinct column (proof) maximising the total
 * score, where only each row's top-k columns are allowed (others cost a large penalty).
 * Hungarian algorithm on the n x m matrix (n <= m), O(n^2 m).
 */
export function assignTopK(rows: Array<ArrayLike<number>>, k: number): number[] {
  const n = rows.length;
  const m = n ? rows[0].length : 0;
  if (n === 0) return [];
  if (n > m) throw new Error('assignTopK: more rows than columns');
  const BIG = 1e6;
  const cost = new Float64Array(n * m).fill(BIG);
  rows.forEach((r, i) => { for (const j of topIndices(r, k)) cost[i * m + j] = -r[j]; });
  const u = new Float64Array(n + 1), v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1), way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity, j1 = 0;
      const base = (i0 - 1) * m - 1;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[base + j] - u[i0] - v[j];
        if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
        if (minv[j] < delta) { delta = minv[j]; j1 = j; }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) { u[p[j]] += delta; v[j] -= delta; } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do { const j1 = way[j0]; p[j0] = p[j1]; j0 = j1; } while (j0);
  }
  const assign = new Array<number>(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]) assign[p[j] - 1] = j - 1;
  return assign;
}

/** Accuracy and macro-F1 over the gold classes. */
export function accuracyMacroF1(gold: string[], predicted: string[]): { accuracy: number; macroF1: number } {
  const classes = new Set(gold);
  let correct = 0;
  const tp = new Map<string, number>(), fp = new Map<string, number>(), fn = new Map<string, number>();
  const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  gold.forEach((g, i) => {
    const p = predicted[i];
    if (p === g) { correct++; inc(tp, g); } else { inc(fn, g); inc(fp, p); }
  });
  let f1 = 0;
  for (const c of classes) {
    const t = tp.get(c) ?? 0;
    const prec = t + (fp.get(c) ?? 0) ? t / (t + (fp.get(c) ?? 0)) : 0;
    const rec = t / (t + (fn.get(c) ?? 0));
    f1 += prec + rec ? (2 * prec * rec) / (prec + rec) : 0;
  }
  return { accuracy: gold.length ? correct / gold.length : 0, macroF1: classes.size ? f1 / classes.size : 0 };
}
