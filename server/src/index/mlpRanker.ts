// A small non-linear ranker: one hidden layer (tanh) over standardised features, fitted with
// the same listwise softmax loss as the linear rankers (softmaxRanker.ts) by Adam on minibatches
// of queries. Why: the signals of results to cite interact (neighbour votes count for more when
// the direct match is weak; a result just before the statement in its file counts for more when
// its text also matches), which a weighted sum cannot express. On the dev queries of both
// sources it beats the linear fit (npm run train:rankers prints both). Deterministic: seeded
// initialisation and query order.
import { seededRandom } from '../util/random.js';
import { finiteNumbers, namesFeatures, type SoftmaxGroup } from './softmaxRanker.js';

export interface MlpModel {
  features: string[];
  /** Standardisation of each input: (x - mean) / scale. */
  mean: number[]; scale: number[];
  /** Hidden units: one weight row over the inputs and a bias each. */
  hidden: number[][]; bias: number[];
  /** Output weight of each hidden unit. */
  out: number[];
}

export interface MlpOptions { hidden?: number; epochs?: number; batch?: number; lr?: number; l2?: number; seed?: number }

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

/** Fits the model minimising the mean softmax loss over groups with a gold candidate. */
export function fitMlpRanker(groups: SoftmaxGroup[], features: readonly string[], o: MlpOptions = {}): MlpModel {
  const H = o.hidden ?? 16, epochs = o.epochs ?? 15, batch = o.batch ?? 32, lr = o.lr ?? 3e-3, l2 = o.l2 ?? 1e-4;
  const d = features.length;
  const use = groups.filter((g) => g.gold.length > 0 && g.x.length > 1);
  // standardise with the mean and spread of every candidate row of the fit
  const mean = new Array<number>(d).fill(0), sq = new Array<number>(d).fill(0);
  let n = 0;
  for (const g of use) for (const r of g.x) { n++; for (let i = 0; i < d; i++) { mean[i] += r[i] ?? 0; sq[i] += (r[i] ?? 0) ** 2; } }
  for (let i = 0; i < d; i++) { mean[i] /= n || 1; sq[i] = Math.sqrt(Math.max(sq[i] / (n || 1) - mean[i] ** 2, 0)) + 1e-6; }
  const scale = sq;
  const z = use.map((g) => ({ x: g.x.map((r) => Float64Array.from({ length: d }, (_, i) => ((r[i] ?? 0) - mean[i]) / scale[i])), gold: g.gold }));
  // parameters in one vector: hidden weights (H×d), biases (H), output weights (H)
  const rnd = seededRandom(o.seed ?? 1);
  const P = H * d + 2 * H;
  const p = new Float64Array(P);
  const bound = 1 / Math.sqrt(d);
  for (let k = 0; k < H * d + H; k++) p[k] = (2 * rnd() - 1) * bound;
  for (let k = H * d + H; k < P; k++) p[k] = (2 * rnd() - 1) / Math.sqrt(H);
  const m1 = new Float64Array(P), m2 = new Float64Array(P), grad = new Float64Array(P);
  const act = new Float64Array(H);
  let t = 0;
  const order = use.map((_, i) => i);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    for (let b = 0; b < order.length; b += batch) {
      const part = order.slice(b, b + batch);
      grad.fill(0);
      for (const gi of part) {
        const g = z[gi];
        const acts = g.x.map((x) => {
          const a = new Float64Array(H);
          for (let h = 0; h < H; h++) { let s = p[H * d + h]; for (let i = 0; i < d; i++) s += p[h * d + i] * x[i]; a[h] = Math.tanh(s); }
          return a;
        });
        const s = acts.map((a) => { let v = 0; for (let h = 0; h < H; h++) v += p[H * d + H + h] * a[h]; return v; });
        const mx = Math.max(...s);
        const ex = s.map((v) => Math.exp(v - mx));
        const sum = ex.reduce((x, y) => x + y, 0);
        // d loss / d score_k = softmax_k - (1/|gold| if k is gold)
        const ds = ex.map((v) => v / sum);
        for (const k of g.gold) ds[k] -= 1 / g.gold.length;
        g.x.forEach((x, k) => {
          if (ds[k] === 0) return;
          const a = acts[k];
          for (let h = 0; h < H; h++) {
            act[h] = ds[k] * p[H * d + H + h] * (1 - a[h] * a[h]);
            grad[H * d + H + h] += ds[k] * a[h];
            grad[H * d + h] += act[h];
            for (let i = 0; i < d; i++) grad[h * d + i] += act[h] * x[i];
          }
        });
      }
      t++;
      const b1 = 0.9, b2 = 0.999;
      for (let k = 0; k < P; k++) {
        const gk = grad[k] / part.length + l2 * p[k];
        m1[k] = b1 * m1[k] + (1 - b1) * gk;
        m2[k] = b2 * m2[k] + (1 - b2) * gk * gk;
        p[k] -= (lr * m1[k] / (1 - b1 ** t)) / (Math.sqrt(m2[k] / (1 - b2 ** t)) + 1e-8);
      }
    }
  }
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    features: [...features],
    mean: mean.map(r6), scale: scale.map(r6),
    hidden: Array.from({ length: H }, (_, h) => Array.from(p.subarray(h * d, h * d + d), r6)),
    bias: Array.from(p.subarray(H * d, H * d + H), r6),
    out: Array.from(p.subarray(H * d + H, P), r6),
  };
}
