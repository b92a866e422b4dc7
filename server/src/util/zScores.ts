// Per-query standardisation: the parameter-free way scores of different scales are added
// (BM25 and cosine, a direct match and neighbour votes, title features and a text match).
// Shared by retrieval (index/) and evaluation (embeddings/eval/), so both fuse identically.

/** Mean and standard deviation (1 when the scores are all equal, so nothing divides by 0). */
export function meanSd(x: ArrayLike<number>): [number, number] {
  let mean = 0;
  for (let i = 0; i < x.length; i++) mean += x[i];
  mean /= x.length || 1;
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i] - mean) ** 2;
  return [mean, Math.sqrt(v / (x.length || 1)) || 1];
}

export function zScores(x: ArrayLike<number>): Float32Array {
  const [m, sd] = meanSd(x);
  // a loop, not Float32Array.from with a map function: the index standardises tens of
  // thousands of scores per search, and V8 runs the callback form far slower
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i] - m) / sd;
  return out;
}

/** Per-query z-scores summed: the parameter-free BM25 + encoder fusion. */
export function fuseZ(a: ArrayLike<number>, b: ArrayLike<number>): Float32Array {
  const [ma, sa] = meanSd(a), [mb, sb] = meanSd(b);
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] - ma) / sa + (b[i] - mb) / sb;
  return out;
}
