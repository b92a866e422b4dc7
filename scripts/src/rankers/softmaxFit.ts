// The one fitter of the project's linear rankers (term disambiguation, results to cite):
// softmax (listwise) logistic regression over each query's candidates, every gold candidate a
// target of equal weight, L2 penalty, solved by damped Newton steps from zero weights. The
// objective is convex and has a handful of weights, so Newton converges in a few dozen steps,
// deterministically; a fixed-step gradient descent diverges on features with rare large values
// (the z-scores of sparse neighbour votes reach 30 or more). A constant shift does not change a
// softmax, so there is no intercept.
import { dot, type SoftmaxGroup } from 'mathsense-server/api/index';

/** Weights minimising the mean softmax loss over groups with a gold candidate (plus (l2/2)·|w|²). */
export function fitSoftmaxRanker(groups: SoftmaxGroup[], dim: number, l2 = 1e-3): number[] {
  const use = groups.filter((g) => g.gold.length > 0 && g.x.length > 1);
  const loss = (w: number[]) => {
    let l = 0;
    for (const g of use) {
      const s = g.x.map((x) => dot(w, x));
      const m = Math.max(...s);
      const lse = m + Math.log(s.reduce((a, v) => a + Math.exp(v - m), 0));
      for (const k of g.gold) l += (lse - s[k]) / g.gold.length;
    }
    return l / (use.length || 1) + (l2 / 2) * dot(w, w);
  };
  let w = new Array<number>(dim).fill(0);
  let current = loss(w);
  for (let it = 0; it < 50 && use.length; it++) {
    const grad = w.map((v) => l2 * v);
    const hess = Array.from({ length: dim }, (_, i) => Array.from({ length: dim }, (_, j) => (i === j ? l2 : 0)));
    for (const g of use) {
      const s = g.x.map((x) => dot(w, x));
      const m = Math.max(...s);
      const e = s.map((v) => Math.exp(v - m));
      const z = e.reduce((a, b) => a + b, 0);
      const mu = new Array<number>(dim).fill(0);
      g.x.forEach((x, k) => { const p = e[k] / z; for (let i = 0; i < dim; i++) { mu[i] += p * x[i]; for (let j = 0; j < dim; j++) hess[i][j] += (p * x[i] * x[j]) / use.length; } });
      for (let i = 0; i < dim; i++) { grad[i] += mu[i] / use.length; for (let j = 0; j < dim; j++) hess[i][j] -= (mu[i] * mu[j]) / use.length; }
      for (const k of g.gold) for (let i = 0; i < dim; i++) grad[i] -= g.x[k][i] / g.gold.length / use.length;
    }
    const step = solve(hess, grad);
    let next = w, value = current;
    for (let t = 1; t > 1e-6; t /= 2) { next = w.map((v, i) => v - t * step[i]); value = loss(next); if (value <= current) break; }
    if (!(value < current - 1e-10)) break;
    w = next; current = value;
  }
  return w;
}

/** Solves a x = b for a small symmetric positive definite a (Gaussian elimination, partial pivoting); the Newton step of every fitter here. */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = c + 1; r < n; r++) { const f = m[r][c] / m[c][c]; for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]; }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) { let v = m[r][n]; for (let k = r + 1; k < n; k++) v -= m[r][k] * x[k]; x[r] = v / m[r][r]; }
  return x;
}
