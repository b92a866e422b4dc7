// Fitting examples of the candidate-proof ranker (proofRanker.ts in the server).
import type { SoftmaxGroup } from 'mathsense-server/api/index';

/** A fitting example: the gold proof and the query's best `negatives` others by the parameter-free fusion. */
export function proofGroup(cols: Float32Array[], gold: number, negatives = 60): SoftmaxGroup {
  const fused = Array.from(cols[0], (v, j) => ({ j, s: v + cols[1][j] })).filter((x) => x.j !== gold).sort((a, b) => b.s - a.s || a.j - b.j).slice(0, negatives);
  const row = (j: number) => cols.map((c) => c[j]);
  return { x: [row(gold), ...fused.map((x) => row(x.j))], gold: [0] };
}

