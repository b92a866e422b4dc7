// Fitting the relevance model (server/src/index/relevance.ts): a logistic regression over the
// feature rows, then Platt calibration of its output on other queries, a reliability table on a
// third set, and the threshold that keeps precision where it is asked to be.
import type { Logistic } from 'mathsense-server/api/index';
import { solve } from './softmaxFit.js';

export interface Example { x: number[]; y: 0 | 1 }

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Standardisation of the columns (mean, spread), so that one step size and penalty serve all. */
function scaling(xs: number[][]): { mean: number[]; sd: number[] } {
  const d = xs[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0), sd = new Array<number>(d).fill(0);
  for (const x of xs) for (let j = 0; j < d; j++) mean[j] += x[j] / xs.length;
  for (const x of xs) for (let j = 0; j < d; j++) sd[j] += (x[j] - mean[j]) ** 2 / xs.length;
  return { mean, sd: sd.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) };
}

/**
 * L2-penalised logistic regression by Newton's method on standardised columns, returned in the
 * raw columns' terms (weights and bias), with an identity calibration.
 */
export function fitLogistic(examples: Example[], l2 = 1, iterations = 30): Logistic {
  const xs = examples.map((e) => e.x);
  const { mean, sd } = scaling(xs);
  const d = mean.length;
  const z = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]) / sd[j])]);
  let w = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    z.forEach((row, i) => {
      let s = 0;
      for (let j = 0; j <= d; j++) s += w[j] * row[j];
      const p = sigmoid(s), r = p - examples[i].y, v = p * (1 - p);
      for (let j = 0; j <= d; j++) {
        g[j] += r * row[j];
        for (let k = j; k <= d; k++) H[j][k] += v * row[j] * row[k];
      }
    });
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) H[j][k] = H[k][j];
    for (let j = 1; j <= d; j++) { g[j] += l2 * w[j]; H[j][j] += l2; }
    const step = solve(H, g);
    w = w.map((v, j) => v - step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const weights = mean.map((_, j) => w[j + 1] / sd[j]);
  const bias = w[0] - mean.reduce((a, m, j) => a + (w[j + 1] * m) / sd[j], 0);
  return { weights, bias, platt: { a: 1, c: 0 } };
}

/** The model's uncalibrated score (w·x + b). */
export const logit = (l: Logistic, x: readonly number[]) => x.reduce((s, v, j) => s + l.weights[j] * v, l.bias);

/** Platt scaling: the model refitted as sigmoid(a·logit + c) on other examples. */
export function calibrate(l: Logistic, examples: Example[]): Logistic {
  const one = fitLogistic(examples.map((e) => ({ x: [logit(l, e.x)], y: e.y })), 1e-6);
  return { ...l, platt: { a: one.weights[0], c: one.bias } };
}


/** The reliability table: ten bins of predicted probability, each with its count, mean prediction and observed rate. */
export function reliability(ps: number[], ys: number[]): Array<{ bin: string; n: number; predicted: number; observed: number }> {
  const out = [];
  for (let b = 0; b < 10; b++) {
    const lo = b / 10, hi = (b + 1) / 10;
    const idx = ps.map((p, i) => i).filter((i) => ps[i] >= lo && (b === 9 ? ps[i] <= hi : ps[i] < hi));
    const mean = (f: (i: number) => number) => (idx.length ? idx.reduce((a, i) => a + f(i), 0) / idx.length : 0);
    out.push({ bin: `${lo.toFixed(1)}–${hi.toFixed(1)}`, n: idx.length, predicted: round(mean((i) => ps[i])), observed: round(mean((i) => ys[i])) });
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Brier score and log loss of probabilities against outcomes. */
export function scores(ps: number[], ys: number[]): { brier: number; logLoss: number } {
  let b = 0, l = 0;
  ps.forEach((p, i) => { b += (p - ys[i]) ** 2; const q = Math.min(1 - 1e-9, Math.max(1e-9, p)); l -= ys[i] ? Math.log(q) : Math.log(1 - q); });
  return { brier: round(b / (ps.length || 1)), logLoss: round(l / (ps.length || 1)) };
}

/**
 * The lowest threshold at which the suggestions shown (probability at or above it) are relevant
 * at `precision` or better, from the candidates in steps of 0.05 (1 when none reaches it).
 */
export function thresholdFor(ps: number[], ys: number[], precision: number): number {
  for (let t = 0.05; t < 1; t += 0.05) {
    const shown = ps.map((p, i) => i).filter((i) => ps[i] >= t);
    if (shown.length >= 20 && shown.filter((i) => ys[i]).length / shown.length >= precision) return round(t);
  }
  return 1;
}
