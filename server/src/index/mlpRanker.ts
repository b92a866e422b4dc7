// A small non-linear ranker: one hidden layer (tanh) over standardised features, fitted offline
// with the listwise softmax loss of the linear rankers (scripts/src/rankers/mlpFit.ts). Why: the
// signals of results to cite interact (neighbour votes count for more when the direct match is
// weak; a result just before the statement in its file counts for more when its text also
// matches), which a weighted sum cannot express. On the dev queries of both sources it beats the
// linear fit (npm run train:rankers prints both).
import { finiteNumbers, namesFeatures } from './softmaxRanker.js';

export interface MlpModel {
  features: string[];
  /** Standardisation of each input: (x - mean) / scale. */
  mean: number[]; scale: number[];
  /** Hidden units: one weight row over the inputs and a bias each. */
  hidden: number[][]; bias: number[];
  /** Output weight of each hidden unit. */
  out: number[];
}

/** Score of one feature row; a row shorter than the model reads zeros for the missing inputs. */
export function mlpScore(m: MlpModel, row: ArrayLike<number>): number {
  const { w, b, out, d } = folded(m);
  let s = 0;
  for (let h = 0; h < out.length; h++) {
    let a = b[h];
    for (let i = 0; i < d && i < row.length; i++) a += w[h * d + i] * row[i];
    s += out[h] * Math.tanh(a);
  }
  return s;
}

// the standardisation folded into the hidden layer once per model (a request scores up to 18k
// candidates): w' = w / scale, b' = b - Σ w·mean / scale; zeros past a row's end then read as 0
const foldedModels = new WeakMap<MlpModel, { w: Float64Array; b: Float64Array; out: Float64Array; d: number }>();
function folded(m: MlpModel): { w: Float64Array; b: Float64Array; out: Float64Array; d: number } {
  let f = foldedModels.get(m);
  if (!f) {
    const d = m.mean.length, H = m.out.length;
    const w = new Float64Array(H * d), b = new Float64Array(H);
    for (let h = 0; h < H; h++) {
      b[h] = m.bias[h];
      for (let i = 0; i < d; i++) { w[h * d + i] = m.hidden[h][i] / m.scale[i]; b[h] -= (m.hidden[h][i] * m.mean[i]) / m.scale[i]; }
    }
    foldedModels.set(m, (f = { w, b, out: Float64Array.from(m.out), d }));
  }
  return f;
}

/** Whether a stored model reads exactly `features` with consistent shapes and finite numbers. */
export function readsMlp(m: unknown, features: readonly string[]): m is MlpModel {
  if (!namesFeatures(m, features)) return false;
  const x = m as Partial<MlpModel>;
  const d = features.length, H = Array.isArray(x.out) ? x.out.length : 0;
  return H > 0 && finiteNumbers(x.out, H) && finiteNumbers(x.bias, H)
    && finiteNumbers(x.mean, d) && finiteNumbers(x.scale, d) && x.scale.every((v) => v > 0)
    && Array.isArray(x.hidden) && x.hidden.length === H && x.hidden.every((r) => finiteNumbers(r, d));
}
