// K-means over unit vectors and the cluster accuracy of a partition against gold labels, for
// the E-Gen style evaluation of the formula encoder ("K-means cluster accuracy": cluster the
// embeddings of expressions from K equivalence classes into K groups, then count the items of
// the best one-to-one matching of groups to classes).
import { assignTopK } from './metrics.js';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function normalise(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}

/** Spherical k-means (cosine), k-means++ seeding, best of `restarts` by total similarity. */
export function kmeans(vectors: readonly Float32Array[], k: number, random: () => number, opts: { restarts?: number; iterations?: number } = {}): number[] {
  const xs = vectors.map(normalise);
  let best: number[] = [];
  let bestScore = -Infinity;
  for (let r = 0; r < (opts.restarts ?? 5); r++) {
    const centres = seed(xs, k, random);
    let assign = new Array<number>(xs.length).fill(-1);
    let score = 0;
    for (let it = 0; it < (opts.iterations ?? 50); it++) {
      score = 0;
      let changed = false;
      const next = xs.map((x, i) => {
        let c = 0, s = -Infinity;
        for (let j = 0; j < centres.length; j++) { const d = dot(x, centres[j]); if (d > s) { s = d; c = j; } }
        score += s;
        if (c !== assign[i]) changed = true;
        return c;
      });
      assign = next;
      if (!changed) break;
      for (let j = 0; j < centres.length; j++) {
        const sum = new Float32Array(xs[0].length);
        let n = 0;
        xs.forEach((x, i) => { if (assign[i] === j) { n++; for (let d = 0; d < x.length; d++) sum[d] += x[d]; } });
        if (n) centres[j] = normalise(sum); // an empty cluster keeps its centre
      }
    }
    if (score > bestScore) { bestScore = score; best = assign; }
  }
  return best;
}

function seed(xs: readonly Float32Array[], k: number, random: () => number): Float32Array[] {
  const centres = [xs[Math.floor(random() * xs.length)]];
  const dist = xs.map((x) => 1 - dot(x, centres[0]));
  while (centres.length < k) {
    const total = dist.reduce((a, b) => a + Math.max(0, b) ** 2, 0);
    let pick = 0;
    if (total > 0) {
      let t = random() * total;
      for (pick = 0; pick < xs.length - 1; pick++) { t -= Math.max(0, dist[pick]) ** 2; if (t <= 0) break; }
    } else pick = Math.floor(random() * xs.length);
    centres.push(xs[pick]);
    xs.forEach((x, i) => { dist[i] = Math.min(dist[i], 1 - dot(x, xs[pick])); });
  }
  return centres;
}

/**
 * Fraction of items in the best one-to-one matching of predicted groups to gold classes
 * (Hungarian). Groups beyond the number of classes (a partition finer than the gold one)
 * match nothing, so over-splitting costs accuracy. Group labels are any values (k-means ids, keys).
 */
export function clusterAccuracy<G>(pred: readonly G[], gold: readonly number[]): number {
  const groups = [...new Set(pred)];
  const classes = [...new Set(gold)];
  const gi = new Map(groups.map((g, i) => [g, i]));
  const ci = new Map(classes.map((c, i) => [c, i]));
  const counts = groups.map(() => new Array<number>(classes.length).fill(0));
  pred.forEach((p, i) => { counts[gi.get(p)!][ci.get(gold[i])!]++; });
  // the assignment needs rows <= columns: transpose when there are more groups than classes
  const rows = groups.length <= classes.length ? counts : classes.map((_, c) => counts.map((r) => r[c]));
  const cols = rows[0].length;
  const match = assignTopK(rows, cols);
  const total = match.reduce((s, c, r) => s + (c >= 0 ? rows[r][c] : 0), 0);
  return total / pred.length;
}
