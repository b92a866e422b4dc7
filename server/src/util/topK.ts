// Partial selection of the best k scores, shared by retrieval (index/) and evaluation
// (embeddings/eval/): a sorted buffer of k indices, O(n log k), no full sort.

/** Indices of the k highest scores, best first (ties: lower index first); over `cand` when given. */
export function topK(scores: ArrayLike<number>, k: number, cand?: readonly number[]): number[] {
  const best: number[] = [];
  const consider = (i: number): void => {
    const s = scores[i];
    if (best.length === k && s <= scores[best[k - 1]]) return;
    let lo = 0, hi = best.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (scores[best[m]] >= s) lo = m + 1; else hi = m; }
    best.splice(lo, 0, i);
    if (best.length > k) best.pop();
  };
  if (cand) for (const i of cand) consider(i);
  else for (let i = 0; i < scores.length; i++) consider(i);
  return best;
}
